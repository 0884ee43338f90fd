import { type SignedInCaller } from './fetch.server.ts'
import { notificationSettingsSchema, pushSubscriptionListSchema, pushSubscriptionSchema, pushUnsubscribedSchema, vapidKeySchema, type NotificationSettings } from './notification-schemas.ts'

/** How the caller hears of messages waiting (decisions 0085, 0087): e-mail, push, quiet hours. */
export const getNotificationSettings = (auth: SignedInCaller) => auth.call('/users/me/notification-settings/', notificationSettingsSchema)

/** Saves them; a quiet hour not HH:MM, one end alone or both the same is a 400 on that field. */
export const saveNotificationSettings = (auth: SignedInCaller, settings: NotificationSettings) =>
  auth.call('/users/me/notification-settings/', notificationSettingsSchema, { method: 'PUT', json: settings })

/** The VAPID public key a browser subscribes with (its applicationServerKey). */
export async function getVapidPublicKey(auth: SignedInCaller): Promise<string> {
  return (await auth.call('/push/vapid-public-key/', vapidKeySchema)).public_key
}

/** The caller's browsers that get push notifications (the push service's host each, never the endpoint). */
export const listPushSubscriptions = (auth: SignedInCaller) => auth.call('/users/me/push-subscriptions/', pushSubscriptionListSchema)

/** Keeps a browser's subscription (PushSubscription.toJSON()'s endpoint and keys), which turns push on. */
export const subscribePush = (auth: SignedInCaller, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) =>
  auth.call('/users/me/push-subscriptions/', pushSubscriptionSchema, { method: 'POST', json: subscription })

/** Forgets the caller's browser of that endpoint; 404 when it is not theirs. */
export const unsubscribePush = (auth: SignedInCaller, endpoint: string) => auth.call('/users/me/push-subscriptions/delete/', pushUnsubscribedSchema, { method: 'POST', json: { endpoint } })

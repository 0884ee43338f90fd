import { z } from 'zod'

/**
 * The notification settings and Web Push subscriptions of decisions 0085 and 0087
 * (docs/provider-api.md, "Messages API" and "Web Push") as the app reads them.
 */

export const notificationSettingsSchema = z.object({ email: z.boolean(), push: z.boolean(), quiet_start: z.string().nullable(), quiet_end: z.string().nullable() })
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>

export const vapidKeySchema = z.object({ public_key: z.string() })

export const pushSubscriptionSchema = z.object({ id: z.number(), service: z.string(), created_at: z.string() })
export const pushSubscriptionListSchema = z.object({ count: z.number(), results: z.array(pushSubscriptionSchema) })
export const pushUnsubscribedSchema = z.object({ deleted: z.boolean() })

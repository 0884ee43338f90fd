import { type SignedInCaller } from './fetch.server.ts'
import { type PaymentMethod } from './purchase-schemas.ts'
import { cardUpdateSchema, subscriptionPageSchema, subscriptionSchema } from './subscription-schemas.ts'

/**
 * Subscriptions (decision 0052). `returnUrl` (with `{SUBSCRIPTION_ID}`) is where a card's payment
 * page sends the subscriber back; the same key again is the same subscription.
 */
export const createSubscription = (auth: SignedInCaller, { productId, method, idempotencyKey, returnUrl }: { productId: number; method: PaymentMethod; idempotencyKey: string; returnUrl: string }) =>
  auth.call('/subscriptions/create/', subscriptionSchema, {
    method: 'POST',
    json: { product_id: productId, method, idempotency_key: idempotencyKey, ...(method === 'card' && { success_url: returnUrl, cancel_url: returnUrl }) },
  })

export const getSubscription = (auth: SignedInCaller, id: number) => auth.call(`/subscriptions/${id}/`, subscriptionSchema)

export const listSubscriptions = (auth: SignedInCaller) => auth.call('/subscriptions/', subscriptionPageSchema, { query: { page_size: 50 } })

/** resume, pay-next (PIX). */
export const subscriptionAction = (auth: SignedInCaller, id: number, action: 'resume' | 'pay-next') => auth.call(`/subscriptions/${id}/${action}/`, subscriptionSchema, { method: 'POST' })

/** Within the 7 days, `now` is the withdrawal (refunded) and `period_end` keeps the period; after them only `period_end` (decision 0081). */
export type CancelAt = 'now' | 'period_end'

export const cancelSubscription = (auth: SignedInCaller, id: number, at: CancelAt) => auth.call(`/subscriptions/${id}/cancel/`, subscriptionSchema, { method: 'POST', json: { at } })

/** Stripe's page to save a new card for a renewing subscription; it comes back to `returnUrl` (decision 0055). */
export const startCardUpdate = (auth: SignedInCaller, id: number, { returnUrl, cancelUrl }: { returnUrl: string; cancelUrl: string }) =>
  auth.call(`/subscriptions/${id}/card/`, cardUpdateSchema, { method: 'POST', json: { success_url: returnUrl, cancel_url: cancelUrl } })

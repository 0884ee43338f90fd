import type { SubscriptionRow } from '#server/subscriptions/repository.ts'

/**
 * The card a renewing subscription is charged to, changed by its subscriber (decision 0055):
 * Stripe's Checkout in `mode=setup` saves the new card to the subscription's customer (our servers
 * never see it); its `checkout.session.completed` makes that card the subscription's default and,
 * while a renewal is unpaid, charges the open invoice to it at once. Stripe's own events then say
 * how it went (`invoice.paid` makes the subscription active again; a refusal leaves it past due,
 * the retries and the 7-day end as before). The page is started by billing/subscriptions.ts's startCardUpdate.
 */

const CARD_STATUSES = ['trialing', 'active', 'past_due']

/** Whether the subscriber can change the card now: a live subscription that Stripe Billing renews. */
export const cardUpdatable = (subscription: Pick<SubscriptionRow, 'method' | 'status' | 'stripeSubscriptionId'>) =>
  subscription.method === 'card' && subscription.stripeSubscriptionId !== null && CARD_STATUSES.includes(subscription.status)

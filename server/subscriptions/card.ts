import Stripe from 'stripe'
import type { Services } from '#server/services.ts'
import type { BillingSignal } from '#server/subscriptions/billing.ts'
import { findSubscriptionByStripe, type SubscriptionRow } from '#server/subscriptions/repository.ts'

/**
 * The card a renewing subscription is charged to, changed by its subscriber (decision 0055):
 * Stripe's Checkout in `mode=setup` saves the new card to the subscription's customer (our servers
 * never see it); its `checkout.session.completed` makes that card the subscription's default and,
 * while a renewal is unpaid, charges the open invoice to it at once. Stripe's own events then say
 * how it went (`invoice.paid` makes the subscription active again; a refusal leaves it past due,
 * the retries and the 7-day end as before). The page is started by service.ts's startCardUpdate.
 */

const CARD_STATUSES = ['trialing', 'active', 'past_due']

/** Whether the subscriber can change the card now: a live subscription that Stripe Billing renews. */
export const cardUpdatable = (subscription: Pick<SubscriptionRow, 'method' | 'status' | 'stripeSubscriptionId'>) =>
  subscription.method === 'card' && subscription.stripeSubscriptionId !== null && CARD_STATUSES.includes(subscription.status)

/**
 * A saved card's event, before its transaction (no Stripe call inside one): the card made the
 * subscription's default, and an unpaid renewal's invoice charged to it. Each step may be done
 * twice (a redelivery) with the same result; a declined card is Stripe's answer, not a failure.
 * A Stripe error other than a decline propagates: the webhook answers 500 and Stripe redelivers.
 */
export async function applySavedCard({ db }: Pick<Services, 'db'>, stripe: Stripe, signal: Extract<BillingSignal, { kind: 'card_saved' }>, eventId: string): Promise<void> {
  const subscription = await findSubscriptionByStripe(db, signal.ref)
  if (!subscription || !cardUpdatable(subscription) || !signal.setupIntentId) return
  const setupIntent = await stripe.setupIntents.retrieve(signal.setupIntentId)
  const card = typeof setupIntent.payment_method === 'string' ? setupIntent.payment_method : setupIntent.payment_method?.id
  if (setupIntent.status !== 'succeeded' || !card) return
  const updated = await stripe.subscriptions.update(subscription.stripeSubscriptionId!, { default_payment_method: card }, { idempotencyKey: `innera-card-${eventId}` })
  if (updated.status !== 'past_due') return
  const invoiceId = typeof updated.latest_invoice === 'string' ? updated.latest_invoice : updated.latest_invoice?.id
  if (!invoiceId) return
  const invoice = await stripe.invoices.retrieve(invoiceId)
  if (invoice.status !== 'open') return
  await stripe.invoices.pay(invoiceId, { payment_method: card }).catch((error: unknown) => {
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error
  })
}

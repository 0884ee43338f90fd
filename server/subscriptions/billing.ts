import type Stripe from 'stripe'
import type { Writer } from '#server/db/client.ts'
import { products, purchases } from '#server/db/schema.ts'
import { eq } from 'drizzle-orm'
import { insertPurchaseIn, recordTransition } from '#server/purchases/repository.ts'
import { queueSubscriptionMail } from '#server/subscriptions/messages.ts'
import { endSubscription, findSubscriptionByStripe, lockSubscription, updateSubscription, type SubscriptionRow } from '#server/subscriptions/repository.ts'

/**
 * Stripe Billing's news about a renewing plan paid by card (decision 0052), read from its events
 * (pure) and applied inside the webhook's transaction, after the event's id was claimed: each event
 * once, and each paid invoice one purchase (the invoice's unique index).
 */

type Ref = { stripeSubscriptionId?: string; subscriptionId?: number }
export type BillingSignal =
  | { kind: 'checkout_completed'; ref: Ref }
  | { kind: 'card_saved'; ref: Ref; setupIntentId: string | undefined }
  | { kind: 'invoice_paid'; ref: Ref; invoiceId: string; amountCents: number; period: { start: number; end: number } | null; trial: boolean }
  | { kind: 'invoice_failed'; ref: Ref; invoiceId: string }
  | { kind: 'subscription_updated'; ref: Ref; status: string; cancelAtPeriodEnd: boolean; period: { start: number; end: number } | null }
  | { kind: 'subscription_deleted'; ref: Ref }

const MAX_ID = 2_147_483_647
const idOf = (value: string | { id: string } | null | undefined): string | undefined => (typeof value === 'string' ? value : (value?.id ?? undefined))

/** metadata[subscription_id] as our id, when it is one. */
function ourId(metadata: Stripe.Metadata | null | undefined): number | undefined {
  const value = metadata?.subscription_id
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return undefined
  const id = Number(value)
  return id <= MAX_ID ? id : undefined
}

type InvoiceParent = { subscription_details?: { subscription?: string | { id: string } | null; metadata?: Stripe.Metadata | null } | null } | null
function invoiceRef(invoice: Stripe.Invoice): Ref {
  const details = (invoice as unknown as { parent?: InvoiceParent }).parent?.subscription_details
  return { stripeSubscriptionId: idOf(details?.subscription), subscriptionId: ourId(details?.metadata) }
}

function subscriptionPeriod(subscription: Stripe.Subscription) {
  const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number }) | undefined
  return item?.current_period_start && item.current_period_end ? { start: item.current_period_start * 1000, end: item.current_period_end * 1000 } : null
}

/** What an event says about a subscription paid through Stripe Billing, if anything. */
export function billingSignalOf(event: Stripe.Event): BillingSignal | undefined {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      // A card saved for a subscription (decision 0055): card.ts's applySavedCard did Stripe's part before the transaction.
      if (session.mode === 'setup') return ourId(session.metadata) === undefined ? undefined : { kind: 'card_saved', ref: { subscriptionId: ourId(session.metadata) }, setupIntentId: idOf(session.setup_intent) }
      if (session.mode !== 'subscription') return undefined
      return { kind: 'checkout_completed', ref: { stripeSubscriptionId: idOf(session.subscription), subscriptionId: ourId(session.metadata) } }
    }
    case 'invoice.paid': {
      const invoice = event.data.object
      const line = invoice.lines?.data?.[0]
      return {
        kind: 'invoice_paid',
        ref: invoiceRef(invoice),
        invoiceId: invoice.id!,
        amountCents: invoice.amount_paid,
        period: line?.period ? { start: line.period.start * 1000, end: line.period.end * 1000 } : null,
        trial: invoice.amount_paid === 0 && invoice.billing_reason === 'subscription_create',
      }
    }
    case 'invoice.payment_failed':
      return { kind: 'invoice_failed', ref: invoiceRef(event.data.object), invoiceId: event.data.object.id! }
    case 'customer.subscription.updated':
    case 'customer.subscription.created': {
      const subscription = event.data.object
      return { kind: 'subscription_updated', ref: { stripeSubscriptionId: subscription.id, subscriptionId: ourId(subscription.metadata) }, status: subscription.status, cancelAtPeriodEnd: subscription.cancel_at_period_end, period: subscriptionPeriod(subscription) }
    }
    case 'customer.subscription.deleted':
      return { kind: 'subscription_deleted', ref: { stripeSubscriptionId: event.data.object.id, subscriptionId: ourId(event.data.object.metadata) } }
    default:
      return undefined
  }
}

type Context = { now: number; appUrl: string; eventId: string; paymentIntentId?: string | null }

/** Applies what Stripe Billing said to our subscription (locked); false when it is about none of ours. */
export async function applyBilling(tx: Writer, signal: BillingSignal, context: Context): Promise<boolean> {
  const found = await findSubscriptionByStripe(tx, signal.ref)
  if (!found) return false
  const subscription = (await lockSubscription(tx, found.id))!
  const { now } = context
  // Stripe's id, learnt from whichever event names it first.
  const link = !subscription.stripeSubscriptionId && signal.ref.stripeSubscriptionId ? { stripeSubscriptionId: signal.ref.stripeSubscriptionId } : {}
  if (subscription.status === 'ended') return true
  switch (signal.kind) {
    case 'checkout_completed':
      await updateSubscription(tx, subscription.id, { ...link, checkoutUrl: null }, now)
      return true
    case 'card_saved':
      await updateSubscription(tx, subscription.id, { cardUpdatedAt: new Date(now) }, now)
      return true
    case 'invoice_paid': {
      if (signal.amountCents > 0) await recordInvoicePayment(tx, subscription, signal, context)
      await updateSubscription(
        tx,
        subscription.id,
        {
          ...link,
          status: signal.trial ? 'trialing' : 'active',
          checkoutUrl: null,
          pastDueSince: null,
          renewalRetries: 0,
          ...(signal.period && { currentPeriodStart: new Date(signal.period.start), currentPeriodEnd: new Date(signal.period.end) }),
          ...(signal.amountCents > 0 && !subscription.firstPaidAt && { firstPaidAt: new Date(now) }),
          // The period a new price was told for has begun: it is what the subscriber pays now (decision 0053).
          ...(signal.period && subscription.nextPriceCents !== null && subscription.nextPriceFrom !== null && subscription.nextPriceFrom.getTime() <= signal.period.start && { priceCents: subscription.nextPriceCents, nextPriceCents: null, nextPriceFrom: null }),
        },
        now,
      )
      return true
    }
    case 'invoice_failed': {
      if (subscription.status === 'incomplete') return true
      // Told once per failed renewal: pastDueSince is set by the first failure and cleared by a payment.
      const told = subscription.pastDueSince !== null
      await updateSubscription(tx, subscription.id, { ...link, status: 'past_due', pastDueSince: subscription.pastDueSince ?? new Date(now) }, now)
      if (!told) await queueSubscriptionMail(tx, subscription, 'renewal_failed', context.appUrl)
      return true
    }
    case 'subscription_updated': {
      const status = signal.status === 'trialing' || signal.status === 'active' || signal.status === 'past_due' ? signal.status : null
      // A subscription not yet paid becomes live with its invoice's payment, not with this news.
      const live = subscription.status !== 'incomplete' && status
      await updateSubscription(
        tx,
        subscription.id,
        { ...link, cancelAtPeriodEnd: signal.cancelAtPeriodEnd, ...(live && { status }), ...(live && signal.period && { currentPeriodStart: new Date(signal.period.start), currentPeriodEnd: new Date(signal.period.end) }) },
        now,
      )
      return true
    }
    case 'subscription_deleted': {
      const unpaid = subscription.status === 'past_due'
      await endSubscription(tx, subscription, unpaid ? 'renewal_failed' : subscription.status === 'incomplete' ? 'not_paid' : 'cancelled', now, link)
      if (unpaid) await queueSubscriptionMail(tx, subscription, 'ended_unpaid', context.appUrl)
      return true
    }
  }
}

/** A paid invoice as the subscription's purchase of its period (once: the invoice's unique index). */
async function recordInvoicePayment(tx: Writer, subscription: SubscriptionRow, signal: Extract<BillingSignal, { kind: 'invoice_paid' }>, { now, eventId, paymentIntentId }: Context) {
  // Under the subscription's lock: an invoice already recorded (another event about it) is not recorded again.
  const [recorded] = await tx.select({ id: purchases.id }).from(purchases).where(eq(purchases.stripeInvoiceId, signal.invoiceId))
  if (recorded) return
  const [plan] = await tx.select().from(products).where(eq(products.id, subscription.productId))
  const purchase = await insertPurchaseIn(
    tx,
    { userId: subscription.userId, method: 'card', totalCents: signal.amountCents, idempotencyKey: `invoice-${signal.invoiceId}`.slice(0, 64), subscriptionId: subscription.id },
    [{ productId: subscription.productId, productType: 'subscription', name: plan!.name, quantity: 1, unitCents: signal.amountCents, lineCents: signal.amountCents, consultations: null, professionalId: null }],
    now,
  )
  await recordTransition(tx, purchase, 'paid', {
    source: 'webhook',
    eventId,
    now,
    changes: {
      paidAt: new Date(now),
      stripeInvoiceId: signal.invoiceId,
      stripePaymentIntentId: paymentIntentId ?? null,
      ...(signal.period && { periodStart: new Date(signal.period.start), periodEnd: new Date(signal.period.end) }),
    },
  })
}

import Stripe from 'stripe'
import type { Writer } from '#server/db/client.ts'
import type { PurchaseMethod } from '#server/db/schema.ts'
import { apiError, fieldError } from '#server/http/errors.ts'
import { findListedProduct, findProductViews, type ProductRow } from '#server/products/repository.ts'
import { cancelPurchase } from '#server/billing/cancellation.ts'
import { MIN_PURCHASE_CENTS } from '#server/db/schema.ts'
import { sendRefunds } from '#server/purchases/refunds.ts'
import { startPurchasePayment, type Buyer } from '#server/billing/checkout.ts'
import { stripeOf, unavailableError } from '#server/stripe/client.ts'
import { insertPurchaseIn, insertRefund, lockPurchase, type PurchaseRow, type RefundRow } from '#server/purchases/repository.ts'
import { quoteRefund, type RefundQuote } from '#server/purchases/refund-rules.ts'
import type { Services } from '#server/services.ts'
import { movePurchase } from '#server/billing/transitions.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { cardUpdatable } from '#server/subscriptions/card.ts'
import { queueSubscriptionMail } from '#server/subscriptions/messages.ts'
import { noticePriceChanges, recurringPrice, setStripePrices } from '#server/subscriptions/price-changes.ts'
import {
  dueForReminder,
  pastDue,
  endSubscription,
  findSubscriptionByKey,
  insertSubscription,
  liveSubscriptionOf,
  lockSubscription,
  paymentsOf,
  periodOver,
  updateSubscription,
  type SubscriptionRow,
} from '#server/subscriptions/repository.ts'
import { termOf } from '#server/subscriptions/periods.ts'
import { nextPeriodCents, PIX_REMINDER_BEFORE_MS, RENEWAL_GRACE_MS, RENEWAL_RETRIES, RENEWAL_RETRY_MS, type PlanTerm } from '#server/subscriptions/terms.ts'

/**
 * Subscriptions (docs/product.md §9, decision 0052). A period is paid by a purchase of one
 * `subscription` line (decision 0048's machinery: PIX, or a card's Checkout for a plan that does
 * not renew); paid, applySignal calls `startPaidPeriod` in its transaction, so a period is granted
 * exactly when its payment is recorded, once. A renewing plan by card is Stripe Billing's.
 */

const conflict = (detail: string, code: string) => apiError(409, detail, { code })
const LIVE = ['incomplete', 'trialing', 'active', 'past_due'] as const

type StartInput = { productId: number; method: PurchaseMethod; idempotencyKey: string; successUrl: string | null; cancelUrl: string | null }

/** The plan in a product, or a 400 on `product_id`. */
async function planOf(services: Services, productId: number): Promise<ProductRow & { planInterval: NonNullable<ProductRow['planInterval']> }> {
  const view = await findListedProduct(services.db, productId)
  if (!view) throw fieldError('product_id', `Invalid pk "${productId}" - object does not exist.`)
  const plan = view.product
  if (plan.productType !== 'subscription' || !plan.planInterval) throw fieldError('product_id', 'This product is not a subscription plan; buy it through a purchase.')
  return plan as ProductRow & { planInterval: NonNullable<ProductRow['planInterval']> }
}

/**
 * Subscribes the buyer to a plan: a renewing plan by card goes to Stripe Billing (its Checkout
 * page takes the card); anything else is a first purchase (a PIX code, or a card's Checkout page).
 * The same idempotency key is the same subscription. One plan at a time (decision 0072: every
 * plan gives the same access): a second live one is a 409 naming the live one, `already_subscribed`
 * to the same plan, `another_plan_live` to another (the database's unique indexes decide).
 */
export async function startSubscription(services: Services, buyer: Buyer, input: StartInput): Promise<{ subscription: SubscriptionRow; purchase: PurchaseRow | null; created: boolean }> {
  const { db, clock } = services
  const stripe = stripeOf(services)
  const earlier = await findSubscriptionByKey(db, buyer.id, input.idempotencyKey)
  if (earlier) return { subscription: earlier, purchase: (await paymentsOf(db, earlier.id))[0] ?? null, created: false }
  const plan = await planOf(services, input.productId)
  if (plan.priceCents < MIN_PURCHASE_CENTS) throw apiError(400, 'A plan must cost at least R$ 0,50.', { code: 'total_too_small' })
  const term = termOf(plan)
  if (input.method === 'card' && (!input.successUrl || !input.cancelUrl)) {
    throw apiError(400, 'A card payment needs its return addresses.', { success_url: ['This field is required for a card payment.'], cancel_url: ['This field is required for a card payment.'] })
  }
  const now = clock()
  let created: { subscription: SubscriptionRow; purchase: PurchaseRow | null }
  try {
    created = await db.transaction(async (tx) => {
      const subscription = await insertSubscription(tx, { userId: buyer.id, productId: plan.id, method: input.method, priceCents: plan.priceCents, idempotencyKey: input.idempotencyKey }, now)
      if (input.method === 'card' && term.renews) return { subscription, purchase: null }
      return { subscription, purchase: await insertPeriodPurchase(tx, subscription, plan, input.method, plan.priceCents, now) }
    })
  } catch (error) {
    const meanwhile = await findSubscriptionByKey(db, buyer.id, input.idempotencyKey)
    if (meanwhile) return { subscription: meanwhile, purchase: (await paymentsOf(db, meanwhile.id))[0] ?? null, created: false }
    if (isUniqueViolation(error, 'subscriptions_live_unique') || isUniqueViolation(error, 'subscriptions_one_live_per_user_unique')) throw await liveConflict(services, buyer.id, plan.id)
    throw error
  }
  // `{SUBSCRIPTION_ID}` in the return addresses becomes this subscription's id (the subscription's page).
  const withId = (url: string | null) => url && url.replaceAll('{SUBSCRIPTION_ID}', String(created.subscription.id))
  const urls = { successUrl: withId(input.successUrl), cancelUrl: withId(input.cancelUrl) }
  // Stripe away: the purchase fails (nothing to pay was shown), which ends the subscription (periods.ts), and the answer is 503.
  if (created.purchase) return { subscription: created.subscription, purchase: await startPurchasePayment(services, created.purchase, buyer, urls), created: true }
  return { subscription: await startBillingCheckout(services, stripe, created.subscription, plan, term, buyer, urls), purchase: null, created: true }
}

/** The 409 of a second live subscription, naming the one the user has (its page says how to end or change it). */
async function liveConflict(services: Services, userId: number, productId: number) {
  const live = await liveSubscriptionOf(services.db, userId, productId)
  if (!live || live.productId === productId) return apiError(409, 'You already have this plan: see it on your subscriptions.', { code: 'already_subscribed', subscription_id: live?.id ?? null })
  return apiError(409, 'You already have a plan, and every plan gives the same access: one at a time. Another may be taken once it has ended (cancel it on its page).', {
    code: 'another_plan_live',
    subscription_id: live.id,
  })
}

/** A purchase of one period of the plan, inside the caller's transaction. */
function insertPeriodPurchase(tx: Writer, subscription: SubscriptionRow, plan: ProductRow, method: PurchaseMethod, cents: number, now: number): Promise<PurchaseRow> {
  return insertPurchaseIn(
    tx,
    { userId: subscription.userId, method, totalCents: cents, idempotencyKey: `subscription-${subscription.id}-${now}`, subscriptionId: subscription.id },
    [{ productId: plan.id, productType: 'subscription', name: plan.name, quantity: 1, unitCents: cents, lineCents: cents, consultations: null, professionalId: null }],
    now,
  )
}

/** A renewing plan by card: Stripe's Checkout in subscription mode, the trial where the plan has one. */
async function startBillingCheckout(services: Services, stripe: Stripe, subscription: SubscriptionRow, plan: ProductRow, term: PlanTerm, buyer: Buyer, urls: { successUrl: string | null; cancelUrl: string | null }): Promise<SubscriptionRow> {
  const { db, clock } = services
  try {
    const price = await recurringPrice(stripe, plan, term, subscription.priceCents)
    const metadata = { subscription_id: String(subscription.id) }
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [{ price, quantity: 1 }],
        success_url: urls.successUrl!,
        cancel_url: urls.cancelUrl!,
        client_reference_id: `subscription-${subscription.id}`,
        customer_email: buyer.email,
        locale: 'pt-BR',
        metadata,
        subscription_data: { metadata, ...(term.trialDays > 0 && { trial_period_days: term.trialDays }) },
      },
      { idempotencyKey: `innera-subscription-${subscription.id}-start` },
    )
    return await updateSubscription(db, subscription.id, { stripeCheckoutSessionId: session.id, checkoutUrl: session.url }, clock())
  } catch (error) {
    services.log({ level: 'warn', msg: 'subscription checkout not started', subscription_id: subscription.id, error: error instanceof Error ? error.name : 'unknown' })
    await db.transaction(async (tx) => {
      const locked = await lockSubscription(tx, subscription.id)
      if (locked?.status === 'incomplete' && !locked.stripeCheckoutSessionId) await endSubscription(tx, locked, 'not_paid', clock())
    })
    throw unavailableError()
  }
}

// ---------------------------------------------------------------------------------------------
// The subscriber's calls

/** What cancelling now does: within the 7 days of subscribing, the first payment back and the end at once; otherwise the end of the period. */
export async function cancellationQuoteOf(services: Services, subscription: SubscriptionRow, at: number): Promise<{ quote: RefundQuote | null; payment: PurchaseRow | null }> {
  if (!LIVE.includes(subscription.status as (typeof LIVE)[number]) || subscription.status === 'incomplete') return { quote: null, payment: null }
  const payments = (await paymentsOf(services.db, subscription.id)).filter((row) => row.status === 'paid' && row.paidAt && row.periodEnd)
  const first = payments.at(-1)
  if (!first) return { quote: null, payment: null }
  const quote = quoteRefund(
    { kind: 'subscription', payment: { method: first.method, paidAt: first.paidAt!.getTime(), amountCents: first.totalCents }, subscribedAt: subscription.createdAt.getTime(), periodEndsAt: subscription.currentPeriodEnd!.getTime() },
    at,
  )
  return { quote, payment: first }
}

/** How a paid subscription is cancelled: ended now with the withdrawal's refund, or at its period's end. */
export const CANCEL_AT = ['now', 'period_end'] as const
type CancelAt = (typeof CANCEL_AT)[number]

/**
 * Cancels: a subscription not yet paid ends now (its payment cancelled); within the 7 days of
 * subscribing the subscriber chooses (decision 0081): the withdrawal (`now`, the default: the first
 * payment refunded in full, ended now) or the end of the period (`period_end`, access kept, nothing
 * refunded); after them it ends with its period, access kept until then (a card's at Stripe first),
 * and `now` is refused (409 `withdrawal_over`).
 */
export async function cancelSubscription(services: Services, subscription: SubscriptionRow, cancelAt?: CancelAt): Promise<SubscriptionRow> {
  const { db, clock } = services
  if (subscription.status === 'ended') throw conflict('This subscription has already ended.', 'already_ended')
  if (subscription.status === 'incomplete') {
    const pending = (await paymentsOf(db, subscription.id)).find((row) => row.status === 'pending')
    if (pending) await cancelPurchase(services, pending)
    if (subscription.stripeCheckoutSessionId) await expireCheckout(services, subscription.stripeCheckoutSessionId)
    // Its payment's cancellation ended it as unpaid: the subscriber's own cancel is the reason.
    return db.transaction(async (tx) => {
      const locked = (await lockSubscription(tx, subscription.id))!
      if (locked.status === 'incomplete') return endSubscription(tx, locked, 'cancelled', clock())
      return locked.status === 'ended' && locked.endedReason === 'not_paid' ? updateSubscription(tx, locked.id, { endedReason: 'cancelled' }, clock()) : locked
    })
  }
  const at = clock()
  const { quote, payment } = await cancellationQuoteOf(services, subscription, at)
  const withdrawal = quote !== null && payment !== null && quote.refundCents > 0
  if (withdrawal && cancelAt !== 'period_end') return withdraw(services, subscription, payment, quote, at)
  if (cancelAt === 'now' && !withdrawal) throw conflict('The 7 days to withdraw are over: the subscription can end only with its period.', 'withdrawal_over')
  if (subscription.cancelAtPeriodEnd) return subscription
  if (subscription.stripeSubscriptionId) await atStripe(() => stripeOf(services).subscriptions.update(subscription.stripeSubscriptionId!, { cancel_at_period_end: true }))
  return db.transaction(async (tx) => updateSubscription(tx, subscription.id, { cancelAtPeriodEnd: true }, clock()))
}

/** Undoes a cancellation at the period's end while the period runs. */
export async function resumeSubscription(services: Services, subscription: SubscriptionRow): Promise<SubscriptionRow> {
  if (subscription.status === 'ended' || subscription.status === 'incomplete') throw conflict(`This subscription is ${subscription.status}.`, 'not_resumable')
  if (!termOf((await findProductViews(services.db, [subscription.productId]))[0]!.product).renews) throw conflict('This plan does not renew.', 'not_resumable')
  if (!subscription.cancelAtPeriodEnd) return subscription
  if (subscription.stripeSubscriptionId) await atStripe(() => stripeOf(services).subscriptions.update(subscription.stripeSubscriptionId!, { cancel_at_period_end: false }))
  return services.db.transaction(async (tx) => updateSubscription(tx, subscription.id, { cancelAtPeriodEnd: false }, services.clock()))
}

/** The withdrawal: the first payment refunded in full, the subscription ended now (a card's at Stripe first). */
async function withdraw(services: Services, subscription: SubscriptionRow, payment: PurchaseRow, quote: RefundQuote, at: number): Promise<SubscriptionRow> {
  const { db } = services
  if (subscription.stripeSubscriptionId) await atStripe(() => stripeOf(services).subscriptions.cancel(subscription.stripeSubscriptionId!))
  const refunds: RefundRow[] = []
  const result = await db.transaction(async (tx) => {
    const locked = (await lockSubscription(tx, subscription.id))!
    if (locked.status === 'ended') return locked
    const paid = await lockPurchase(tx, payment.id)
    if (paid?.status === 'paid' && paid.stripePaymentIntentId) {
      const refund = await insertRefund(tx, { purchaseId: paid.id, paymentIntentId: paid.stripePaymentIntentId, amountCents: quote.refundCents, reason: 'cancel' }, at)
      if (refund) refunds.push(refund)
      await movePurchase(tx, paid, 'refunded', { source: 'cancel', now: at, changes: { refundedCents: quote.refundCents } })
    }
    return endSubscription(tx, locked, 'withdrawn', at)
  })
  await sendRefunds(services, refunds)
  return result
}

/**
 * A PIX subscriber pays the next period (from the reminder, or any time while the period runs): a
 * new PIX purchase, or the one still open; at the new price once its date has come.
 */
export async function payNextPeriod(services: Services, subscription: SubscriptionRow, buyer: Buyer): Promise<PurchaseRow> {
  const { db, clock } = services
  if (subscription.method !== 'pix') throw conflict('A card subscription renews by itself.', 'not_pix')
  if (!['trialing', 'active'].includes(subscription.status)) throw conflict(`This subscription is ${subscription.status}.`, 'not_renewable')
  if (subscription.cancelAtPeriodEnd) throw conflict('This subscription ends with its period: resume it first.', 'cancelled_at_period_end')
  const [view] = await findProductViews(db, [subscription.productId])
  if (!termOf(view!.product).renews) throw conflict('This plan does not renew.', 'not_renewable')
  const open = (await paymentsOf(db, subscription.id)).find((row) => row.status === 'pending')
  if (open) return open
  const end = subscription.currentPeriodEnd!.getTime()
  const cents = nextPeriodCents({ ...subscription, nextPriceFrom: subscription.nextPriceFrom?.getTime() ?? null, currentPeriodEnd: end })
  const purchase = await db.transaction(async (tx) => insertPeriodPurchase(tx, subscription, view!.product, 'pix', cents, clock()))
  return startPurchasePayment(services, purchase, buyer, { successUrl: null, cancelUrl: null })
}

/** The card's change (billing/saved-card.ts): Stripe's page where the subscriber saves a new card; it comes back to `successUrl` (or `cancelUrl` without one). */
export async function startCardUpdate(services: Services, subscription: SubscriptionRow, urls: { successUrl: string; cancelUrl: string }): Promise<{ url: string; expiresAt: number }> {
  if (!cardUpdatable(subscription)) throw conflict('Only a live subscription renewing by card has a card to change.', 'no_card_to_update')
  const stripe = stripeOf(services)
  try {
    const remote = await stripe.subscriptions.retrieve(subscription.stripeSubscriptionId!)
    const metadata = { subscription_id: String(subscription.id) }
    const session = await stripe.checkout.sessions.create({
      mode: 'setup',
      customer: typeof remote.customer === 'string' ? remote.customer : remote.customer.id,
      currency: 'brl',
      success_url: urls.successUrl,
      cancel_url: urls.cancelUrl,
      locale: 'pt-BR',
      metadata,
      setup_intent_data: { metadata },
    })
    return { url: session.url!, expiresAt: session.expires_at * 1000 }
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error
    services.log({ level: 'warn', msg: 'card update not started', subscription_id: subscription.id, error: error.type })
    throw unavailableError()
  }
}

// ---------------------------------------------------------------------------------------------
// The tick and the messages

type SubscriptionsReport = { reminded: number; ended: number; retried: number; priceNotices: number; stripePrices: number }


/**
 * Every minute where the periodic jobs run: PIX subscribers reminded 7 days before their period
 * ends (once per period: the reminder and its mark written together, the row locked), and
 * subscriptions past their period ended: a cancelled one, a fixed term over, a PIX period not
 * renewed (the subscriber told). A card's renewing subscription is Stripe's to end.
 */
export async function subscriptionsTick(services: Services): Promise<SubscriptionsReport> {
  const { db, clock } = services
  const now = clock()
  const report: SubscriptionsReport = { reminded: 0, ended: 0, retried: 0, priceNotices: 0, stripePrices: 0 }
  // Price changes first: a notice counts from this tick, and Stripe is set before a renewal it affects.
  report.priceNotices = await noticePriceChanges(services, now)
  report.stripePrices = await setStripePrices(services)
  for (const due of await dueForReminder(db, { remindBefore: PIX_REMINDER_BEFORE_MS, now, limit: 50 })) {
    const sent = await db.transaction(async (tx) => {
      const locked = await lockSubscription(tx, due.id)
      if (!locked || locked.remindedFor?.getTime() === locked.currentPeriodEnd?.getTime() || locked.cancelAtPeriodEnd) return false
      await queueSubscriptionMail(tx, locked, 'pix_reminder', services.config.appPublicUrl)
      await updateSubscription(tx, locked.id, { remindedFor: locked.currentPeriodEnd }, now)
      return true
    })
    if (sent) report.reminded += 1
  }
  for (const over of await periodOver(db, { now, limit: 50 })) {
    if (over.stripeSubscriptionId) continue
    const ended = await db.transaction(async (tx) => {
      const locked = await lockSubscription(tx, over.id)
      if (!locked || locked.status === 'ended' || (locked.currentPeriodEnd?.getTime() ?? Infinity) > now) return false
      // A PIX code for the next period is still open (30 minutes at most): its payment, or its end, decides.
      if ((await paymentsOf(tx, locked.id)).some((payment) => payment.status === 'pending')) return false
      const [view] = await findProductViews(tx, [locked.productId])
      const renews = termOf(view!.product).renews
      const reason = locked.cancelAtPeriodEnd ? 'cancelled' : renews ? 'lapsed' : 'term_over'
      await endSubscription(tx, locked, reason, now)
      if (reason === 'lapsed') await queueSubscriptionMail(tx, locked, 'lapsed', services.config.appPublicUrl)
      return true
    })
    if (ended) report.ended += 1
  }
  for (const due of await pastDue(db, { limit: 50 })) {
    const since = due.pastDueSince?.getTime()
    if (!due.stripeSubscriptionId || since === undefined) continue
    try {
      if (now >= since + RENEWAL_GRACE_MS) {
        if (await endUnpaidRenewal(services, due, now)) report.ended += 1
      } else if (due.renewalRetries < RENEWAL_RETRIES && now >= since + (due.renewalRetries + 1) * RENEWAL_RETRY_MS) {
        if (await retryRenewal(services, due, now)) report.retried += 1
      }
    } catch (error) {
      // Stripe away: the next tick tries again.
      services.log({ level: 'warn', msg: 'subscription renewal step failed', subscription_id: due.id, error: error instanceof Error ? error.name : 'unknown' })
    }
  }
  return report
}

/** One more try of a failed renewal's invoice (claimed first under the row's lock, so one process tries it). A card decline is simply the answer. */
async function retryRenewal(services: Services, due: SubscriptionRow, now: number): Promise<boolean> {
  const claimed = await services.db.transaction(async (tx) => {
    const locked = await lockSubscription(tx, due.id)
    if (locked?.status !== 'past_due' || locked.renewalRetries !== due.renewalRetries) return false
    await updateSubscription(tx, locked.id, { renewalRetries: locked.renewalRetries + 1 }, now)
    return true
  })
  if (!claimed) return false
  const stripe = stripeOf(services)
  const invoice = (await stripe.subscriptions.retrieve(due.stripeSubscriptionId!)).latest_invoice
  const invoiceId = typeof invoice === 'string' ? invoice : invoice?.id
  if (!invoiceId) return true
  await stripe.invoices.pay(invoiceId).catch((error: unknown) => {
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error
  })
  return true
}

/** 7 days unpaid: cancelled at Stripe, ended here, and the subscriber told (once: the row's status decides). */
async function endUnpaidRenewal(services: Services, due: SubscriptionRow, now: number): Promise<boolean> {
  const stripe = stripeOf(services)
  const remote = await stripe.subscriptions.retrieve(due.stripeSubscriptionId!)
  if (remote.status !== 'canceled') await stripe.subscriptions.cancel(due.stripeSubscriptionId!)
  return services.db.transaction(async (tx) => {
    const locked = await lockSubscription(tx, due.id)
    if (locked?.status !== 'past_due') return false
    await endSubscription(tx, locked, 'renewal_failed', now)
    await queueSubscriptionMail(tx, locked, 'ended_unpaid', services.config.appPublicUrl)
    return true
  })
}

async function expireCheckout(services: Services, sessionId: string): Promise<void> {
  await atStripe(async () => {
    const stripe = stripeOf(services)
    const session = await stripe.checkout.sessions.retrieve(sessionId)
    if (session.status === 'open') await stripe.checkout.sessions.expire(sessionId)
  })
}

/** A Stripe call of the subscriber's own action: away is a 503 and nothing changes here. */
async function atStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) throw unavailableError()
    throw error
  }
}


import Stripe from 'stripe'
import { mirrorAppointmentLater } from '#server/calendar/appointment-events.ts'
import { errorFields } from '#server/log.ts'
import type { Services } from '#server/services.ts'
import { isRefusal, isStripeError, stripeOf, unavailableError } from '#server/stripe/client.ts'
import { applySignal, type Applied } from '#server/billing/apply.ts'
import { replaceIfOwned, type Replacements } from '#server/purchases/replacements.ts'
import { sendRefunds } from '#server/purchases/refunds.ts'
import { lockPurchase, updatePurchase, type PurchaseRow } from '#server/purchases/repository.ts'
import type { PaymentSignal } from '#server/purchases/statuses.ts'
import { asStripeSaysNow, signalOfCharge, signalOfPaymentIntent, signalOfSession } from '#server/billing/stripe-signals.ts'

/**
 * What Stripe says about a purchase's payment, read and applied (decisions 0048 and 0074): the
 * refresh-status, the tick's reconciliation, a webhook whose copy did not fit. Everything goes
 * through applySignal in one transaction; what it leaves to do (refunds to send, a consultation
 * to mirror, replaced checkouts to close) is done once it has committed.
 */

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null))

/**
 * What Stripe says now about a purchase's payment: its Checkout Session, its PaymentIntent and, when
 * it succeeded, the charge's refunds (read whatever the purchase's status: a refund may be made
 * before its payment reached us). All of it Stripe's own word (decision 0074).
 */
export async function readSignals(stripe: Stripe, purchase: PurchaseRow): Promise<PaymentSignal[]> {
  const signals: PaymentSignal[] = []
  let paymentIntentId = purchase.stripePaymentIntentId
  if (purchase.stripeCheckoutSessionId) {
    const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId)
    const read = signalOfSession(session)
    if (read) signals.push(asStripeSaysNow(read.signal))
    // An open session whose card was declined: the failure to show.
    paymentIntentId ??= idOf(session.payment_intent)
  }
  if (paymentIntentId) signals.push(...(await paymentIntentSignals(stripe, await stripe.paymentIntents.retrieve(paymentIntentId))))
  return signals
}

/** A PaymentIntent as Stripe has it now and, once it succeeded, its charge's refunds: the payment first, then its refund. */
async function paymentIntentSignals(stripe: Stripe, paymentIntent: Stripe.PaymentIntent): Promise<PaymentSignal[]> {
  const signals: PaymentSignal[] = []
  const read = signalOfPaymentIntent(paymentIntent)
  if (read) signals.push(asStripeSaysNow(read.signal))
  const charge = idOf(paymentIntent.latest_charge)
  if (paymentIntent.status === 'succeeded' && charge) {
    const refunds = signalOfCharge(await stripe.charges.retrieve(charge))
    if (refunds) signals.push(asStripeSaysNow(refunds.signal))
  }
  return signals
}

/**
 * What Stripe says of the PaymentIntent an event named, when the event did not fit its purchase
 * (decision 0074: another PaymentIntent, another amount, a refund before its payment): the
 * PaymentIntent and its charge read now. A payment the event claimed and Stripe does not confirm
 * (no such PaymentIntent, or one that has not succeeded) is said as such, for the admins.
 */
export async function askStripe(stripe: Stripe, signal: PaymentSignal): Promise<PaymentSignal[]> {
  if (signal.kind !== 'succeeded' && signal.kind !== 'refunded') return []
  const unconfirmed = (stripeStatus: string | null): PaymentSignal[] =>
    signal.kind === 'succeeded' ? [{ kind: 'unconfirmed', paymentIntentId: signal.paymentIntentId, amountCents: signal.amountCents, currency: signal.currency, stripeStatus }] : []
  let paymentIntent: Stripe.PaymentIntent
  try {
    paymentIntent = await stripe.paymentIntents.retrieve(signal.paymentIntentId)
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return unconfirmed(null)
    throw error
  }
  return [...(paymentIntent.status === 'succeeded' ? [] : unconfirmed(paymentIntent.status)), ...(await paymentIntentSignals(stripe, paymentIntent))]
}

/** Applies signals in one transaction, then sends the refunds they wrote. */
export async function applyAll(services: Services, purchaseId: number, signals: PaymentSignal[], source: 'refresh' | 'reconcile', extra: { checkedAt?: Date } = {}): Promise<PurchaseRow | undefined> {
  const { db, clock } = services
  const applied: Applied[] = []
  const purchase = await db.transaction(async (tx) => {
    for (const signal of signals) applied.push(await applySignal(tx, purchaseId, signal, { source, now: clock() }))
    if (extra.checkedAt) return updatePurchase(tx, purchaseId, { checkedAt: extra.checkedAt }, clock())
    return applied.at(-1)?.purchase ?? (await lockPurchase(tx, purchaseId))
  })
  await afterCommit(services, applied)
  return purchase
}

/**
 * What applied signals leave to do once committed: the payments that did not fit their purchase
 * logged (no secret: ids and amounts), the refunds they wrote sent, the consultations they booked
 * mirrored.
 */
export async function afterCommit(services: Services, applied: Applied[], eventId: string | null = null): Promise<void> {
  for (const { purchase, mismatch } of applied) {
    if (!mismatch || !purchase) continue
    const { reason, paymentIntentId, amountCents, currency, expectedCents } = mismatch
    services.log({ level: 'warn', msg: 'stripe payment does not match its purchase', purchase_id: purchase.id, reason, payment_intent_id: paymentIntentId, amount_cents: amountCents, currency, expected_cents: expectedCents, event_id: eventId })
  }
  for (const { booked } of applied) if (booked !== null) mirrorAppointmentLater(services, booked)
  await sendRefunds(services, applied.flatMap(({ refunds }) => refunds))
  for (const { replaced } of applied) if (replaced) await finishReplacements(services, replaced)
}

/** refresh-status: asks Stripe and applies what it says, as a webhook would. A 503 when Stripe cannot be reached. */
export async function refreshPurchase(services: Services, purchase: PurchaseRow, source: 'refresh' | 'reconcile' = 'refresh'): Promise<PurchaseRow> {
  const stripe = stripeOf(services)
  if (!purchase.stripePaymentIntentId && !purchase.stripeCheckoutSessionId) return purchase
  let signals: PaymentSignal[]
  try {
    signals = await readSignals(stripe, purchase)
  } catch (error) {
    if (!isStripeError(error)) throw error
    throw unavailableError()
  }
  return (await applyAll(services, purchase.id, signals, source)) ?? purchase
}

// ---------------------------------------------------------------------------------------------
// Checkouts replaced by a paid purchase of the same product (decision 0076)

/**
 * Once the payment that cancelled them has committed: the candidates its transaction found locked
 * by another one, cancelled now if they still are not final and the product is still owned (each
 * in its own transaction, waiting for that one; nothing else is held meanwhile), and every one
 * cancelled closed at Stripe.
 */
async function finishReplacements(services: Services, { cancelled, busy }: Replacements): Promise<void> {
  const { db, clock, log } = services
  const rows = [...cancelled]
  for (const id of busy) {
    try {
      const replaced = await db.transaction((tx) => replaceIfOwned(tx, id, clock()))
      if (replaced) rows.push(replaced)
    } catch (error) {
      // Left as it was: a payment that reaches it is refunded as superseded (decision 0072).
      log({ level: 'warn', msg: 'replaced purchase not cancelled', purchase_id: id, ...errorFields(error) })
    }
  }
  for (const row of rows) await closeReplaced(services, row)
}

/**
 * Closes at Stripe the way to pay a purchase cancelled for another one: its Checkout Session
 * expired, its PaymentIntent cancelled (`duplicate`), each only when still open (done twice, the
 * same). Should Stripe say it was paid meanwhile, that is applied (the money goes back, superseded).
 * True once done and marked (`stripe_closed_at`); Stripe away leaves it for the tick, a minute on.
 */
export async function closeReplaced(services: Services, purchase: PurchaseRow): Promise<boolean> {
  const { db, clock, log, stripe } = services
  if (!stripe || purchase.stripeClosedAt) return false
  let paid = false
  try {
    try {
      if (purchase.stripeCheckoutSessionId) {
        const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId)
        if (session.status === 'open') await stripe.checkout.sessions.expire(session.id)
        else paid ||= session.status === 'complete'
      }
      if (purchase.stripePaymentIntentId) {
        const paymentIntent = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId)
        if (paymentIntent.status === 'succeeded') paid = true
        else if (paymentIntent.status !== 'canceled') await stripe.paymentIntents.cancel(paymentIntent.id, { cancellation_reason: 'duplicate' })
      }
    } catch (error) {
      // Refused: paid (or closed) meanwhile; what Stripe says now decides.
      if (!isStripeError(error) || !isRefusal(error)) throw error
      paid = true
    }
    if (paid) await refreshPurchase(services, purchase, 'reconcile')
  } catch (error) {
    log({ level: 'warn', msg: 'replaced purchase not closed at stripe', purchase_id: purchase.id, ...errorFields(error) })
    // Refused again when asked: nothing more to do at Stripe; anything else is tried again by the tick.
    if (!isRefusal(error)) {
      await updatePurchase(db, purchase.id, {}, clock())
      return false
    }
  }
  await updatePurchase(db, purchase.id, { stripeClosedAt: new Date(clock()) }, clock())
  return true
}

import type Stripe from 'stripe'
import type { PaymentSignal } from '#server/purchases/statuses.ts'

/**
 * Stripe's objects and events read as PaymentSignals (statuses.ts), with what names the purchase
 * they are about: `metadata[purchase_id]` (set on every Checkout Session and PaymentIntent we
 * make, decision 0046), else the PaymentIntent or Checkout Session id the purchase keeps. Pure.
 */

/** How to find the purchase an object is about. */
type PurchaseRef = { purchaseId?: number; paymentIntentId?: string; sessionId?: string }
type ReadSignal = { signal: PaymentSignal; ref: PurchaseRef }

const MAX_ID = 2_147_483_647

/** metadata[purchase_id] as an id, when it is one. */
export function purchaseIdOf(metadata: Stripe.Metadata | null | undefined): number | undefined {
  const value = metadata?.purchase_id
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return undefined
  const id = Number(value)
  return id <= MAX_ID ? id : undefined
}

const idOf = (value: string | { id: string } | null | undefined): string | undefined => (typeof value === 'string' ? value : (value?.id ?? undefined))

/** A failure's code and message, cut to what the purchase keeps. */
function failureOf(paymentIntent: Stripe.PaymentIntent): { code: string | null; message: string | null } {
  const error = paymentIntent.last_payment_error
  return { code: (error?.decline_code ?? error?.code ?? null)?.slice(0, 100) ?? null, message: error?.message?.slice(0, 500) ?? null }
}

/** A payment's amount and currency (lower case, as Stripe writes it), and the purchase its metadata names. */
function paid(amountCents: number, currency: string | null, purchaseId: number | undefined) {
  return { amountCents, currency: (currency ?? '').toLowerCase(), ...(purchaseId !== undefined && { purchaseId }) }
}

/** What a PaymentIntent as it is now says, if anything (still waiting: nothing). */
export function signalOfPaymentIntent(paymentIntent: Stripe.PaymentIntent): ReadSignal | undefined {
  const ref = { purchaseId: purchaseIdOf(paymentIntent.metadata), paymentIntentId: paymentIntent.id }
  switch (paymentIntent.status) {
    case 'succeeded':
      return { ref, signal: { kind: 'succeeded', ...paid(paymentIntent.amount_received || paymentIntent.amount, paymentIntent.currency, ref.purchaseId), paymentIntentId: paymentIntent.id } }
    case 'canceled':
      return { ref, signal: { kind: 'canceled', paymentIntentId: paymentIntent.id, abandoned: paymentIntent.cancellation_reason === 'abandoned' } }
    case 'requires_payment_method':
      // A new PaymentIntent waits here too; only one with a failed attempt has something to say.
      return paymentIntent.last_payment_error ? { ref, signal: { kind: 'failed', paymentIntentId: paymentIntent.id, ...failureOf(paymentIntent) } } : undefined
    default:
      return undefined
  }
}

/** What a Checkout Session as it is now says: paid, expired, or nothing yet. */
export function signalOfSession(session: Stripe.Checkout.Session): ReadSignal | undefined {
  const ref = { purchaseId: purchaseIdOf(session.metadata), sessionId: session.id }
  const paymentIntentId = idOf(session.payment_intent)
  if (session.status === 'complete' && session.payment_status === 'paid' && paymentIntentId) {
    return { ref, signal: { kind: 'succeeded', paymentIntentId, ...paid(session.amount_total ?? 0, session.currency, ref.purchaseId), sessionId: session.id } }
  }
  if (session.status === 'expired') return { ref, signal: { kind: 'session_expired', sessionId: session.id } }
  return undefined
}

/** What a charge says of its refunds. */
export function signalOfCharge(charge: Stripe.Charge): ReadSignal | undefined {
  const paymentIntentId = idOf(charge.payment_intent)
  if (!paymentIntentId || charge.amount_refunded <= 0) return undefined
  return { ref: { purchaseId: purchaseIdOf(charge.metadata), paymentIntentId }, signal: { kind: 'refunded', paymentIntentId, amountRefundedCents: charge.amount_refunded } }
}

/**
 * The events the receiver acts on (decision 0046) and what each says; any other type, or one
 * whose object says nothing (a Checkout Session completed but not yet paid), is undefined: it is
 * recorded as received and changes nothing.
 */
export function signalOfEvent(event: Stripe.Event): ReadSignal | undefined {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const read = signalOfPaymentIntent(event.data.object)
      // The object is as it was when the event was made: its type decides what it says.
      const expected = { 'payment_intent.succeeded': 'succeeded', 'payment_intent.payment_failed': 'failed', 'payment_intent.canceled': 'canceled' }[event.type]
      return read?.signal.kind === expected ? read : undefined
    }
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
      return signalOfSession(event.data.object)
    case 'charge.refunded':
      return signalOfCharge(event.data.object)
    default:
      return undefined
  }
}

/**
 * A signal read from an object retrieved from Stripe just now (refresh-status, the reconciliation,
 * the webhook asking about an event that did not fit): Stripe's own word on a payment and its
 * refunds, which `decide` may act on where an event's copy only makes it ask (decision 0074).
 */
export function asStripeSaysNow(signal: PaymentSignal): PaymentSignal {
  return signal.kind === 'succeeded' || signal.kind === 'refunded' ? { ...signal, fromStripe: true } : signal
}

/**
 * The timestamp (seconds) a `Stripe-Signature` header was signed at, read as the SDK reads it (its
 * last `t=`): the one its signature covers once the SDK has checked it.
 */
export function signedAt(header: string): number | undefined {
  let timestamp: number | undefined
  for (const item of header.split(',')) {
    const [key, value] = item.split('=')
    if (key === 't') timestamp = value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined
  }
  return timestamp
}

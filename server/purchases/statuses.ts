import type { PurchaseMethod, PurchaseRefundReason, PurchaseStatus } from '#server/db/schema.ts'

/**
 * What a purchase's status becomes when Stripe says something about its payment (docs/product.md
 * §4, decision 0048). Pure: the webhook, refresh-status and the reconciliation all pass what
 * Stripe said through `decide`, so the three agree, and an event applied twice, late or out of
 * order changes nothing it should not:
 *
 * - the status only moves forward: pending (or failed, or expired/cancelled by us) → paid →
 *   refunded; a late failure, cancellation or expiry after a payment is ignored;
 * - a payment for a purchase already expired or cancelled is refunded at once (late_payment), and
 *   a second payment of a paid purchase (another PaymentIntent) too (double_payment);
 * - events about a PaymentIntent or Checkout Session that is no longer the purchase's (a PIX code
 *   replaced by renew-pix) change nothing, except a payment: money that arrived is never ignored;
 * - a payment counts only when it is the purchase's own PaymentIntent, for the purchase's total, in
 *   BRL (decision 0074). An event's copy that does not fit (another PaymentIntent, another amount, a
 *   refund before its payment: Stripe promises no order) decides nothing: the outcome says `ask`,
 *   and the webhook asks Stripe for the PaymentIntent and its charge and applies what they say.
 *   Stripe's own word that does not fit grants nothing, and is a mismatch for the admins; money of
 *   this purchase that arrived with another amount is given back.
 */

/**
 * What Stripe says about a purchase's payment, from an event or a retrieved object (stripe-signals.ts).
 * `fromStripe`: read from Stripe's API just now (refresh-status, the reconciliation, the webhook
 * asking about an event that did not fit), so Stripe's own word; absent, an event's copy, which
 * anyone holding the webhook secret could have written.
 */
export type PaymentSignal =
  /**
   * Money arrived: a PaymentIntent succeeded, or a Checkout Session completed paid (`sessionId`).
   * `currency` in lower case, as Stripe writes it; `purchaseId`: the object's metadata[purchase_id].
   */
  | { kind: 'succeeded'; paymentIntentId: string; amountCents: number; currency: string; sessionId?: string; purchaseId?: number; fromStripe?: true }
  /** An attempt failed: a declined card (the Checkout page stays open), a refused or expired PIX code. */
  | { kind: 'failed'; paymentIntentId: string; code: string | null; message: string | null }
  /** The PaymentIntent was canceled; `abandoned`: by Stripe, its Checkout Session having expired. */
  | { kind: 'canceled'; paymentIntentId: string; abandoned: boolean }
  /** The Checkout Session expired unpaid. */
  | { kind: 'session_expired'; sessionId: string }
  /** The payment's charge was refunded, in part or in full (`amountRefundedCents` in all so far). */
  | { kind: 'refunded'; paymentIntentId: string; amountRefundedCents: number; fromStripe?: true }
  /**
   * An event said this PaymentIntent succeeded and Stripe, asked, does not confirm it: it has no
   * such PaymentIntent (`stripeStatus` null), or the PaymentIntent has not succeeded.
   */
  | { kind: 'unconfirmed'; paymentIntentId: string; amountCents: number; currency: string; stripeStatus: string | null }

/** Why a payment was not taken as the purchase's (decision 0074). */
export const MISMATCH_REASONS = ['unknown_payment_intent', 'not_succeeded', 'other_purchase', 'currency', 'amount'] as const
export type MismatchReason = (typeof MISMATCH_REASONS)[number]

/** A payment Stripe spoke of that does not fit its purchase: what it was, and what the purchase expected. */
export type PaymentMismatch = { reason: MismatchReason; paymentIntentId: string; amountCents: number; currency: string; expectedCents: number }

/** What `decide` needs of a purchase. */
export type PurchaseState = {
  id: number
  status: PurchaseStatus
  method: PurchaseMethod
  paymentIntentId: string | null
  checkoutSessionId: string | null
  totalCents: number
  refundedCents: number
  /**
   * It pays a consultation's held time (decision 0051): once it fails, the time is released, so a
   * payment arriving after that is refunded like one after an expiry.
   */
  holdsTime?: boolean
  /**
   * Cancelled because another purchase of the buyer was paid for its course, material or program
   * (decision 0076): a payment arriving after that is refunded as `superseded`, not `late_payment`.
   */
  replaced?: boolean
}

/** What to do: each field present only when something changes. */
export type Outcome = {
  /** The new status (a transition to record). */
  to?: PurchaseStatus
  /** The PaymentIntent that paid (a Checkout Session's, known once paid; an older PIX code's). */
  paymentIntentId?: string
  /** Make the purchase's grants (once: the unique index). */
  grant?: true
  /** End the grants and the unused credits (a refund made at Stripe). */
  revoke?: true
  /** Ask Stripe to give this money back. */
  refund?: { paymentIntentId: string; amountCents: number; reason: Exclude<PurchaseRefundReason, 'cancel'> }
  /** The last failure to show (null: clear it). */
  failure?: { code: string | null; message: string | null } | null
  refundedCents?: number
  /** An event's copy that does not fit: nothing is decided until Stripe is asked (the webhook does). */
  ask?: true
  /** A payment that does not fit the purchase: nothing granted; recorded for the admins. */
  mismatch?: PaymentMismatch
}

/** The currency every purchase is in (decision 0048). */
const PURCHASE_CURRENCY = 'brl'

/** Statuses that can still end in a payment that is kept. */
const PAYABLE: readonly PurchaseStatus[] = ['pending', 'failed']
/** Stripe's code for a PIX code that expired unpaid (the fake's and Stripe's). */
export const PIX_EXPIRED_CODE = 'payment_intent_payment_attempt_expired'

const isPaid = (status: PurchaseStatus) => status === 'paid' || status === 'refunded'

/**
 * Whether a PaymentIntent is the purchase's current one. A card purchase learns its PaymentIntent
 * when paid (its Checkout Session makes one at the first attempt): until then any PaymentIntent
 * naming it in its metadata is its session's.
 */
function concerns(state: PurchaseState, paymentIntentId: string): boolean {
  return paymentIntentId === state.paymentIntentId || (state.method === 'card' && state.paymentIntentId === null)
}

export function decide(state: PurchaseState, signal: PaymentSignal): Outcome {
  switch (signal.kind) {
    case 'succeeded': {
      // A Checkout Session that is not this purchase's says nothing about it.
      if (signal.sessionId !== undefined && signal.sessionId !== state.checkoutSessionId) return {}
      // The payment it already took, again (a duplicate event, a refresh after the webhook): nothing.
      if (isPaid(state.status) && signal.paymentIntentId === state.paymentIntentId) return {}
      // Its own: the PaymentIntent it keeps, or one Stripe itself says is this purchase's (a card's
      // first payment, an older PIX code's); never an event's word alone.
      const own = signal.paymentIntentId === state.paymentIntentId || (signal.fromStripe === true && signal.purchaseId === state.id)
      const reason: MismatchReason | null = !own ? 'other_purchase' : signal.currency !== PURCHASE_CURRENCY ? 'currency' : signal.amountCents !== state.totalCents ? 'amount' : null
      if (reason && !signal.fromStripe) return { ask: true }
      if (reason) {
        const mismatch = { reason, paymentIntentId: signal.paymentIntentId, amountCents: signal.amountCents, currency: signal.currency, expectedCents: state.totalCents }
        // This purchase's money, but not what it costs: nothing is granted and what arrived goes back.
        if (reason === 'other_purchase' || signal.amountCents <= 0) return { mismatch }
        return { mismatch, refund: { paymentIntentId: signal.paymentIntentId, amountCents: signal.amountCents, reason: 'wrong_amount' } }
      }
      if (state.status === 'pending' || (PAYABLE.includes(state.status) && !state.holdsTime)) {
        return { to: 'paid', paymentIntentId: signal.paymentIntentId, grant: true, failure: null }
      }
      if (isPaid(state.status)) {
        if (state.paymentIntentId === null) return {}
        return { refund: { paymentIntentId: signal.paymentIntentId, amountCents: signal.amountCents, reason: 'double_payment' } }
      }
      // Expired or cancelled (or failed, for a held time now released): the buyer was told it was over; the money goes back.
      // Cancelled for another purchase of the same product: its refund says the buyer never pays twice (decision 0076).
      return {
        to: 'refunded',
        paymentIntentId: signal.paymentIntentId,
        refund: { paymentIntentId: signal.paymentIntentId, amountCents: signal.amountCents, reason: state.replaced ? 'superseded' : 'late_payment' },
        refundedCents: Math.min(signal.amountCents, state.totalCents),
      }
    }
    case 'unconfirmed':
      return {
        mismatch: {
          reason: signal.stripeStatus === null ? 'unknown_payment_intent' : 'not_succeeded',
          paymentIntentId: signal.paymentIntentId,
          amountCents: signal.amountCents,
          currency: signal.currency,
          expectedCents: state.totalCents,
        },
      }
    case 'failed': {
      if (state.status !== 'pending' || !concerns(state, signal.paymentIntentId)) return {}
      const failure = { code: signal.code, message: signal.message }
      // A declined card leaves the Checkout page open for another card: still pending.
      if (state.method === 'card') return { failure }
      return { to: signal.code === PIX_EXPIRED_CODE ? 'expired' : 'failed', failure }
    }
    case 'canceled':
      if (state.status !== 'pending' || !concerns(state, signal.paymentIntentId)) return {}
      return { to: signal.abandoned ? 'expired' : 'cancelled' }
    case 'session_expired':
      if (state.status !== 'pending' || signal.sessionId !== state.checkoutSessionId) return {}
      return { to: 'expired' }
    case 'refunded': {
      if (signal.amountRefundedCents <= 0) return {}
      // A refund before its payment (events come in no promised order): what Stripe says of the
      // payment now decides, the payment first, then its refund.
      if (!isPaid(state.status)) return signal.fromStripe ? {} : { ask: true }
      if (signal.paymentIntentId !== state.paymentIntentId) return {}
      const refundedCents = Math.min(Math.max(state.refundedCents, signal.amountRefundedCents), state.totalCents)
      if (state.status === 'refunded') return refundedCents === state.refundedCents ? {} : { refundedCents }
      return { to: 'refunded', revoke: true, refundedCents }
    }
    default:
      return {}
  }
}

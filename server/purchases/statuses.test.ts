import { describe, expect, it } from 'vitest'
import { decide, PIX_EXPIRED_CODE, type PurchaseState } from '#server/purchases/statuses.ts'

const pix = (extra: Partial<PurchaseState> = {}): PurchaseState => ({ id: 7, status: 'pending', method: 'pix', paymentIntentId: 'pi_1', checkoutSessionId: null, totalCents: 18_000, refundedCents: 0, ...extra })
const card = (extra: Partial<PurchaseState> = {}): PurchaseState => ({ id: 7, status: 'pending', method: 'card', paymentIntentId: null, checkoutSessionId: 'cs_1', totalCents: 18_000, refundedCents: 0, ...extra })
const paid = { kind: 'succeeded', paymentIntentId: 'pi_1', amountCents: 18_000, currency: 'brl' } as const
/** The same payment as Stripe's own word: a PaymentIntent retrieved now, naming purchase 7. */
const stripeSays = { ...paid, fromStripe: true, purchaseId: 7 } as const

describe('decide: the status only moves forward', () => {
  it('pays a pending or failed purchase once, granting and clearing the failure', () => {
    expect(decide(pix(), paid)).toEqual({ to: 'paid', paymentIntentId: 'pi_1', grant: true, failure: null })
    expect(decide(pix({ status: 'failed' }), paid)).toMatchObject({ to: 'paid', grant: true })
    // The same payment again (a duplicate event, a refresh after the webhook): nothing.
    expect(decide(pix({ status: 'paid' }), paid)).toEqual({})
    expect(decide(pix({ status: 'refunded', refundedCents: 18_000 }), paid)).toEqual({})
  })

  it('a card purchase learns its PaymentIntent from Stripe, once asked; another session says nothing', () => {
    // The session's event names a PaymentIntent the purchase does not know yet: Stripe is asked first.
    expect(decide(card(), { ...paid, paymentIntentId: 'pi_9', sessionId: 'cs_1' })).toEqual({ ask: true })
    expect(decide(card(), { ...stripeSays, paymentIntentId: 'pi_9', sessionId: 'cs_1' })).toEqual({ to: 'paid', paymentIntentId: 'pi_9', grant: true, failure: null })
    expect(decide(card(), { ...stripeSays, paymentIntentId: 'pi_9' })).toEqual({ to: 'paid', paymentIntentId: 'pi_9', grant: true, failure: null })
    expect(decide(card(), { ...paid, sessionId: 'cs_other' })).toEqual({})
  })

  it('refunds a payment that arrives after the purchase expired or was cancelled', () => {
    for (const status of ['expired', 'cancelled'] as const) {
      expect(decide(pix({ status }), paid)).toEqual({
        to: 'refunded',
        paymentIntentId: 'pi_1',
        refund: { paymentIntentId: 'pi_1', amountCents: 18_000, reason: 'late_payment' },
        refundedCents: 18_000,
      })
    }
  })

  it('a payment of a purchase cancelled for another one of the same product is refunded as superseded (decision 0076)', () => {
    expect(decide(pix({ status: 'cancelled', replaced: true }), paid)).toEqual({
      to: 'refunded',
      paymentIntentId: 'pi_1',
      refund: { paymentIntentId: 'pi_1', amountCents: 18_000, reason: 'superseded' },
      refundedCents: 18_000,
    })
    // An event's copy naming a PaymentIntent it does not know is still checked with Stripe first.
    expect(decide(card({ status: 'cancelled', replaced: true, paymentIntentId: 'pi_1' }), { ...paid, paymentIntentId: 'pi_9' })).toEqual({ ask: true })
  })

  it("a consultation's purchase whose PIX code failed released its time: a payment arriving after that is refunded, never kept (decision 0051)", () => {
    expect(decide(pix({ status: 'failed', holdsTime: true }), paid)).toEqual({
      to: 'refunded',
      paymentIntentId: 'pi_1',
      refund: { paymentIntentId: 'pi_1', amountCents: 18_000, reason: 'late_payment' },
      refundedCents: 18_000,
    })
    // Still pending: its time is still held, and the payment books it.
    expect(decide(pix({ holdsTime: true }), paid)).toMatchObject({ to: 'paid', grant: true })
  })

  it('refunds a second payment of a paid purchase (another PaymentIntent Stripe says is its own), without moving it', () => {
    expect(decide(pix({ status: 'paid' }), { ...paid, paymentIntentId: 'pi_old' })).toEqual({ ask: true })
    expect(decide(pix({ status: 'paid' }), { ...stripeSays, paymentIntentId: 'pi_old' })).toEqual({ refund: { paymentIntentId: 'pi_old', amountCents: 18_000, reason: 'double_payment' } })
  })

  it('an older PIX code of the purchase, paid after all, pays it: money that arrived is never ignored', () => {
    const renewed = pix({ paymentIntentId: 'pi_2' })
    expect(decide(renewed, paid)).toEqual({ ask: true })
    expect(decide(renewed, stripeSays)).toEqual({ to: 'paid', paymentIntentId: 'pi_1', grant: true, failure: null })
  })

  it('ignores a failure, cancellation or expiry that comes after the payment', () => {
    const late = [
      { kind: 'failed', paymentIntentId: 'pi_1', code: 'card_declined', message: 'no' },
      { kind: 'canceled', paymentIntentId: 'pi_1', abandoned: true },
      { kind: 'session_expired', sessionId: 'cs_1' },
    ] as const
    for (const signal of late) {
      expect(decide(pix({ status: 'paid' }), signal)).toEqual({})
      expect(decide(card({ status: 'paid', paymentIntentId: 'pi_1' }), signal)).toEqual({})
    }
  })

  it('a PIX failure fails the purchase, an expired code expires it; a declined card keeps it pending with the failure', () => {
    expect(decide(pix(), { kind: 'failed', paymentIntentId: 'pi_1', code: 'payment_intent_payment_attempt_failed', message: 'refused' })).toEqual({
      to: 'failed',
      failure: { code: 'payment_intent_payment_attempt_failed', message: 'refused' },
    })
    expect(decide(pix(), { kind: 'failed', paymentIntentId: 'pi_1', code: PIX_EXPIRED_CODE, message: null })).toMatchObject({ to: 'expired' })
    expect(decide(card(), { kind: 'failed', paymentIntentId: 'pi_7', code: 'insufficient_funds', message: 'Your card has insufficient funds.' })).toEqual({
      failure: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    })
  })

  it('events about a replaced PIX code change nothing', () => {
    const renewed = pix({ paymentIntentId: 'pi_2' })
    expect(decide(renewed, { kind: 'canceled', paymentIntentId: 'pi_1', abandoned: true })).toEqual({})
    expect(decide(renewed, { kind: 'failed', paymentIntentId: 'pi_1', code: PIX_EXPIRED_CODE, message: null })).toEqual({})
  })

  it('a cancellation cancels; Stripe abandoning an expired session expires', () => {
    expect(decide(pix(), { kind: 'canceled', paymentIntentId: 'pi_1', abandoned: false })).toEqual({ to: 'cancelled' })
    expect(decide(card(), { kind: 'canceled', paymentIntentId: 'pi_5', abandoned: true })).toEqual({ to: 'expired' })
    expect(decide(card(), { kind: 'session_expired', sessionId: 'cs_1' })).toEqual({ to: 'expired' })
    expect(decide(card({ status: 'cancelled' }), { kind: 'session_expired', sessionId: 'cs_1' })).toEqual({})
  })

  it('a refund made at Stripe refunds a paid purchase and ends what it gave; later refunds only raise the amount', () => {
    expect(decide(pix({ status: 'paid' }), { kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 18_000 })).toEqual({ to: 'refunded', revoke: true, refundedCents: 18_000 })
    expect(decide(pix({ status: 'refunded', refundedCents: 18_000 }), { kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 18_000 })).toEqual({})
    expect(decide(pix({ status: 'refunded', refundedCents: 10_000 }), { kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 12_000 })).toEqual({ refundedCents: 12_000 })
    // A refund of another payment (a double payment given back) is not this purchase's.
    expect(decide(pix({ status: 'paid' }), { kind: 'refunded', paymentIntentId: 'pi_old', amountRefundedCents: 18_000 })).toEqual({})
  })
})

describe('decide: a payment counts only as the purchase’s own, for its total, in BRL (decision 0074)', () => {
  const made = { ...paid, paymentIntentId: 'pi_made_up', amountCents: 1, currency: 'usd' }

  it("an event's copy that does not fit decides nothing until Stripe is asked", () => {
    for (const state of [pix(), pix({ status: 'failed' }), pix({ status: 'expired' }), pix({ status: 'paid' }), card()]) {
      // Another PaymentIntent, even one naming the purchase in its metadata: the event's word alone.
      expect(decide(state, { ...made, purchaseId: 7 })).toEqual({ ask: true })
    }
    // Its own PaymentIntent, but another amount or currency than Stripe was asked for.
    expect(decide(pix(), { ...paid, amountCents: 1 })).toEqual({ ask: true })
    expect(decide(pix(), { ...paid, currency: 'usd' })).toEqual({ ask: true })
    // The same payment again, whatever the copy says: nothing (the payment is taken already).
    expect(decide(pix({ status: 'paid' }), { ...paid, amountCents: 1 })).toEqual({})
  })

  it("Stripe's word that the PaymentIntent is not this purchase's, or does not exist, or has not succeeded: a mismatch, nothing granted, nothing refunded", () => {
    expect(decide(pix(), { ...made, fromStripe: true, purchaseId: 8 })).toEqual({ mismatch: { reason: 'other_purchase', paymentIntentId: 'pi_made_up', amountCents: 1, currency: 'usd', expectedCents: 18_000 } })
    expect(decide(card(), { ...made, fromStripe: true })).toMatchObject({ mismatch: { reason: 'other_purchase' } })
    expect(decide(pix(), { kind: 'unconfirmed', paymentIntentId: 'pi_made_up', amountCents: 1, currency: 'usd', stripeStatus: null })).toEqual({
      mismatch: { reason: 'unknown_payment_intent', paymentIntentId: 'pi_made_up', amountCents: 1, currency: 'usd', expectedCents: 18_000 },
    })
    expect(decide(pix(), { kind: 'unconfirmed', paymentIntentId: 'pi_1', amountCents: 18_000, currency: 'brl', stripeStatus: 'requires_action' })).toMatchObject({ mismatch: { reason: 'not_succeeded' } })
  })

  it("the purchase's own money in another amount or currency is given back, and grants nothing", () => {
    expect(decide(pix(), { ...stripeSays, amountCents: 100 })).toEqual({
      mismatch: { reason: 'amount', paymentIntentId: 'pi_1', amountCents: 100, currency: 'brl', expectedCents: 18_000 },
      refund: { paymentIntentId: 'pi_1', amountCents: 100, reason: 'wrong_amount' },
    })
    expect(decide(card(), { ...stripeSays, paymentIntentId: 'pi_9', currency: 'usd' })).toEqual({
      mismatch: { reason: 'currency', paymentIntentId: 'pi_9', amountCents: 18_000, currency: 'usd', expectedCents: 18_000 },
      refund: { paymentIntentId: 'pi_9', amountCents: 18_000, reason: 'wrong_amount' },
    })
    expect(decide(pix({ status: 'paid', paymentIntentId: 'pi_2' }), { ...stripeSays, amountCents: 100 })).toMatchObject({ refund: { reason: 'wrong_amount' } })
  })

  it('a refund that comes before its payment asks Stripe; asked, a refund of an unpaid purchase changes nothing', () => {
    expect(decide(pix(), { kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 18_000 })).toEqual({ ask: true })
    expect(decide(card(), { kind: 'refunded', paymentIntentId: 'pi_9', amountRefundedCents: 18_000 })).toEqual({ ask: true })
    expect(decide(pix(), { kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 18_000, fromStripe: true })).toEqual({})
    expect(decide(pix(), { kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 0 })).toEqual({})
    // Stripe's word, in its order: the payment, then its refund.
    const afterPayment = { ...pix(), status: 'paid' as const }
    expect(decide(pix(), stripeSays)).toMatchObject({ to: 'paid', grant: true })
    expect(decide(afterPayment, { kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 18_000, fromStripe: true })).toEqual({ to: 'refunded', revoke: true, refundedCents: 18_000 })
  })
})

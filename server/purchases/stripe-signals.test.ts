import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { asStripeSaysNow, purchaseIdOf, signalOfCharge, signalOfEvent, signalOfPaymentIntent, signalOfSession, signedAt } from '#server/purchases/stripe-signals.ts'

const intent = (fields: Partial<Stripe.PaymentIntent>) => ({ id: 'pi_1', object: 'payment_intent', amount: 1990, amount_received: 0, currency: 'brl', metadata: { purchase_id: '7' }, last_payment_error: null, ...fields }) as Stripe.PaymentIntent
const session = (fields: Partial<Stripe.Checkout.Session>) => ({ id: 'cs_1', object: 'checkout.session', amount_total: 1990, currency: 'brl', metadata: { purchase_id: '7' }, payment_intent: null, ...fields }) as Stripe.Checkout.Session
const eventOf = (type: string, object: unknown) => ({ id: 'evt_1', object: 'event', type, data: { object } }) as unknown as Stripe.Event

describe('stripe-signals', () => {
  it('reads metadata[purchase_id] only when it is an id', () => {
    expect(purchaseIdOf({ purchase_id: '42' })).toBe(42)
    for (const value of ['0', '-1', '4.2', '2147483648', ' 42', 'abc']) expect(purchaseIdOf({ purchase_id: value })).toBeUndefined()
    expect(purchaseIdOf(null)).toBeUndefined()
  })

  it('reads PaymentIntents: paid, canceled, a failed attempt; waiting says nothing', () => {
    expect(signalOfPaymentIntent(intent({ status: 'succeeded', amount_received: 1990 }))).toEqual({ ref: { purchaseId: 7, paymentIntentId: 'pi_1' }, signal: { kind: 'succeeded', paymentIntentId: 'pi_1', amountCents: 1990, currency: 'brl', purchaseId: 7 } })
    expect(signalOfPaymentIntent(intent({ status: 'canceled', cancellation_reason: 'abandoned' }))?.signal).toEqual({ kind: 'canceled', paymentIntentId: 'pi_1', abandoned: true })
    expect(signalOfPaymentIntent(intent({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'No funds.' } as Stripe.PaymentIntent.LastPaymentError }))?.signal).toEqual({
      kind: 'failed',
      paymentIntentId: 'pi_1',
      code: 'insufficient_funds',
      message: 'No funds.',
    })
    expect(signalOfPaymentIntent(intent({ status: 'requires_payment_method' }))).toBeUndefined()
    expect(signalOfPaymentIntent(intent({ status: 'requires_action' }))).toBeUndefined()
  })

  it('reads Checkout Sessions and charges', () => {
    expect(signalOfSession(session({ status: 'complete', payment_status: 'paid', payment_intent: 'pi_9' }))?.signal).toEqual({ kind: 'succeeded', paymentIntentId: 'pi_9', amountCents: 1990, currency: 'brl', sessionId: 'cs_1', purchaseId: 7 })
    expect(signalOfSession(session({ status: 'complete', payment_status: 'unpaid' }))).toBeUndefined()
    expect(signalOfSession(session({ status: 'expired' }))?.signal).toEqual({ kind: 'session_expired', sessionId: 'cs_1' })
    expect(signalOfSession(session({ status: 'open' }))).toBeUndefined()
    expect(signalOfCharge({ id: 'ch_1', payment_intent: 'pi_1', amount_refunded: 500, metadata: {} } as unknown as Stripe.Charge)?.signal).toEqual({ kind: 'refunded', paymentIntentId: 'pi_1', amountRefundedCents: 500 })
  })

  it('a payment in its currency as Stripe writes it; an object read from Stripe now is marked its own word', () => {
    expect(signalOfPaymentIntent(intent({ status: 'succeeded', amount_received: 1, currency: 'USD' }))?.signal).toMatchObject({ amountCents: 1, currency: 'usd' })
    const read = signalOfPaymentIntent(intent({ status: 'succeeded', amount_received: 1990 }))!
    // An event's copy is not: anyone with the webhook secret could have written it.
    expect(read.signal).not.toHaveProperty('fromStripe')
    expect(asStripeSaysNow(read.signal)).toEqual({ ...read.signal, fromStripe: true })
    const refund = signalOfCharge({ id: 'ch_1', payment_intent: 'pi_1', amount_refunded: 500, metadata: {} } as unknown as Stripe.Charge)!.signal
    expect(asStripeSaysNow(refund)).toEqual({ ...refund, fromStripe: true })
    const canceled = signalOfPaymentIntent(intent({ status: 'canceled', cancellation_reason: 'abandoned' }))!.signal
    expect(asStripeSaysNow(canceled)).toEqual(canceled)
  })

  it("reads a signature header's timestamp as the SDK does (its last t=), or undefined", () => {
    expect(signedAt('t=1773154800,v1=abc,v0=def')).toBe(1773154800)
    expect(signedAt('v1=abc,t=1,t=1773154800')).toBe(1773154800)
    for (const header of ['v1=abc', 't=,v1=abc', 't=soon,v1=abc', '']) expect(signedAt(header)).toBeUndefined()
  })

  it('an event says what its type says, and nothing for other types', () => {
    expect(signalOfEvent(eventOf('payment_intent.succeeded', intent({ status: 'succeeded' })))?.signal.kind).toBe('succeeded')
    // A payment_failed event whose object was already paid again (read later) is not a failure.
    expect(signalOfEvent(eventOf('payment_intent.payment_failed', intent({ status: 'succeeded' })))).toBeUndefined()
    expect(signalOfEvent(eventOf('customer.created', { id: 'cus_1' }))).toBeUndefined()
    expect(signalOfEvent(eventOf('checkout.session.expired', session({ status: 'expired' })))?.signal.kind).toBe('session_expired')
  })
})

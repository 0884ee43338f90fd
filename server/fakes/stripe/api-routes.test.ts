import Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { parseBrCode } from '#server/fakes/stripe/br-code.ts'
import { FAKE_PIX_KEY, settlePixCharge } from '#server/fakes/stripe/payments.ts'
import { withFakeStripe, type FakeStripeServer } from '#server/testing/stripe.ts'
import { PUBLIC_URL, testApp } from '#server/testing/harness.ts'

// Every call below goes through the official SDK, over a loopback socket, to the fake Stripe.
const NOW = Date.parse('2026-03-02T12:00:00Z')
let database: DatabaseHandle
let fake: FakeStripeServer
let stripe: Stripe

const setup = withFakeStripe(NOW)
beforeAll(() => {
  ;({ database, fake, stripe } = setup)
})

const pixIntent = (extra: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
  stripe.paymentIntents.create({
    amount: 18_000,
    currency: 'brl',
    allowed_payment_method_types: ['pix'],
    payment_method_data: { type: 'pix' },
    payment_method_options: { pix: { expires_after_seconds: 600 } },
    confirm: true,
    metadata: { purchase_id: '42' },
    ...extra,
  })

/** The error a call fails with (the SDK's StripeError subclasses). */
async function failure(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error
    throw error
  }
  throw new Error('expected the call to fail')
}

describe('customers', () => {
  it('creates and retrieves a customer in Stripe’s shape', async () => {
    const customer = await stripe.customers.create({ email: 'paciente@innera.local', name: 'Pedro Santos', metadata: { user_id: '4' } })
    expect(customer).toMatchObject({ object: 'customer', email: 'paciente@innera.local', name: 'Pedro Santos', metadata: { user_id: '4' }, livemode: false, created: NOW / 1000 })
    expect(customer.id).toMatch(/^cus_[A-Za-z0-9]{14}$/)
    expect(await stripe.customers.retrieve(customer.id)).toEqual(customer)
  })
})

describe('PIX payment intents', () => {
  it('answers requires_action with a valid BR Code, its expiry, the QR images and the instructions page', async () => {
    const customer = await stripe.customers.create({ email: 'paciente@innera.local' })
    const intent = await pixIntent({ customer: customer.id })
    expect(intent).toMatchObject({
      object: 'payment_intent',
      amount: 18_000,
      currency: 'brl',
      customer: customer.id,
      status: 'requires_action',
      payment_method_types: ['pix'],
      metadata: { purchase_id: '42' },
      next_action: { type: 'pix_display_qr_code' },
    })
    expect(intent.id).toMatch(/^pi_[A-Za-z0-9]{24}$/)
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`))
    const qr = intent.next_action!.pix_display_qr_code!
    expect(qr.expires_at).toBe(NOW / 1000 + 600)
    expect(qr.hosted_instructions_url).toBe(`${PUBLIC_URL}/fake-stripe/pix/${intent.id}`)
    expect(qr.image_url_svg).toBe(`${PUBLIC_URL}/fake-stripe/pix/${intent.id}/qr.svg`)
    expect(qr.image_url_png).toBe(`${PUBLIC_URL}/fake-stripe/pix/${intent.id}/qr.png`)
    expect(parseBrCode(qr.data!)).toMatchObject({ key: FAKE_PIX_KEY, amountCents: 18_000, txid: intent.id.slice(3), merchantName: 'Innera', merchantCity: 'Sao Paulo', singleUse: true })

    const paymentMethod = await stripe.paymentMethods.retrieve(intent.payment_method as string)
    expect(paymentMethod).toMatchObject({ object: 'payment_method', type: 'pix' })
  })

  it('defaults to a day, and waits for a confirmation when not confirmed', async () => {
    expect((await pixIntent({ payment_method_options: undefined })).next_action!.pix_display_qr_code!.expires_at).toBe(NOW / 1000 + 86_400)
    const unconfirmed = await stripe.paymentIntents.create({ amount: 5000, currency: 'brl', allowed_payment_method_types: ['pix'] })
    expect(unconfirmed).toMatchObject({ status: 'requires_payment_method', next_action: null })
    const confirmed = await stripe.paymentIntents.confirm(unconfirmed.id, { payment_method_data: { type: 'pix' } })
    expect(confirmed.status).toBe('requires_action')
  })

  it('succeeds when paid: a charge, amount_received, and the events', async () => {
    const intent = await pixIntent()
    const context = { db: database.db, now: setup.time.clock(), publicUrl: PUBLIC_URL, webhookUrl: undefined }
    await settlePixCharge(context, intent.id, 'succeed')
    const paid = await stripe.paymentIntents.retrieve(intent.id)
    expect(paid).toMatchObject({ status: 'succeeded', amount_received: 18_000, next_action: null })
    const charge = await stripe.charges.retrieve(paid.latest_charge as string)
    expect(charge).toMatchObject({ object: 'charge', amount: 18_000, status: 'succeeded', paid: true, payment_intent: intent.id, payment_method_details: { type: 'pix' } })
    const events = await stripe.events.list({ limit: 10 })
    expect(events.data.map((event) => event.type).sort()).toEqual(['charge.succeeded', 'payment_intent.created', 'payment_intent.requires_action', 'payment_intent.succeeded'])
  })

  it('fails when the payer’s bank refuses it, and expires unpaid', async () => {
    const refused = await pixIntent()
    await settlePixCharge({ db: database.db, now: setup.time.clock(), publicUrl: PUBLIC_URL, webhookUrl: undefined }, refused.id, 'fail')
    expect(await stripe.paymentIntents.retrieve(refused.id)).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'payment_intent_payment_attempt_failed' },
    })

    const unpaid = await pixIntent()
    setup.time.advance(599)
    expect((await stripe.paymentIntents.retrieve(unpaid.id)).status).toBe('requires_action')
    setup.time.advance(1)
    const expired = await stripe.paymentIntents.retrieve(unpaid.id)
    expect(expired).toMatchObject({ status: 'requires_payment_method', next_action: null, last_payment_error: { code: 'payment_intent_payment_attempt_expired' } })
    const failed = await stripe.events.list({ type: 'payment_intent.payment_failed' })
    expect(failed.data.map((event) => (event.data.object as Stripe.PaymentIntent).id).sort()).toEqual([refused.id, unpaid.id].sort())
  })

  it('refuses PIX in another currency and expiries out of range', async () => {
    const dollars = await failure(pixIntent({ currency: 'usd' }))
    expect(dollars).toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, code: 'payment_intent_invalid_parameter', param: 'currency' })
    const late = await failure(pixIntent({ payment_method_options: { pix: { expires_after_seconds: 1_209_601 } } }))
    expect(late).toMatchObject({ statusCode: 400, param: 'payment_method_options[pix][expires_after_seconds]' })
  })
})

describe('card payment intents (test payment methods)', () => {
  it('succeeds with pm_card_visa', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 15_000, currency: 'brl', payment_method: 'pm_card_visa', confirm: true })
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 15_000, payment_method_types: ['card'] })
    const charge = await stripe.charges.retrieve(intent.latest_charge as string)
    expect(charge).toMatchObject({ status: 'succeeded', payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } }, outcome: { type: 'authorized' } })
  })

  it('declines with a card error (402) that carries the payment intent, left to be paid again', async () => {
    for (const [paymentMethod, declineCode, message] of [
      ['pm_card_chargeDeclined', 'generic_decline', 'Your card was declined.'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
    ]) {
      const error = await failure(stripe.paymentIntents.create({ amount: 15_000, currency: 'brl', payment_method: paymentMethod, confirm: true }))
      expect(error).toMatchObject({ type: 'StripeCardError', statusCode: 402, code: 'card_declined', decline_code: declineCode, message })
      const intent = error.payment_intent!
      expect(intent.status).toBe('requires_payment_method')
      expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'requires_payment_method', last_payment_error: { decline_code: declineCode } })
      const paid = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' })
      expect(paid.status).toBe('succeeded')
    }
  })

  it('places the elevated-risk card in review, paid', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 15_000, currency: 'brl', payment_method: 'pm_card_riskLevelElevated', confirm: true })
    expect(intent.status).toBe('succeeded')
    expect(intent.review).toMatch(/^prv_/)
    expect((await stripe.charges.retrieve(intent.latest_charge as string)).outcome).toMatchObject({ type: 'manual_review', risk_level: 'elevated' })
    expect((await stripe.events.list({ type: 'review.opened' })).data).toHaveLength(1)
  })

  it('takes no card number', async () => {
    const error = await failure(stripe.paymentIntents.create({ amount: 15_000, currency: 'brl', payment_method_data: { type: 'card' } as never, confirm: true }))
    expect(error).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^Sending credit card numbers directly/) })
  })
})

describe('cancel', () => {
  it('cancels a waiting payment intent with its reason, and refuses a paid one', async () => {
    const waiting = await pixIntent()
    const canceled = await stripe.paymentIntents.cancel(waiting.id, { cancellation_reason: 'requested_by_customer' })
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_customer', canceled_at: NOW / 1000, next_action: null })
    expect((await stripe.events.list({ type: 'payment_intent.canceled' })).data[0]!.data.object).toMatchObject({ id: waiting.id })

    const paid = await stripe.paymentIntents.create({ amount: 15_000, currency: 'brl', payment_method: 'pm_card_visa', confirm: true })
    const error = await failure(stripe.paymentIntents.cancel(paid.id))
    expect(error).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state', message: expect.stringContaining('status of succeeded') })
  })
})

describe('refunds', () => {
  it('refunds in parts up to the amount, and says so on the charge', async () => {
    const paid = await stripe.paymentIntents.create({ amount: 15_000, currency: 'brl', payment_method: 'pm_card_visa', confirm: true })
    const part = await stripe.refunds.create({ payment_intent: paid.id, amount: 5000, reason: 'requested_by_customer', metadata: { purchase_id: '42' } })
    expect(part).toMatchObject({ object: 'refund', amount: 5000, status: 'succeeded', payment_intent: paid.id, charge: paid.latest_charge, reason: 'requested_by_customer' })
    expect(await stripe.charges.retrieve(paid.latest_charge as string)).toMatchObject({ amount_refunded: 5000, refunded: false })

    const tooMuch = await failure(stripe.refunds.create({ payment_intent: paid.id, amount: 10_001 }))
    expect(tooMuch).toMatchObject({ statusCode: 400, code: 'amount_too_large', param: 'amount' })
    setup.time.advance(1)
    const rest = await stripe.refunds.create({ charge: paid.latest_charge as string })
    expect(rest.amount).toBe(10_000)
    expect(await stripe.charges.retrieve(paid.latest_charge as string)).toMatchObject({ amount_refunded: 15_000, refunded: true })
    expect(await failure(stripe.refunds.create({ payment_intent: paid.id }))).toMatchObject({ code: 'charge_already_refunded' })

    const refunded = await stripe.events.list({ type: 'charge.refunded' })
    expect(refunded.data).toHaveLength(2)
    expect(refunded.data[0]!.data.previous_attributes).toEqual({ amount_refunded: 5000, refunded: false })
    expect((await stripe.refunds.list({ payment_intent: paid.id })).data.map((refund) => refund.amount).sort()).toEqual([10_000, 5000].sort())
  })

  it('refuses a payment intent that was not paid', async () => {
    const waiting = await pixIntent()
    expect(await failure(stripe.refunds.create({ payment_intent: waiting.id }))).toMatchObject({ statusCode: 400, code: 'charge_not_refundable' })
  })
})

describe('events', () => {
  it('retrieves an event by id, with the object as it was then and the request that caused it', async () => {
    const intent = await pixIntent()
    const [created] = (await stripe.events.list({ type: 'payment_intent.created' })).data
    const event = await stripe.events.retrieve(created!.id)
    expect(event).toMatchObject({ object: 'event', type: 'payment_intent.created', livemode: false, api_version: Stripe.API_VERSION, data: { object: { id: intent.id, status: 'requires_payment_method' } } })
    expect(event.request!.id).toMatch(/^req_/)
    expect(event.request!.idempotency_key).toEqual(expect.any(String))
  })

  it('pages lists newest first with starting_after', async () => {
    for (let index = 0; index < 3; index++) {
      await stripe.customers.create({ email: `c${index}@innera.local` })
      setup.time.advance(1)
    }
    const first = await stripe.events.list({ type: 'customer.created', limit: 2 })
    expect(first.has_more).toBe(true)
    const second = await stripe.events.list({ type: 'customer.created', limit: 2, starting_after: first.data[1]!.id })
    expect(second.has_more).toBe(false)
    const emails = [...first.data, ...second.data].map((event) => (event.data.object as Stripe.Customer).email)
    expect(emails).toEqual(['c2@innera.local', 'c1@innera.local', 'c0@innera.local'])
  })
})

describe('Stripe’s errors', () => {
  it('names unknown and missing parameters', async () => {
    const unknown = await failure(stripe.paymentIntents.create({ amount: 100, currency: 'brl', amout: 100 } as Stripe.PaymentIntentCreateParams))
    expect(unknown).toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, code: 'parameter_unknown', param: 'amout', message: 'Received unknown parameter: amout' })
    const missing = await failure(stripe.paymentIntents.create({ currency: 'brl' } as Stripe.PaymentIntentCreateParams))
    expect(missing).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'amount', message: 'Missing required param: amount.' })
    expect(await failure(stripe.paymentIntents.create({ amount: 49, currency: 'brl' }))).toMatchObject({ code: 'amount_too_small' })
  })

  it('answers 404 resource_missing for an unknown id', async () => {
    const error = await failure(stripe.paymentIntents.retrieve('pi_doesnotexist'))
    expect(error).toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing', param: 'id', message: "No such payment_intent: 'pi_doesnotexist'" })
    expect(error.requestId).toMatch(/^req_/)
  })

  it('refuses a wrong key (401) and an unknown URL', async () => {
    const wrong = new Stripe('sk_test_wrong_key_1234', { host: '127.0.0.1', port: new URL(fake.apiUrl).port, protocol: 'http', maxNetworkRetries: 0 })
    expect(await failure(wrong.customers.create({}))).toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401, message: 'Invalid API Key provided: sk_test_****1234' })
    const response = await fetch(`${fake.apiUrl}/v1/nothing_here`, { headers: { authorization: `Bearer ${fake.app.services.config.stripe.secretKey}` } })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: { type: 'invalid_request_error', message: expect.stringMatching(/^Unrecognized request URL \(GET: \/v1\/nothing_here\)/) } })
  })
})

describe('Idempotency-Key', () => {
  it('answers the same key and parameters with the first answer, once', async () => {
    const params: Stripe.PaymentIntentCreateParams = { amount: 15_000, currency: 'brl', payment_method: 'pm_card_visa', confirm: true }
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'purchase-42-attempt-1' })
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'purchase-42-attempt-1' })
    expect(again).toEqual(first)
    expect((await stripe.paymentIntents.list()).data).toHaveLength(1)
    expect((await stripe.events.list({ type: 'payment_intent.succeeded' })).data).toHaveLength(1)

    const raw = await fetch(`${fake.apiUrl}/v1/payment_intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.app.services.config.stripe.secretKey}`, 'idempotency-key': 'purchase-42-attempt-1', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=15000&currency=brl&payment_method=pm_card_visa&confirm=true',
    })
    expect(raw.headers.get('idempotent-replayed')).toBe('true')
    expect((await raw.json()).id).toBe(first.id)
  })

  it('replays a card decline too, and refuses the key with other parameters', async () => {
    const declined = await failure(stripe.paymentIntents.create({ amount: 100, currency: 'brl', payment_method: 'pm_card_chargeDeclined', confirm: true }, { idempotencyKey: 'k-decline' }))
    const replayed = await failure(stripe.paymentIntents.create({ amount: 100, currency: 'brl', payment_method: 'pm_card_chargeDeclined', confirm: true }, { idempotencyKey: 'k-decline' }))
    expect(replayed.payment_intent!.id).toBe(declined.payment_intent!.id)

    const other = await failure(stripe.paymentIntents.create({ amount: 200, currency: 'brl' }, { idempotencyKey: 'k-decline' }))
    expect(other).toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400, message: expect.stringMatching(/^Keys for idempotent requests can only be used with the same parameters/) })
  })

  it('lets a key be used again after a refused request, and after 24 hours', async () => {
    await failure(stripe.customers.create({ emial: 'x' } as Stripe.CustomerCreateParams, { idempotencyKey: 'k-retry' }))
    const customer = await stripe.customers.create({ email: 'a@innera.local' }, { idempotencyKey: 'k-retry' })
    setup.time.advance(24 * 3600 + 1)
    const other = await stripe.customers.create({ email: 'b@innera.local' }, { idempotencyKey: 'k-retry' })
    expect(other.id).not.toBe(customer.id)
  })
})

describe('the provider’s own Stripe client', () => {
  it('reaches the fake at its public URL in-process, with no socket (as npm start does)', async () => {
    const app = testApp(database.db, { clock: setup.time.clock })
    expect(app.services.config.stripe.apiUrl).toBe(PUBLIC_URL)
    const intent = await app.services.stripe!.paymentIntents.create({ amount: 5000, currency: 'brl', allowed_payment_method_types: ['pix'], payment_method_data: { type: 'pix' }, confirm: true })
    expect(intent.status).toBe('requires_action')
    expect((await stripe.paymentIntents.retrieve(intent.id)).id).toBe(intent.id)
    await app.services.background.idle()
  })

  it('is absent when payments are off, and so is the fake', async () => {
    const app = testApp(database.db, { env: { FAKE_STRIPE: 'off' } })
    expect(app.services.stripe).toBeUndefined()
    expect(app.fakes.stripeWebhooks).toBeUndefined()
    expect((await app.request(`${PUBLIC_URL}/v1/customers`, { method: 'POST' })).status).toBe(404)
    expect((await app.request(`${PUBLIC_URL}/fake-stripe/pix/pi_${'a'.repeat(24)}`)).status).toBe(404)
  })
})

import type Stripe from 'stripe'
import { beforeEach, describe, expect, it } from 'vitest'
import { withFakeStripeWebhooks } from '#server/testing/stripe.ts'
import { PUBLIC_URL } from '#server/testing/harness.ts'

/**
 * Checkout Sessions in `mode=setup` (decision 0055): a card saved to a customer through the hosted
 * page and a SetupIntent, then made the subscription's default and charged for its open invoice,
 * through the official SDK as the provider uses them.
 */

const NOW = Date.parse('2026-03-02T12:00:00Z')
const setup = withFakeStripeWebhooks(NOW)
let stripe: Stripe
let customer: Stripe.Customer

beforeEach(async () => {
  stripe = setup.stripe
  customer = await stripe.customers.create({ email: 'paciente@innera.local', name: 'Pedro Santos' })
})

const SUCCESS_URL = 'http://app.test/assinaturas/3?cartao=atualizado'
const setupSession = (extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  stripe.checkout.sessions.create({
    mode: 'setup',
    customer: customer.id,
    currency: 'brl',
    success_url: SUCCESS_URL,
    cancel_url: 'http://app.test/assinaturas/3',
    metadata: { subscription_id: '3' },
    setup_intent_data: { metadata: { subscription_id: '3' } },
    ...extra,
  })

async function browse(url: string, form?: Record<string, string>) {
  const response = await setup.fake.app.request(url, form ? { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {})
  await setup.fake.app.services.background.idle()
  return { status: response.status, headers: response.headers, html: await response.text() }
}
const card = (number: string) => ({ email: 'paciente@innera.local', card_number: number, expiry: '12/30', cvc: '123', name: 'Pedro Santos' })
const delivered = (type: string) => setup.endpoint.received.filter((webhook) => webhook.event.type === type)

describe('Checkout Sessions in setup mode', () => {
  it('are created open for a customer, with nothing to pay and no line items', async () => {
    const created = await setupSession()
    expect(created).toMatchObject({
      object: 'checkout.session',
      mode: 'setup',
      status: 'open',
      customer: customer.id,
      currency: 'brl',
      amount_total: null,
      amount_subtotal: null,
      payment_status: 'no_payment_required',
      setup_intent: null,
      payment_intent: null,
      subscription: null,
      customer_creation: null,
      metadata: { subscription_id: '3' },
      url: `${PUBLIC_URL}/fake-stripe/checkout/${created.id}`,
    })
    expect(created).not.toHaveProperty('setup_intent_data')
    const page = await browse(created.url!)
    expect(page.html).toContain('Save a card for Innera')
    expect(page.html).toContain('Save card')
    expect(page.html).not.toContain('Pay Innera')
  })

  it('are refused as Stripe refuses them: without a customer, with line items, with payment or subscription data', async () => {
    await expect(setupSession({ customer: undefined })).rejects.toMatchObject({ statusCode: 400, param: 'customer' })
    await expect(setupSession({ line_items: [{ price: 'price_x', quantity: 1 }] })).rejects.toMatchObject({ statusCode: 400, param: 'line_items' })
    await expect(setupSession({ payment_intent_data: { metadata: { a: 'b' } } })).rejects.toMatchObject({ statusCode: 400, param: 'payment_intent_data' })
    await expect(setupSession({ subscription_data: { metadata: { a: 'b' } } })).rejects.toMatchObject({ statusCode: 400, param: 'subscription_data' })
    await expect(
      stripe.checkout.sessions.create({ mode: 'payment', success_url: SUCCESS_URL, line_items: [{ price_data: { currency: 'brl', unit_amount: 1000, product_data: { name: 'x' } }, quantity: 1 }], setup_intent_data: { metadata: { a: 'b' } } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'setup_intent_data' })
  })

  it('save a good card: a succeeded SetupIntent names the card attached to the customer, nothing is charged, the browser goes back', async () => {
    const created = await setupSession()
    const paid = await browse(created.url!, card('4242424242424242'))
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(SUCCESS_URL)
    const session = await stripe.checkout.sessions.retrieve(created.id)
    expect(session).toMatchObject({ status: 'complete', url: null, payment_status: 'no_payment_required' })
    const setupIntent = await stripe.setupIntents.retrieve(session.setup_intent as string)
    expect(setupIntent).toMatchObject({ object: 'setup_intent', status: 'succeeded', customer: customer.id, usage: 'off_session', metadata: { subscription_id: '3' } })
    const saved = await stripe.paymentMethods.retrieve(setupIntent.payment_method as string)
    expect(saved).toMatchObject({ customer: customer.id, card: { last4: '4242' } })
    expect((await stripe.paymentIntents.list({ limit: 10 })).data).toEqual([])
    expect(delivered('checkout.session.completed').map((webhook) => (webhook.event.data.object as unknown as Stripe.Checkout.Session).setup_intent)).toEqual([setupIntent.id])
    expect(delivered('setup_intent.succeeded')).toHaveLength(1)
    // The page is done: it says so, and a second card is not taken.
    expect((await browse(created.url!)).html).toContain('Card saved')
    expect((await browse(created.url!, card('5555555555554444'))).status).toBe(409)
  })

  it('keep the session open on a declined card, with Stripe’s message and nothing attached', async () => {
    const created = await setupSession()
    const declined = await browse(created.url!, card('4000000000009995'))
    expect(declined.status).toBe(402)
    expect(declined.html).toContain('Your card has insufficient funds.')
    expect(await stripe.checkout.sessions.retrieve(created.id)).toMatchObject({ status: 'open', setup_intent: null })
    expect((await stripe.events.list({ type: 'payment_method.attached' })).data).toEqual([])
    expect(delivered('checkout.session.completed')).toEqual([])
  })
})

import type Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { startFakeStripe, startWebhookEndpoint, type FakeStripeServer, type WebhookEndpoint } from '#server/testing/stripe.ts'
import { createMemoryDatabase, fakeClock, PUBLIC_URL, resetDatabase } from '#server/testing/harness.ts'
import { periodBoundary } from '#server/fakes/stripe/subscriptions.ts'

/**
 * Checkout Sessions in `mode=subscription` (decision 0046), through the official SDK on a
 * loopback port, the hosted page as the browser asks for it, and the webhooks as an endpoint
 * receives them.
 */

const NOW = Date.parse('2026-03-02T12:00:00Z')
const DAY = 86_400
const time = fakeClock(NOW)
let database: DatabaseHandle
let endpoint: WebhookEndpoint
let fake: FakeStripeServer
/** The fake's signing secret: this test process's own (testing/harness.ts), never a constant. */
const webhookSecret = () => fake.app.services.config.stripe.webhookSecret!
let stripe: Stripe
let monthly: Stripe.Price

beforeAll(async () => {
  database = await createMemoryDatabase()
  endpoint = await startWebhookEndpoint()
  fake = await startFakeStripe(database.db, { clock: time.clock, env: { FAKE_STRIPE_WEBHOOK_URL: endpoint.url } })
  stripe = fake.stripe
})
afterAll(async () => {
  await fake.close()
  await endpoint.close()
  await database.close()
})
beforeEach(async () => {
  time.set(NOW)
  await fake.app.services.background.idle()
  await resetDatabase(database.db)
  endpoint.received.length = 0
  endpoint.answers = []
  const product = await stripe.products.create({ name: 'Acompanhamento mensal' })
  monthly = await stripe.prices.create({ product: product.id, currency: 'brl', unit_amount: 9900, recurring: { interval: 'month' } })
})

const seconds = () => time.clock() / 1000
const SUCCESS_URL = 'http://app.test/assinaturas/sucesso?session_id={CHECKOUT_SESSION_ID}'

const session = (extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price: monthly.id, quantity: 1 }],
    success_url: SUCCESS_URL,
    cancel_url: 'http://app.test/assinaturas',
    customer_email: 'paciente@innera.local',
    client_reference_id: 'purchase-7',
    metadata: { purchase_id: '7' },
    subscription_data: { metadata: { purchase_id: '7' } },
    ...extra,
  })

/** A hosted page, as the browser asks for it; the webhooks it caused are sent before it answers. */
async function browse(url: string, form?: Record<string, string>) {
  const response = await fake.app.request(url, form ? { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {})
  await fake.app.services.background.idle()
  return { status: response.status, headers: response.headers, html: await response.text() }
}

const card = (number: string, extra: Record<string, string> = {}) => ({ card_number: number, expiry: '12/30', cvc: '123', name: 'Pedro Santos', ...extra })
const events = async (type: string) => (await stripe.events.list({ type, limit: 100 })).data
const delivered = (type: string) => endpoint.received.filter((webhook) => webhook.event.type === type)
const tick = async () => {
  const report = await fake.app.fakes.stripeTick()
  await fake.app.services.background.idle()
  return report
}

describe('Checkout Sessions in subscription mode', () => {
  it('are created open, with no subscription yet and the first period’s amount', async () => {
    const created = await session()
    expect(created).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: 9900,
      amount_total: 9900,
      currency: 'brl',
      subscription: null,
      payment_intent: null,
      invoice: null,
      setup_intent: null,
      customer: null,
      customer_email: 'paciente@innera.local',
      customer_creation: 'always',
      client_reference_id: 'purchase-7',
      metadata: { purchase_id: '7' },
      payment_method_collection: 'always',
      payment_method_types: ['card'],
      expires_at: NOW / 1000 + DAY,
      success_url: SUCCESS_URL,
      submit_type: null,
      url: `${PUBLIC_URL}/fake-stripe/checkout/${created.id}`,
    })
    expect(created).not.toHaveProperty('subscription_data')
    expect(created).not.toHaveProperty('payment_intent_data')
    expect(await stripe.checkout.sessions.retrieve(created.id)).toEqual(created)
    const items = await stripe.checkout.sessions.listLineItems(created.id)
    expect(items.data.map((item) => [item.description, item.quantity, item.amount_total, item.price?.id, item.price?.type])).toEqual([['Acompanhamento mensal', 1, 9900, monthly.id, 'recurring']])

    // With a trial nothing is due now; an inline recurring price works too.
    const trial = await session({
      line_items: [{ price_data: { currency: 'brl', unit_amount: 4900, recurring: { interval: 'week' }, product_data: { name: 'Check-in semanal' } }, quantity: 2 }],
      subscription_data: { trial_period_days: 14, metadata: { purchase_id: '8' } },
      expires_at: NOW / 1000 + 3600,
    })
    expect(trial).toMatchObject({ amount_subtotal: 0, amount_total: 0, payment_status: 'no_payment_required', expires_at: NOW / 1000 + 3600 })
    expect((await stripe.checkout.sessions.listLineItems(trial.id)).data.map((item) => [item.amount_total, item.price?.recurring?.interval])).toEqual([[9800, 'week']])
    expect(delivered('checkout.session.completed')).toHaveLength(0)
  })

  it('refuse one-time prices, a missing price, methods other than cards, and what belongs to the other mode', async () => {
    const once = await stripe.prices.create({ product: monthly.product as string, currency: 'brl', unit_amount: 15_000 })
    const yearly = await stripe.prices.create({ product: monthly.product as string, currency: 'brl', unit_amount: 99_000, recurring: { interval: 'year' } })
    const refusals: [Partial<Stripe.Checkout.SessionCreateParams>, RegExp, string?][] = [
      [{ line_items: [{ price: once.id, quantity: 1 }] }, /at least one recurring price in `subscription` mode/, 'line_items'],
      [{ line_items: [{ price: monthly.id, quantity: 1 }, { price: once.id, quantity: 1 }] }, /recurring prices only/, 'line_items[1][price]'],
      [{ line_items: [{ price_data: { currency: 'brl', unit_amount: 15_000, product_data: { name: 'Avulsa' } }, quantity: 1 }] }, /at least one recurring price/],
      [{ line_items: [{ price: monthly.id, quantity: 1 }, { price: yearly.id, quantity: 1 }] }, /same `recurring.interval`/, 'line_items[1][price]'],
      [{ line_items: [{ quantity: 1 }] }, /Missing required param: line_items\[0\]\[price\]/, 'line_items[0][price]'],
      [{ line_items: [] }, /Missing required param: line_items/],
      [{ allowed_payment_method_types: ['pix'] }, /cards only/, 'allowed_payment_method_types'],
      [{ allowed_payment_method_types: ['card', 'pix'] }, /cards only/],
      [{ payment_method_types: ['pix'] } as Partial<Stripe.Checkout.SessionCreateParams>, /cards only/],
      [{ payment_intent_data: { metadata: { purchase_id: '7' } } }, /`payment_intent_data` in `payment` mode/, 'payment_intent_data'],
      [{ submit_type: 'pay' }, /only be specified on Checkout Sessions in `payment` mode/, 'submit_type'],
      [{ subscription_data: { trial_period_days: 0 } }, /between 1 and 730/, 'subscription_data[trial_period_days]'],
      [{ subscription_data: { trial_end: NOW / 1000 + 7 * DAY } }, /unknown parameter: subscription_data\[trial_end\]/],
      [{ customer: 'cus_missing', customer_email: undefined }, /No such customer/],
      [{ mode: 'setup' }, /in `setup` mode saves the card to a customer/, 'customer'],
    ]
    for (const [extra, message, param] of refusals) {
      await expect(session(extra), message.source).rejects.toMatchObject({ type: 'StripeInvalidRequestError', message: expect.stringMatching(message), ...(param && { param }) })
    }
    await expect(
      stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ price: once.id, quantity: 1 }], success_url: SUCCESS_URL, subscription_data: { trial_period_days: 7 } }),
    ).rejects.toMatchObject({ param: 'subscription_data', message: expect.stringMatching(/`subscription_data` in `subscription` mode/) })
    expect((await stripe.checkout.sessions.list()).data).toHaveLength(0)
  })
})

describe('the hosted page in subscription mode', () => {
  it('subscribes with a good card: customer, card, active subscription with its paid invoice, and the events', async () => {
    const created = await session()
    const page = await browse(created.url!)
    expect(page.status).toBe(200)
    expect(page.html).toMatch(/Total: <strong>R\$\s99,00<\/strong>/)
    expect(page.html).toContain('<td>Acompanhamento mensal</td>')
    expect(page.html).toContain('<code>4000 0000 0000 0341</code>')

    const paid = await browse(created.url!, card('4242 4242 4242 4242'))
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(`http://app.test/assinaturas/sucesso?session_id=${created.id}`)

    const complete = await stripe.checkout.sessions.retrieve(created.id)
    expect(complete).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      url: null,
      payment_intent: null,
      amount_total: 9900,
      subscription: expect.stringMatching(/^sub_/),
      customer: expect.stringMatching(/^cus_/),
      invoice: expect.stringMatching(/^in_/),
      customer_details: { email: 'paciente@innera.local', name: 'Pedro Santos' },
    })
    const customer = (await stripe.customers.retrieve(complete.customer as string)) as Stripe.Customer
    expect(customer).toMatchObject({ email: 'paciente@innera.local', name: 'Pedro Santos' })
    const subscription = await stripe.subscriptions.retrieve(complete.subscription as string)
    expect(subscription).toMatchObject({
      status: 'active',
      customer: customer.id,
      metadata: { purchase_id: '7' },
      latest_invoice: complete.invoice,
      trial_end: null,
      start_date: seconds(),
      collection_method: 'charge_automatically',
    })
    expect(subscription.items.data.map((item) => [item.price.id, item.quantity, item.current_period_start, item.current_period_end])).toEqual([
      [monthly.id, 1, seconds(), periodBoundary(seconds(), 'month', 1, 1)],
    ])
    const paymentMethod = await stripe.paymentMethods.retrieve(subscription.default_payment_method as string)
    expect(paymentMethod).toMatchObject({ type: 'card', customer: customer.id, card: { last4: '4242', brand: 'visa' }, billing_details: { name: 'Pedro Santos', email: 'paciente@innera.local' } })
    expect(await stripe.invoices.retrieve(complete.invoice as string)).toMatchObject({
      status: 'paid',
      amount_due: 9900,
      amount_paid: 9900,
      billing_reason: 'subscription_create',
      customer: customer.id,
      parent: { subscription_details: { subscription: subscription.id, metadata: { purchase_id: '7' } } },
    })

    // The webhooks, signed as Stripe signs them.
    for (const type of ['customer.created', 'payment_method.attached', 'invoice.paid', 'customer.subscription.created', 'checkout.session.completed']) expect(delivered(type), type).toHaveLength(1)
    const [completed] = delivered('checkout.session.completed')
    const checked = stripe.webhooks.constructEvent(completed!.body, completed!.headers['stripe-signature'] as string, webhookSecret(), 300, undefined, NOW)
    expect(checked.data.object).toMatchObject({ id: created.id, mode: 'subscription', status: 'complete', payment_status: 'paid', subscription: subscription.id, customer: customer.id, client_reference_id: 'purchase-7', metadata: { purchase_id: '7' } })
    expect(checked.data.object).not.toHaveProperty('subscription_data')
    expect(delivered('customer.subscription.created')[0]!.event.data.object).toMatchObject({ id: subscription.id, status: 'active', default_payment_method: paymentMethod.id })
    expect(delivered('invoice.paid')[0]!.event.data.object).toMatchObject({ id: complete.invoice, amount_paid: 9900 })

    // Done: the page says so, and paying again changes nothing.
    expect((await browse(created.url!)).html).toContain('<h1>Payment complete</h1>')
    expect((await browse(created.url!, card('4242424242424242'))).status).toBe(409)
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(1)

    // The next month's invoice is charged to the same card.
    time.set(subscription.items.data[0]!.current_period_end * 1000)
    expect(await tick()).toMatchObject({ subscriptions: 1 })
    const renewed = await stripe.subscriptions.retrieve(subscription.id)
    expect(renewed.status).toBe('active')
    expect(await stripe.invoices.retrieve(renewed.latest_invoice as string)).toMatchObject({ status: 'paid', amount_paid: 9900, billing_reason: 'subscription_cycle' })
    expect(delivered('invoice.paid')).toHaveLength(2)
  })

  it('starts a trial without charging, no_payment_required', async () => {
    const created = await session({ subscription_data: { trial_period_days: 14, metadata: { purchase_id: '7' }, description: 'Acompanhamento' } })
    expect((await browse(created.url!)).html).toMatch(/Total: <strong>R\$\s0,00<\/strong>/)
    expect((await browse(created.url!, card('5555 5555 5555 4444'))).status).toBe(303)
    const complete = await stripe.checkout.sessions.retrieve(created.id)
    expect(complete).toMatchObject({ status: 'complete', payment_status: 'no_payment_required', amount_total: 0 })
    const subscription = await stripe.subscriptions.retrieve(complete.subscription as string)
    expect(subscription).toMatchObject({ status: 'trialing', trial_start: seconds(), trial_end: seconds() + 14 * DAY, description: 'Acompanhamento', metadata: { purchase_id: '7' } })
    expect(await stripe.invoices.retrieve(complete.invoice as string)).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 0 })
    expect(await events('payment_intent.created')).toHaveLength(0)
    expect(await events('charge.succeeded')).toHaveLength(0)
    expect(delivered('checkout.session.completed')[0]!.event.data.object).toMatchObject({ payment_status: 'no_payment_required', subscription: subscription.id })
    expect(delivered('customer.subscription.created')[0]!.event.data.object).toMatchObject({ status: 'trialing' })
  })

  it('uses the session’s customer, giving it the e-mail typed when it had none', async () => {
    const customer = await stripe.customers.create({ name: 'Pedro Santos', metadata: { user_id: '4' } })
    const created = await session({ customer: customer.id, customer_email: undefined })
    expect(created).toMatchObject({ customer: customer.id, customer_email: null, customer_creation: null })
    expect((await browse(created.url!, card('4242424242424242', { email: 'pedro@innera.local' }))).status).toBe(303)
    const complete = await stripe.checkout.sessions.retrieve(created.id)
    expect(complete.customer).toBe(customer.id)
    expect((await stripe.subscriptions.retrieve(complete.subscription as string)).customer).toBe(customer.id)
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ email: 'pedro@innera.local', metadata: { user_id: '4' } })
    expect(await events('customer.created')).toHaveLength(1)
    expect(delivered('customer.updated')[0]!.event).toMatchObject({ data: { previous_attributes: { email: null } } })
  })

  it('declines a card with Stripe’s message and keeps the session open, creating nothing', async () => {
    const created = await session()
    const declined = await browse(created.url!, card('4000 0000 0000 0002'))
    expect(declined.status).toBe(402)
    expect(declined.html).toContain('<p role="alert" id="payment-error">Your card was declined.</p>')
    expect((await browse(created.url!, card('4000000000009995'))).html).toContain('Your card has insufficient funds.')
    // The card that attaches but is declined at the charge: the first invoice is not paid, so no subscription.
    expect((await browse(created.url!, card('4000000000000341'))).html).toContain('Your card was declined.')

    const open = await stripe.checkout.sessions.retrieve(created.id)
    expect(open).toMatchObject({ status: 'open', payment_status: 'unpaid', subscription: null, customer: null, invoice: null, customer_details: { email: 'paciente@innera.local' } })
    for (const type of ['customer.created', 'payment_method.attached', 'customer.subscription.created', 'invoice.created', 'checkout.session.completed']) expect(await events(type), type).toHaveLength(0)
    expect((await stripe.invoices.list()).data).toHaveLength(0)
    // Only what the test's own setup caused was sent.
    expect(endpoint.received.map((webhook) => webhook.event.type).sort()).toEqual(['price.created', 'product.created'])

    // Another card then works.
    expect((await browse(created.url!, card('4242424242424242'))).status).toBe(303)
    expect((await stripe.subscriptions.list()).data.map((subscription) => subscription.status)).toEqual(['active'])
  })

  it('takes the card that fails later for a trial, and the renewal fails: invoice.payment_failed, past_due', async () => {
    // A card declined at once is refused even for a trial (attaching it fails).
    const refused = await session({ subscription_data: { trial_period_days: 7 } })
    expect((await browse(refused.url!, card('4000000000000002'))).status).toBe(402)
    expect((await stripe.checkout.sessions.retrieve(refused.id)).status).toBe('open')

    const created = await session({ subscription_data: { trial_period_days: 7, metadata: { purchase_id: '7' } } })
    expect((await browse(created.url!, card('4000 0000 0000 0341'))).status).toBe(303)
    const complete = await stripe.checkout.sessions.retrieve(created.id)
    const subscription = await stripe.subscriptions.retrieve(complete.subscription as string)
    expect(subscription.status).toBe('trialing')
    expect((await stripe.paymentMethods.retrieve(subscription.default_payment_method as string)).card?.last4).toBe('0341')

    time.advance(7 * DAY)
    await tick()
    const pastDue = await stripe.subscriptions.retrieve(subscription.id)
    expect(pastDue.status).toBe('past_due')
    expect(await stripe.invoices.retrieve(pastDue.latest_invoice as string)).toMatchObject({ status: 'open', amount_due: 9900, amount_remaining: 9900, attempt_count: 1, billing_reason: 'subscription_cycle' })
    const [failed] = delivered('invoice.payment_failed')
    expect(failed!.event.data.object).toMatchObject({ id: pastDue.latest_invoice, status: 'open' })
    expect(delivered('customer.subscription.updated').at(-1)!.event).toMatchObject({ data: { object: { id: subscription.id, status: 'past_due' }, previous_attributes: { status: 'trialing' } } })
    const [declinedCharge] = delivered('charge.failed')
    expect(declinedCharge!.event.data.object).toMatchObject({ failure_code: 'card_declined', amount: 9900 })
  })

  it('expires at expires_at with checkout.session.expired, and subscribes nobody', async () => {
    const created = await session({ expires_at: NOW / 1000 + 1800 })
    await browse(created.url!, card('4000000000000002'))
    time.advance(1800)
    expect(await tick()).toMatchObject({ expired: 1 })
    expect(await stripe.checkout.sessions.retrieve(created.id)).toMatchObject({ status: 'expired', url: null, subscription: null })
    expect(delivered('checkout.session.expired')[0]!.event.data.object).toMatchObject({ id: created.id, mode: 'subscription', status: 'expired' })
    expect((await browse(created.url!)).html).toContain('<h1>This payment page has expired</h1>')
    expect((await browse(created.url!, card('4242424242424242'))).status).toBe(409)
    expect((await stripe.subscriptions.list()).data).toHaveLength(0)
  })
})

describe('the card that attaches and fails later, through the API', () => {
  it('is pm_card_chargeCustomerFail: a subscription without a trial stays incomplete', async () => {
    const customer = await stripe.customers.create({ email: 'paciente@innera.local' })
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: monthly.id }], default_payment_method: 'pm_card_chargeCustomerFail' })
    expect(subscription.status).toBe('incomplete')
    await expect(stripe.paymentIntents.create({ amount: 5000, currency: 'brl', payment_method: 'pm_card_chargeCustomerFail', confirm: true })).rejects.toMatchObject({
      type: 'StripeCardError',
      decline_code: 'generic_decline',
    })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { startFakeStripe, startWebhookEndpoint, type FakeStripeServer, type WebhookEndpoint } from '#server/testing/stripe.ts'
import { createMemoryDatabase, describeOnPostgres, fakeClock, PUBLIC_URL, resetDatabase } from '#server/testing/harness.ts'
import { payCheckoutSession } from '#server/fakes/stripe/checkout.ts'
import { FakeStripeError } from '#server/fakes/stripe/errors.ts'
import { settlePixCharge, testCardByNumber, type FakeStripeContext } from '#server/fakes/stripe/payments.ts'

/**
 * Why the fake Stripe keeps its state in the database (decision 0046): two provider processes on
 * one database are one Stripe. A charge made through one is paid through the other exactly once,
 * a subscription-mode Checkout Session paid from both subscribes once, an idempotency key sent to
 * both makes one object, their webhook senders send each event once between them, and an invoice
 * paid again from both is charged once.
 */

const NOW = Date.parse('2026-03-02T12:00:00Z')
const time = fakeClock(NOW)

function twoProcessesSuite(open: () => Promise<{ first: Database; second: Database; dispose(): Promise<void> }>) {
  let dispose: () => Promise<void>
  let endpoint: WebhookEndpoint
  let one: FakeStripeServer
  let two: FakeStripeServer
  let first: Database

  beforeAll(async () => {
    const opened = await open()
    first = opened.first
    dispose = opened.dispose
    await resetDatabase(first)
    endpoint = await startWebhookEndpoint()
    const env = { FAKE_STRIPE_WEBHOOK_URL: endpoint.url }
    one = await startFakeStripe(opened.first, { clock: time.clock, env })
    two = await startFakeStripe(opened.second, { clock: time.clock, env })
  })
  afterAll(async () => {
    await one.app.services.background.idle()
    await two.app.services.background.idle()
    await one.close()
    await two.close()
    await endpoint.close()
    await dispose()
  })

  it('pays a PIX charge made in one process once, from both at the same time', async () => {
    const intent = await one.stripe.paymentIntents.create({ amount: 18_000, currency: 'brl', allowed_payment_method_types: ['pix'], payment_method_data: { type: 'pix' }, confirm: true })
    const attempts = [one, two, one, two, one, two].map((process) =>
      settlePixCharge({ db: process.app.services.db, now: time.clock(), publicUrl: PUBLIC_URL, webhookUrl: endpoint.url }, intent.id, 'succeed').then(
        () => 'paid',
        (error: unknown) => (error instanceof FakeStripeError ? 'refused' : Promise.reject(error)),
      ),
    )
    expect((await Promise.all(attempts)).sort()).toEqual(['paid', 'refused', 'refused', 'refused', 'refused', 'refused'])
    expect((await two.stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded')
    expect((await two.stripe.events.list({ type: 'payment_intent.succeeded' })).data).toHaveLength(1)
  })

  it('makes one object of one idempotency key sent to both', async () => {
    const create = (process: FakeStripeServer) => process.stripe.customers.create({ email: 'paciente@innera.local' }, { idempotencyKey: 'customer-4' })
    const customers = await Promise.all([create(one), create(two), create(one), create(two)])
    expect(new Set(customers.map((customer) => customer.id)).size).toBe(1)
    expect((await one.stripe.events.list({ type: 'customer.created' })).data).toHaveLength(1)
  })

  it('subscribes once through a subscription-mode Checkout Session paid from both at the same time, after a decline that kept nothing', async () => {
    const product = await one.stripe.products.create({ name: 'Acompanhamento mensal' })
    const price = await two.stripe.prices.create({ product: product.id, currency: 'brl', unit_amount: 9900, recurring: { interval: 'month' } })
    const session = await one.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      customer_email: 'paciente@innera.local',
      success_url: 'http://app.test/assinaturas/sucesso',
    })
    const context = (process: FakeStripeServer): FakeStripeContext => ({ db: process.app.services.db, now: time.clock(), publicUrl: PUBLIC_URL, webhookUrl: endpoint.url })
    const pay = (process: FakeStripeServer, number: string) => payCheckoutSession(context(process), session.id, { card: testCardByNumber(number)!, email: 'paciente@innera.local', name: 'Pedro Santos' })

    const customersMade = async () => (await one.stripe.events.list({ type: 'customer.created' })).data.length
    const before = await customersMade()
    // Declined at the first charge: the savepoint keeps nothing of the attempt.
    expect((await pay(two, '4000000000000341')).outcome).toBe('declined')
    expect(await customersMade()).toBe(before)

    const attempts = await Promise.all([one, two, one, two, one, two].map((process) => pay(process, '4242424242424242')))
    expect(attempts.map((attempt) => attempt.outcome).sort()).toEqual(['closed', 'closed', 'closed', 'closed', 'closed', 'paid'])
    const complete = await two.stripe.checkout.sessions.retrieve(session.id)
    expect(complete).toMatchObject({ status: 'complete', payment_status: 'paid' })
    expect((await one.stripe.subscriptions.list()).data.map((subscription) => [subscription.id, subscription.status])).toEqual([[complete.subscription, 'active']])
    expect((await two.stripe.events.list({ type: 'checkout.session.completed' })).data).toHaveLength(1)
    expect(await customersMade()).toBe(before + 1)
  })

  it('sends each event once between the two webhook senders', async () => {
    await one.app.services.background.idle()
    await two.app.services.background.idle()
    // What the requests' own sending left (nothing, or retries) goes now, from both at once.
    await Promise.all([one.app.fakes.stripeWebhooks!.deliverDue(), two.app.fakes.stripeWebhooks!.deliverDue()])
    const ids = endpoint.received.map((webhook) => webhook.event.id)
    expect(new Set(ids).size).toBe(ids.length)
    // For the PIX charge: created, requires_action, charge.succeeded, succeeded; customer.created;
    // for the subscription's Checkout: product and price created, customer.created,
    // payment_method.attached, invoice created and finalized, its payment intent created,
    // charge.succeeded, payment_intent.succeeded, invoice_payment.paid, invoice.paid and
    // .payment_succeeded, customer.subscription.created, checkout.session.completed.
    expect(ids).toHaveLength(4 + 1 + 14)
  })

  it('pays a past_due invoice once when both pay it again at the same time', async () => {
    const customer = await one.stripe.customers.create({ email: 'paciente@innera.local' })
    const product = await one.stripe.products.create({ name: 'Acompanhamento mensal' })
    const price = await one.stripe.prices.create({ product: product.id, currency: 'brl', unit_amount: 9900, recurring: { interval: 'month' } })
    const trialing = await two.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], trial_period_days: 1, default_payment_method: 'pm_card_chargeCustomerFail' })
    time.advance(86_400_000)
    await one.app.fakes.stripeTick()
    const pastDue = await one.stripe.subscriptions.update(trialing.id, { default_payment_method: 'pm_card_visa' })
    expect(pastDue.status).toBe('past_due')
    const invoice = pastDue.latest_invoice as string

    const attempts = [one, two, one, two, one, two].map((process) =>
      process.stripe.invoices.pay(invoice).then(
        () => 'paid',
        (error: { statusCode?: number; message?: string }) => (error.statusCode === 400 && error.message === 'Invoice is already paid' ? 'refused' : Promise.reject(error)),
      ),
    )
    expect((await Promise.all(attempts)).sort()).toEqual(['paid', 'refused', 'refused', 'refused', 'refused', 'refused'])
    expect(await two.stripe.invoices.retrieve(invoice)).toMatchObject({ status: 'paid', attempt_count: 2 })
    expect((await two.stripe.subscriptions.retrieve(trialing.id)).status).toBe('active')
    const payments = (await one.stripe.invoicePayments.list({ invoice })).data
    expect(payments.map((payment) => payment.status)).toEqual(['paid'])
    const charges = (await two.stripe.events.list({ type: 'charge.succeeded', limit: 100 })).data.filter((event) => (event.data.object as { payment_intent: string }).payment_intent === payments[0]!.payment.payment_intent)
    expect(charges).toHaveLength(1)
  })
}

describe('two processes on PGlite (one database handle)', () => {
  twoProcessesSuite(async () => {
    const handle = await createMemoryDatabase()
    return { first: handle.db, second: handle.db, dispose: () => handle.close() }
  })
})

await describeOnPostgres('two processes on PostgreSQL (two pools, one database)', (open) =>
  twoProcessesSuite(async () => {
    const { first, second, dispose } = await open()
    return { first: first.db, second: second.db, dispose }
  }),
)

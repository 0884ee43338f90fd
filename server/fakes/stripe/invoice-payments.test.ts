import Stripe from 'stripe'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withFakeStripe, type FakeStripeServer } from '#server/testing/stripe.ts'

/**
 * InvoicePayments and `invoices.pay` (decision 0046), through the official SDK on a loopback
 * port: every invoice charged has one default InvoicePayment whose PaymentIntent each attempt
 * confirms, and an open invoice of a subscription whose renewal failed can be paid again.
 */

const NOW = Date.parse('2026-03-02T12:00:00Z')
const DAY = 86_400
let fake: FakeStripeServer
let stripe: Stripe
let customer: Stripe.Customer
let monthly: Stripe.Price

const setup = withFakeStripe(NOW)
beforeAll(() => {
  ;({ fake, stripe } = setup)
})
beforeEach(async () => {
  customer = await stripe.customers.create({ email: 'paciente@innera.local' })
  const product = await stripe.products.create({ name: 'Acompanhamento mensal' })
  monthly = await stripe.prices.create({ product: product.id, currency: 'brl', unit_amount: 9900, recurring: { interval: 'month' } })
})

const seconds = () => setup.time.clock() / 1000
const tick = () => fake.app.fakes.stripeTick()
const events = async (type: string) => (await stripe.events.list({ type, limit: 100 })).data
const subscribe = (extra: Partial<Stripe.SubscriptionCreateParams> = {}) =>
  stripe.subscriptions.create({ customer: customer.id, items: [{ price: monthly.id }], default_payment_method: 'pm_card_visa', ...extra })
const paymentsOf = async (invoice: string) => (await stripe.invoicePayments.list({ invoice })).data
const periodEnd = (subscription: Stripe.Subscription) => subscription.items.data[0]!.current_period_end

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

/** A subscription on the card that attaches and then always declines, whose first renewal failed: past_due. */
async function pastDue(): Promise<{ subscription: Stripe.Subscription; invoice: Stripe.Invoice }> {
  const trialing = await subscribe({ trial_period_days: 1, default_payment_method: 'pm_card_chargeCustomerFail' })
  setup.time.advance(DAY)
  await tick()
  const subscription = await stripe.subscriptions.retrieve(trialing.id)
  expect(subscription.status).toBe('past_due')
  return { subscription, invoice: await stripe.invoices.retrieve(subscription.latest_invoice as string) }
}

describe('invoice payments', () => {
  it('lists the first invoice’s and a renewal’s, each with its own PaymentIntent, in Stripe’s shape', async () => {
    const subscription = await subscribe()
    const first = subscription.latest_invoice as string
    const [payment] = await paymentsOf(first)
    expect(payment).toEqual({
      id: expect.stringMatching(/^inpay_[A-Za-z0-9]{24}$/),
      object: 'invoice_payment',
      amount_paid: 9900,
      amount_requested: 9900,
      created: seconds(),
      currency: 'brl',
      invoice: first,
      is_default: true,
      livemode: false,
      payment: { type: 'payment_intent', payment_intent: expect.stringMatching(/^pi_/) },
      status: 'paid',
      status_transitions: { canceled_at: null, paid_at: seconds() },
    })
    expect(await paymentsOf(first)).toHaveLength(1)
    expect(await stripe.invoicePayments.retrieve(payment!.id)).toEqual(payment)
    const firstIntent = await stripe.paymentIntents.retrieve(payment!.payment.payment_intent as string)
    expect(firstIntent).toMatchObject({ status: 'succeeded', amount: 9900, amount_received: 9900, customer: customer.id, description: 'Subscription creation', metadata: {} })
    expect(await stripe.paymentMethods.retrieve(firstIntent.payment_method as string)).toMatchObject({ card: { last4: '4242' } })

    setup.time.set(periodEnd(subscription) * 1000)
    await tick()
    const renewed = await stripe.subscriptions.retrieve(subscription.id)
    const renewal = renewed.latest_invoice as string
    expect(renewal).not.toBe(first)
    const [renewalPayment] = await paymentsOf(renewal)
    expect(renewalPayment).toMatchObject({ invoice: renewal, status: 'paid', amount_paid: 9900, is_default: true, created: seconds(), status_transitions: { paid_at: seconds() } })
    const renewalIntent = await stripe.paymentIntents.retrieve(renewalPayment!.payment.payment_intent as string)
    expect(renewalIntent.id).not.toBe(firstIntent.id)
    expect(renewalIntent).toMatchObject({ status: 'succeeded', amount: 9900, description: 'Subscription update', metadata: {} })

    // Narrowed by PaymentIntent and status; newest first without a filter.
    expect((await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: firstIntent.id } })).data.map((entry) => entry.invoice)).toEqual([first])
    expect((await stripe.invoicePayments.list({ status: 'open' })).data).toEqual([])
    expect((await stripe.invoicePayments.list()).data.map((entry) => entry.invoice)).toEqual([renewal, first])
    expect((await events('invoice_payment.paid')).map((event) => (event.data.object as Stripe.InvoicePayment).invoice)).toEqual([renewal, first])
  })

  it('has none for an invoice with nothing due, and refuses what Stripe refuses', async () => {
    const trialing = await subscribe({ trial_period_days: 7 })
    expect(await paymentsOf(trialing.latest_invoice as string)).toEqual([])
    expect(await paymentsOf('in_missing')).toEqual([])
    expect(await failure(stripe.invoicePayments.retrieve('inpay_missing'))).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such invoice_payment: 'inpay_missing'" })
    expect(await failure(stripe.invoicePayments.list({ created: 1 }))).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'created' })
    expect(await failure(stripe.invoicePayments.list({ status: 'lost' }))).toMatchObject({ statusCode: 400, param: 'status' })
  })
})

describe('a renewal declined, and the invoice paid again', () => {
  it('goes past_due on 4000 0000 0000 0341, with the invoice payment open', async () => {
    const { invoice } = await pastDue()
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, attempted: true, amount_remaining: 9900, billing_reason: 'subscription_cycle' })
    const [payment] = await paymentsOf(invoice.id)
    expect(payment).toMatchObject({ status: 'open', amount_paid: null, amount_requested: 9900, is_default: true, status_transitions: { paid_at: null, canceled_at: null } })
    expect(await stripe.paymentIntents.retrieve(payment!.payment.payment_intent as string)).toMatchObject({
      status: 'requires_payment_method',
      description: 'Subscription update',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' },
    })
    expect(await events('invoice.payment_failed')).toHaveLength(1)
    expect(await events('invoice_payment.paid')).toHaveLength(0)
  })

  it('answers invoices.pay with the card’s 402 while the card still fails, and stays past_due', async () => {
    const { subscription, invoice } = await pastDue()
    const declined = await failure(stripe.invoices.pay(invoice.id))
    expect(declined).toMatchObject({ type: 'StripeCardError', statusCode: 402, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' })
    expect(declined.payment_intent?.id).toBe((await paymentsOf(invoice.id))[0]!.payment.payment_intent)

    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'open', attempt_count: 2, amount_paid: 0, amount_remaining: 9900 })
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due')
    // Written in the same second: in no promised order.
    expect((await events('invoice.payment_failed')).map((event) => (event.data.object as Stripe.Invoice).attempt_count).sort()).toEqual([1, 2])
    // The same default payment, its PaymentIntent declined again: two failed charges.
    const payments = await paymentsOf(invoice.id)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ status: 'open', amount_paid: null })
    expect((await events('charge.failed')).map((event) => (event.data.object as Stripe.Charge).payment_intent)).toEqual([payments[0]!.payment.payment_intent, payments[0]!.payment.payment_intent])
  })

  it('pays after the subscription’s card is changed: invoice paid, subscription active, with their events', async () => {
    const { subscription, invoice } = await pastDue()
    await failure(stripe.invoices.pay(invoice.id))
    const updated = await stripe.subscriptions.update(subscription.id, { default_payment_method: 'pm_card_visa' })
    expect(updated.status).toBe('past_due')
    expect(updated.default_payment_method).not.toBe(subscription.default_payment_method)
    expect(await stripe.paymentMethods.retrieve(updated.default_payment_method as string)).toMatchObject({ customer: customer.id, card: { last4: '4242' } })

    const paid = await stripe.invoices.pay(invoice.id)
    expect(paid).toMatchObject({ id: invoice.id, object: 'invoice', status: 'paid', attempt_count: 3, amount_paid: 9900, amount_remaining: 0, status_transitions: { paid_at: seconds() } })
    expect(await stripe.invoices.retrieve(invoice.id)).toEqual(paid)
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'active', latest_invoice: invoice.id })

    const [payment] = await paymentsOf(invoice.id)
    expect(payment).toMatchObject({ status: 'paid', amount_paid: 9900, status_transitions: { paid_at: seconds() } })
    const intent = await stripe.paymentIntents.retrieve(payment!.payment.payment_intent as string)
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 9900, payment_method: updated.default_payment_method, last_payment_error: null, description: 'Subscription update' })
    expect(await stripe.charges.retrieve(intent.latest_charge as string)).toMatchObject({ status: 'succeeded', paid: true, payment_intent: intent.id })

    expect((await events('invoice.paid')).map((event) => (event.data.object as Stripe.Invoice).id)).toContain(invoice.id)
    expect((await events('invoice.payment_succeeded')).map((event) => (event.data.object as Stripe.Invoice).id)).toContain(invoice.id)
    expect((await events('invoice_payment.paid')).map((event) => event.data.object)).toEqual([payment])
    expect((await events('payment_intent.succeeded')).map((event) => (event.data.object as Stripe.PaymentIntent).id)).toContain(intent.id)
    const reactivated = (await events('customer.subscription.updated')).find((event) => (event.data.object as Stripe.Subscription).status === 'active')
    expect(reactivated).toMatchObject({ data: { object: { id: subscription.id, status: 'active' }, previous_attributes: { status: 'past_due' } } })
    expect(reactivated!.request?.id).toMatch(/^req_/)

    // The next renewal charges the new card.
    setup.time.set(periodEnd(updated) * 1000)
    await tick()
    const next = await stripe.subscriptions.retrieve(subscription.id)
    expect(next.latest_invoice).not.toBe(invoice.id)
    expect(next.status).toBe('active')
  })

  it('refuses to pay a paid invoice (400), and keeps nothing of the refusal', async () => {
    const subscription = await subscribe()
    const refused = await failure(stripe.invoices.pay(subscription.latest_invoice as string))
    expect(refused).toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, message: 'Invoice is already paid' })
    const trialing = await subscribe({ trial_period_days: 7 })
    expect(await failure(stripe.invoices.pay(trialing.latest_invoice as string))).toMatchObject({ statusCode: 400, message: 'Invoice is already paid' })

    const { invoice } = await pastDue()
    await stripe.invoices.pay(invoice.id, { payment_method: 'pm_card_visa' })
    expect(await failure(stripe.invoices.pay(invoice.id))).toMatchObject({ statusCode: 400, message: 'Invoice is already paid' })
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid', attempt_count: 2 })
    expect(await paymentsOf(invoice.id)).toHaveLength(1)
    expect(await failure(stripe.invoices.pay('in_missing'))).toMatchObject({ statusCode: 404, code: 'resource_missing' })
  })
})

describe('invoices.pay', () => {
  it('takes payment_method: a test card, or one of the customer’s, not another customer’s; the default card stays', async () => {
    const { subscription, invoice } = await pastDue()
    const other = await stripe.customers.create({ email: 'outra@innera.local' })
    const elsewhere = await stripe.subscriptions.create({ customer: other.id, items: [{ price: monthly.id }], default_payment_method: 'pm_card_mastercard' })
    expect(await failure(stripe.invoices.pay(invoice.id, { payment_method: elsewhere.default_payment_method as string }))).toMatchObject({ statusCode: 400, param: 'payment_method' })
    expect(await failure(stripe.invoices.pay(invoice.id, { payment_method: 'pm_missing' }))).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'payment_method' })
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ attempt_count: 1 })

    const paid = await stripe.invoices.pay(invoice.id, { payment_method: 'pm_card_mastercard', off_session: true })
    expect(paid.status).toBe('paid')
    const after = await stripe.subscriptions.retrieve(subscription.id)
    expect(after).toMatchObject({ status: 'active', default_payment_method: subscription.default_payment_method })
    const intent = await stripe.paymentIntents.retrieve((await paymentsOf(invoice.id))[0]!.payment.payment_intent as string)
    expect(await stripe.paymentMethods.retrieve(intent.payment_method as string)).toMatchObject({ customer: customer.id, card: { last4: '4444' } })
  })

  it('pays the open invoice of a canceled subscription, which stays canceled', async () => {
    const { subscription, invoice } = await pastDue()
    await stripe.subscriptions.cancel(subscription.id)
    expect(await stripe.invoices.pay(invoice.id, { payment_method: 'pm_card_visa' })).toMatchObject({ status: 'paid' })
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled')
    expect((await events('customer.subscription.updated')).filter((event) => (event.data.object as Stripe.Subscription).status === 'active')).toEqual([])
  })

  it('makes an incomplete subscription active, refuses one expired, and one without a card', async () => {
    const incomplete = await subscribe({ default_payment_method: 'pm_card_chargeDeclined' })
    expect(incomplete.status).toBe('incomplete')
    await stripe.invoices.pay(incomplete.latest_invoice as string, { payment_method: 'pm_card_visa' })
    expect((await stripe.subscriptions.retrieve(incomplete.id)).status).toBe('active')

    const noCard = await subscribe({ default_payment_method: undefined })
    expect(noCard.status).toBe('incomplete')
    expect(await paymentsOf(noCard.latest_invoice as string)).toEqual([])
    expect(await failure(stripe.invoices.pay(noCard.latest_invoice as string))).toMatchObject({ statusCode: 400, param: 'payment_method' })
    expect(await stripe.invoices.retrieve(noCard.latest_invoice as string)).toMatchObject({ attempt_count: 1, status: 'open' })

    setup.time.advance(23 * 3600)
    expect(await failure(stripe.invoices.pay(noCard.latest_invoice as string, { payment_method: 'pm_card_visa' }))).toMatchObject({ statusCode: 400, message: expect.stringContaining('expired') })
    await tick()
    expect((await stripe.subscriptions.retrieve(noCard.id)).status).toBe('incomplete_expired')
    expect(await failure(stripe.invoices.pay(noCard.latest_invoice as string, { payment_method: 'pm_card_visa' }))).toMatchObject({ statusCode: 400 })
    expect(await paymentsOf(noCard.latest_invoice as string)).toEqual([])
  })

  it('answers a repeated Idempotency-Key with the first answer, and two payments at once charge once', async () => {
    const { invoice } = await pastDue()
    const key = 'pay-again-1'
    const first = await failure(stripe.invoices.pay(invoice.id, {}, { idempotencyKey: key }))
    const again = await failure(stripe.invoices.pay(invoice.id, {}, { idempotencyKey: key }))
    expect([first.statusCode, again.statusCode]).toEqual([402, 402])
    expect(again.headers?.['idempotent-replayed']).toBe('true')
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ attempt_count: 2 })

    const both = await Promise.allSettled([stripe.invoices.pay(invoice.id, { payment_method: 'pm_card_visa' }), stripe.invoices.pay(invoice.id, { payment_method: 'pm_card_visa' })])
    expect(both.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect((both.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ statusCode: 400, message: 'Invoice is already paid' })
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid', attempt_count: 3 })
    expect(await paymentsOf(invoice.id)).toHaveLength(1)
    expect((await events('charge.succeeded')).filter((event) => (event.data.object as Stripe.Charge).amount === 9900)).toHaveLength(1)
  })
})

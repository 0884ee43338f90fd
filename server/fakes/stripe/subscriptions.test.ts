import type Stripe from 'stripe'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withFakeStripe, type FakeStripeServer } from '#server/testing/stripe.ts'
import { periodBoundary } from '#server/fakes/stripe/subscriptions.ts'

const NOW = Date.parse('2026-01-31T12:00:00Z')
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
const eventTypes = async (type: string) => (await stripe.events.list({ type, limit: 100 })).data
const subscribe = (extra: Partial<Stripe.SubscriptionCreateParams> = {}) =>
  stripe.subscriptions.create({ customer: customer.id, items: [{ price: monthly.id }], default_payment_method: 'pm_card_visa', ...extra })

describe('periodBoundary', () => {
  it('keeps the anchor’s day of the month, clamped to the month’s end', () => {
    const anchor = Date.parse('2026-01-31T12:00:00Z') / 1000
    const iso = (value: number) => new Date(value * 1000).toISOString()
    expect([1, 2, 3, 13].map((n) => iso(periodBoundary(anchor, 'month', 1, n)))).toEqual([
      '2026-02-28T12:00:00.000Z',
      '2026-03-31T12:00:00.000Z',
      '2026-04-30T12:00:00.000Z',
      '2027-02-28T12:00:00.000Z',
    ])
    expect(iso(periodBoundary(anchor, 'year', 1, 1))).toBe('2027-01-31T12:00:00.000Z')
    expect(iso(periodBoundary(anchor, 'month', 3, 1))).toBe('2026-04-30T12:00:00.000Z')
    expect(periodBoundary(anchor, 'week', 2, 1) - anchor).toBe(14 * DAY)
  })
})

describe('subscriptions with a trial', () => {
  it('trial, a warning three days ahead, then monthly invoices charged to the card', async () => {
    const subscription = await subscribe({ trial_period_days: 7, metadata: { plan: 'mensal' } })
    expect(subscription).toMatchObject({ object: 'subscription', status: 'trialing', trial_start: seconds(), trial_end: seconds() + 7 * DAY, customer: customer.id, metadata: { plan: 'mensal' } })
    expect(subscription.items.data[0]).toMatchObject({ current_period_start: seconds(), current_period_end: seconds() + 7 * DAY, quantity: 1, price: { id: monthly.id } })
    expect(await stripe.invoices.retrieve(subscription.latest_invoice as string)).toMatchObject({ amount_due: 0, status: 'paid', billing_reason: 'subscription_create' })

    setup.time.advance(3 * DAY)
    await tick()
    expect(await eventTypes('customer.subscription.trial_will_end')).toHaveLength(0)
    setup.time.advance(DAY)
    await tick()
    await tick()
    expect(await eventTypes('customer.subscription.trial_will_end')).toHaveLength(1)

    setup.time.advance(3 * DAY)
    expect(await tick()).toMatchObject({ subscriptions: 1 })
    const active = await stripe.subscriptions.retrieve(subscription.id)
    expect(active.status).toBe('active')
    expect(active.items.data[0]).toMatchObject({ current_period_start: seconds(), current_period_end: periodBoundary(seconds(), 'month', 1, 1) })
    const first = await stripe.invoices.retrieve(active.latest_invoice as string)
    expect(first).toMatchObject({ amount_due: 9900, amount_paid: 9900, status: 'paid', billing_reason: 'subscription_cycle', parent: { subscription_details: { subscription: subscription.id } } })
    const [updated] = await eventTypes('customer.subscription.updated')
    expect(updated!.data.previous_attributes).toEqual({ status: 'trialing' })

    setup.time.set(active.items.data[0]!.current_period_end * 1000)
    await tick()
    const invoices = await stripe.invoices.list({ subscription: subscription.id })
    expect(invoices.data.map((invoice) => [invoice.amount_paid, invoice.status])).toEqual([
      [9900, 'paid'],
      [9900, 'paid'],
      [0, 'paid'],
    ])
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active')
  })

  it('goes past_due when the card is declined at the end of the trial, and pays with a new card next time', async () => {
    const subscription = await subscribe({ trial_period_days: 1, default_payment_method: 'pm_card_chargeDeclinedInsufficientFunds' })
    setup.time.advance(DAY)
    await tick()
    const pastDue = await stripe.subscriptions.retrieve(subscription.id)
    expect(pastDue.status).toBe('past_due')
    expect(await stripe.invoices.retrieve(pastDue.latest_invoice as string)).toMatchObject({ status: 'open', amount_remaining: 9900, attempt_count: 1 })
    expect(await eventTypes('invoice.payment_failed')).toHaveLength(1)

    await stripe.subscriptions.update(subscription.id, { default_payment_method: 'pm_card_visa' })
    setup.time.set(pastDue.items.data[0]!.current_period_end * 1000)
    await tick()
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active')
  })

  it('ends a trial at once with trial_end=now', async () => {
    const subscription = await subscribe({ trial_period_days: 30 })
    const ended = await stripe.subscriptions.update(subscription.id, { trial_end: 'now' })
    expect(ended.status).toBe('active')
    expect(await stripe.invoices.retrieve(ended.latest_invoice as string)).toMatchObject({ amount_paid: 9900 })
  })
})

describe('subscriptions without a trial', () => {
  it('charge the first invoice at once', async () => {
    const subscription = await subscribe({ items: [{ price: monthly.id, quantity: 2 }] })
    expect(subscription.status).toBe('active')
    expect(await stripe.invoices.retrieve(subscription.latest_invoice as string)).toMatchObject({ amount_paid: 19_800, status: 'paid', billing_reason: 'subscription_create' })
  })

  it('are incomplete when declined or without a card, and expire after 23 hours', async () => {
    const declined = await subscribe({ default_payment_method: 'pm_card_chargeDeclined' })
    expect(declined.status).toBe('incomplete')
    const noCard = await subscribe({ default_payment_method: undefined })
    expect(noCard.status).toBe('incomplete')
    setup.time.advance(23 * 3600)
    await tick()
    expect((await stripe.subscriptions.retrieve(declined.id)).status).toBe('incomplete_expired')
    expect((await stripe.subscriptions.retrieve(noCard.id)).status).toBe('incomplete_expired')
  })

  it('refuse with the card error, and keep nothing, with error_if_incomplete', async () => {
    await expect(subscribe({ default_payment_method: 'pm_card_chargeDeclined', payment_behavior: 'error_if_incomplete' })).rejects.toMatchObject({
      type: 'StripeCardError',
      statusCode: 402,
      decline_code: 'generic_decline',
    })
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0)
  })
})

describe('cancelling', () => {
  it('at the period end, or at once', async () => {
    const later = await subscribe()
    const flagged = await stripe.subscriptions.update(later.id, { cancel_at_period_end: true })
    expect(flagged).toMatchObject({ cancel_at_period_end: true, cancel_at: later.items.data[0]!.current_period_end })
    setup.time.set(later.items.data[0]!.current_period_end * 1000)
    await tick()
    expect(await stripe.subscriptions.retrieve(later.id)).toMatchObject({ status: 'canceled', ended_at: seconds() })

    const now = await subscribe()
    expect(await stripe.subscriptions.cancel(now.id)).toMatchObject({ status: 'canceled', canceled_at: seconds(), cancellation_details: { reason: 'cancellation_requested' } })
    expect((await eventTypes('customer.subscription.deleted')).map((event) => (event.data.object as Stripe.Subscription).id).sort()).toEqual([later.id, now.id].sort())
  })
})

describe('a new price', () => {
  it('is charged from the next invoice, without proration, and refused with other proration or another interval', async () => {
    const subscription = await subscribe()
    const item = subscription.items.data[0]!
    const dearer = await stripe.prices.create({ product: monthly.product as string, currency: 'brl', unit_amount: 10_900, recurring: { interval: 'month' } })
    await expect(stripe.subscriptions.update(subscription.id, { items: [{ id: item.id, price: dearer.id }] })).rejects.toMatchObject({ param: 'proration_behavior' })
    const yearly = await stripe.prices.create({ product: monthly.product as string, currency: 'brl', unit_amount: 99_000, recurring: { interval: 'year' } })
    await expect(stripe.subscriptions.update(subscription.id, { items: [{ id: item.id, price: yearly.id }], proration_behavior: 'none' })).rejects.toMatchObject({ param: 'items[0][price]' })
    await expect(stripe.subscriptions.update(subscription.id, { items: [{ id: 'si_unknown', price: dearer.id }], proration_behavior: 'none' })).rejects.toMatchObject({ code: 'resource_missing', param: 'items[0][id]' })

    const changed = await stripe.subscriptions.update(subscription.id, { items: [{ id: item.id, price: dearer.id }], proration_behavior: 'none' })
    expect(changed.items.data[0]).toMatchObject({ id: item.id, price: { id: dearer.id, unit_amount: 10_900 }, current_period_end: item.current_period_end })
    const [updated] = await eventTypes('customer.subscription.updated')
    expect((updated!.data.previous_attributes as { items: Stripe.ApiList<Stripe.SubscriptionItem> }).items.data[0]!.price.id).toBe(monthly.id)
    // Nothing charged now: the first invoice stays the only one until the period ends.
    expect((await stripe.invoices.list({ subscription: subscription.id })).data.map((invoice) => invoice.amount_paid)).toEqual([9900])
    setup.time.set(item.current_period_end * 1000)
    await tick()
    expect((await stripe.invoices.list({ subscription: subscription.id })).data.map((invoice) => invoice.amount_paid)).toEqual([10_900, 9900])
  })
})

describe('refusals', () => {
  it('refuse one-time prices, unknown customers and trials out of range', async () => {
    const once = await stripe.prices.create({ product: monthly.product as string, currency: 'brl', unit_amount: 100 })
    await expect(subscribe({ items: [{ price: once.id }] })).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('type=recurring') })
    await expect(subscribe({ customer: 'cus_missing' })).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' })
    await expect(subscribe({ trial_period_days: 731 })).rejects.toMatchObject({ statusCode: 400, param: 'trial_period_days' })
  })
})

import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { purchases } from '#server/db/schema.ts'
import { subscriptionsTick } from '#server/subscriptions/service.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { subscriptionHelpers } from '#server/testing/subscriptions.ts'

/**
 * A plan's new price (docs/product.md §9, decision 0053): an admin changes it; new subscribers pay
 * it at once; each subscriber is told once, by e-mail and on the subscription, and pays it from the
 * first renewal at least 30 days after being told: PIX at the next code, a card through Stripe's
 * Price set in the period before. Only admins change prices.
 */

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const DAY = 86_400_000
const setup = withFakeStripe(NOW)
const h = subscriptionHelpers(setup)
const { tokens } = h
let monthly = 0

beforeAll(async () => {
  monthly = await h.productId('plano-mensal')
})

const api = () => h.state.api
const tick = () => subscriptionsTick(h.state.app.services)
const setPrice = (cents: unknown, token = tokens.admin, id = monthly) => api().patch(`/products/${id}/`, { price_cents: cents }, { token })
const until = (iso: string) => h.later(Date.parse(iso) - setup.time.clock() + 60_000)

describe('changing a price', () => {
  it('is for admins only, bounded, and new buyers pay it at once', async () => {
    expect((await api().patch(`/products/${monthly}/`, { price_cents: 9990 })).status).toBe(401)
    for (const role of ['patient', 'professional'] as const) expect((await setPrice(9990, tokens[role])).status).toBe(403)
    for (const bad of [0, 49, -100, 12.5, '12,50', 'abc', null, 10_000_001]) expect((await setPrice(bad)).json, String(bad)).toHaveProperty('price_cents')
    expect((await api().patch(`/products/${monthly}/`, {}, { token: tokens.admin })).json).toHaveProperty('price_cents')
    expect((await setPrice(9990, tokens.admin, 999_999)).status).toBe(404)
    expect((await api().get(`/products/${monthly}/`)).json.price_cents).toBe(8990)

    expect((await setPrice(9990)).json).toMatchObject({ id: monthly, price_cents: 9990 })
    expect((await api().get(`/products/${monthly}/`)).json.price_cents).toBe(9990)
    const created = await h.subscribe(monthly, 'pix', { token: tokens.patient2 })
    expect(created.json).toMatchObject({ price_cents: 9990, payments: [{ total_cents: 9990 }] })
    expect((await api().post(`/subscriptions/${created.json.id}/cancel/`, {}, { token: tokens.patient2 })).json.status).toBe('ended')
    expect((await setPrice(8990)).status).toBe(200)
  })
})

describe('a subscriber by PIX', () => {
  it('is told once, pays the old price until the first renewal 30 days on, then the new one; a change undone is told too', async () => {
    const subscription = await h.activeSubscription(monthly)
    await h.later(10 * DAY)
    expect(await tick()).toMatchObject({ priceNotices: 0 })
    await setPrice(9990)
    // Two ticks at once (two provider processes): one notice.
    const reports = await Promise.all([tick(), tick()])
    expect(reports.reduce((sum, report) => sum + report.priceNotices, 0)).toBe(1)
    expect(await tick()).toMatchObject({ priceNotices: 0 })
    // Told on 20 March: the renewal of 10 April is too soon; 10 May is the first 30 days on.
    expect(await h.subscriptionRow(subscription.id)).toMatchObject({ priceCents: 8990, nextPriceCents: 9990, nextPriceFrom: new Date('2026-05-10T15:00:00Z') })
    expect(await h.mailTo('paciente@innera.local')).toContain('O preço do Plano mensal muda em 10 de maio de 2026')
    expect((await api().get(`/subscriptions/${subscription.id}/`, { token: tokens.patient })).json.next_price).toEqual({ price_cents: 9990, from: '2026-05-10T15:00:00.000Z' })

    await until('2026-04-05T15:00:00Z')
    const april = await api().post(`/subscriptions/${subscription.id}/pay-next/`, {}, { token: tokens.patient })
    expect((await h.purchaseRow(april.json.open_payment_id)).totalCents).toBe(8990)
    await h.settlePix(april.json.open_payment_id, 'succeed')
    await until('2026-05-04T15:00:00Z')
    const may = await api().post(`/subscriptions/${subscription.id}/pay-next/`, {}, { token: tokens.patient })
    expect((await h.purchaseRow(may.json.open_payment_id)).totalCents).toBe(9990)
    await h.settlePix(may.json.open_payment_id, 'succeed')
    expect(await h.subscriptionRow(subscription.id)).toMatchObject({ priceCents: 9990, nextPriceCents: null, nextPriceFrom: null, currentPeriodEnd: new Date('2026-06-10T15:00:00Z') })

    // Raised again, then undone before it applies: the subscriber is told both, and pays what they paid.
    await setPrice(10_990)
    expect(await tick()).toMatchObject({ priceNotices: 1 })
    await setPrice(9990)
    expect(await tick()).toMatchObject({ priceNotices: 1 })
    expect(await h.subscriptionRow(subscription.id)).toMatchObject({ priceCents: 9990, nextPriceCents: null, nextPriceFrom: null })
    expect(await h.mailTo('paciente@innera.local')).toContain('O preço do Plano mensal não vai mudar')
    await setPrice(8990)
  })
})

describe('a subscriber by card (Stripe Billing)', () => {
  it('renews at the old price until the new one’s date, with the Price set at Stripe in the period before', async () => {
    const id = await h.subscribeByCard(monthly)
    const stripeId = (await h.subscriptionRow(id)).stripeSubscriptionId!
    await h.later(10 * DAY)
    await setPrice(9990)
    expect(await tick()).toMatchObject({ priceNotices: 1, stripePrices: 0 })
    expect(await h.subscriptionRow(id)).toMatchObject({ nextPriceCents: 9990, nextPriceFrom: new Date('2026-05-10T15:00:00Z') })

    await until('2026-04-10T15:00:00Z')
    await h.state.app.fakes.stripeTick()
    await h.deliverAll()
    // The period ending on 10 May is the one before the new price: Stripe is told now, once.
    expect(await tick()).toMatchObject({ stripePrices: 1 })
    expect(await tick()).toMatchObject({ stripePrices: 0 })
    expect((await h.state.stripe.subscriptions.retrieve(stripeId)).items.data[0]!.price.unit_amount).toBe(9990)

    await until('2026-05-10T15:00:00Z')
    await h.state.app.fakes.stripeTick()
    await h.deliverAll()
    const paid = await h.state.db.select({ cents: purchases.totalCents }).from(purchases).where(eq(purchases.subscriptionId, id)).orderBy(purchases.id)
    expect(paid.map((row) => row.cents)).toEqual([8990, 8990, 9990])
    expect(await h.subscriptionRow(id)).toMatchObject({ status: 'active', priceCents: 9990, nextPriceCents: null, currentPeriodEnd: new Date('2026-06-10T15:00:00Z') })
  })
})

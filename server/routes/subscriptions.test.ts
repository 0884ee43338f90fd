import { eq } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { purchaseRefunds, purchases } from '#server/db/schema.ts'
import { purchasesTick } from '#server/purchases/payments.ts'
import { subscriptionsTick } from '#server/subscriptions/service.ts'
import { RENEWAL_RETRY_MS } from '#server/subscriptions/terms.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import type { client } from '#server/testing/harness.ts'
import { BILLING_EVENTS, subscriptionHelpers, URLS } from '#server/testing/subscriptions.ts'

/**
 * Subscriptions at the provider (issue 24, decision 0052): a plan paid by PIX one period at a
 * time (reminded 7 days before the end, lapsing unpaid), a fixed-term plan, cancelling at the
 * period's end or within the 7 days (the withdrawal), one live subscription per plan, and who may
 * do what.
 */

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const DAY = 86_400_000
const setup = withFakeStripe(NOW)

const h = subscriptionHelpers(setup)
const { tokens, later, subscribe, purchaseRow, subscriptionRow, event, deliver, settlePix, activeSubscription, mailTo, newKey } = h
let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let stripe: Stripe
const plan: Record<'monthly' | 'yearly' | 'trial' | 'course', number> = { monthly: 0, yearly: 0, trial: 0, course: 0 }

beforeAll(async () => {
  ;({ app, db, api, stripe } = h.state)
  plan.monthly = await h.productId('plano-mensal')
  plan.yearly = await h.productId('plano-anual')
  plan.trial = await h.productId('teste-7-dias')
  plan.course = await h.productId('curso-sono-reparador')
})

describe('a renewing plan paid by PIX, one period at a time', () => {
  it('starts when its first code is paid, for a month; the same key is the same subscription; a second one to the plan is refused', async () => {
    const key = newKey()
    const created = await subscribe(plan.monthly, 'pix', { key })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ status: 'incomplete', method: 'pix', price_cents: 8990, has_access: false, plan: { slug: 'plano-mensal', renews: true }, payments: [{ status: 'pending', total_cents: 8990 }] })
    const purchaseId = created.json.open_payment_id
    expect((await api.get(`/purchases/${purchaseId}/`, { token: tokens.patient })).json).toMatchObject({ items: [{ product_type: 'subscription', product_id: plan.monthly }], pix: { data: expect.stringMatching(/^000201/) } })
    expect((await subscribe(plan.monthly, 'pix', { key })).status).toBe(200)
    expect((await subscribe(plan.monthly)).json).toMatchObject({ code: 'already_subscribed' })

    await settlePix(purchaseId, 'succeed')
    const active = await api.get(`/subscriptions/${created.json.id}/`, { token: tokens.patient })
    expect(active.json).toMatchObject({
      status: 'active',
      has_access: true,
      current_period_start: new Date(NOW).toISOString(),
      current_period_end: '2026-04-10T15:00:00.000Z',
      pay_next_from: '2026-04-03T15:00:00.000Z',
      open_payment_id: null,
      // Within the 7 days of subscribing, cancelling is the withdrawal.
      cancellation: { refund_cents: 8990, withdrawal: true },
    })
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'paid', periodStart: new Date(NOW), periodEnd: new Date('2026-04-10T15:00:00Z') })
    // A second delivery of the payment changes nothing.
    expect((await deliver(await event('payment_intent.succeeded', (await purchaseRow(purchaseId)).stripePaymentIntentId!))).json.outcome).toBe('duplicate')
  })

  it('reminds 7 days before the end, once; the next period paid early runs from the end; unpaid, it lapses and the subscriber is told', async () => {
    const subscription = await activeSubscription(plan.monthly)
    await later(23 * DAY)
    expect(await subscriptionsTick(app.services)).toMatchObject({ reminded: 0 })
    await later(DAY + 60_000)
    expect(await subscriptionsTick(app.services)).toMatchObject({ reminded: 1 })
    expect(await subscriptionsTick(app.services)).toMatchObject({ reminded: 0 })
    expect(await mailTo('paciente@innera.local')).toContain('Sua assinatura Plano mensal vence em 10 de abril de 2026')

    const next = await api.post(`/subscriptions/${subscription.id}/pay-next/`, {}, { token: tokens.patient })
    expect(next.json.open_payment_id).toEqual(expect.any(Number))
    // Asked again while its code is open: the same code.
    expect((await api.post(`/subscriptions/${subscription.id}/pay-next/`, {}, { token: tokens.patient })).json.open_payment_id).toBe(next.json.open_payment_id)
    await settlePix(next.json.open_payment_id, 'succeed')
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'active', currentPeriodStart: new Date(NOW), currentPeriodEnd: new Date('2026-05-10T15:00:00Z') })
    expect(await purchaseRow(next.json.open_payment_id)).toMatchObject({ periodStart: new Date('2026-04-10T15:00:00Z'), periodEnd: new Date('2026-05-10T15:00:00Z') })
    // Past its 7 days, cancelling ends it with the period, nothing refunded.
    expect((await api.get(`/subscriptions/${subscription.id}/`, { token: tokens.patient })).json.cancellation).toMatchObject({ refund_cents: 0, withdrawal: false })

    // The next reminder comes for the next period; nobody pays; it lapses at its end.
    await later(Date.parse('2026-05-10T15:00:00Z') - setup.time.clock() + 60_000)
    expect(await subscriptionsTick(app.services)).toMatchObject({ ended: 1 })
    expect(await subscriptionRow(subscription.id)).toMatchObject({ status: 'ended', endedReason: 'lapsed' })
    expect(await mailTo('paciente@innera.local')).toContain('Sua assinatura Plano mensal terminou')
    expect((await api.get(`/subscriptions/${subscription.id}/`, { token: tokens.patient })).json).toMatchObject({ status: 'ended', has_access: false, cancellation: null })
  })
})

describe('cancelling', () => {
  it('within the 7 days: the withdrawal, the payment refunded in full and the end at once; after them: at the period’s end, undone by resume', async () => {
    const created = await subscribe(plan.monthly, 'pix', { token: tokens.patient2 })
    await settlePix(created.json.open_payment_id, 'succeed')
    const withdrawn = await api.post(`/subscriptions/${created.json.id}/cancel/`, {}, { token: tokens.patient2 })
    expect(withdrawn.json).toMatchObject({ status: 'ended', ended_reason: 'withdrawn', has_access: false, payments: [{ status: 'refunded' }] })
    expect(await db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, created.json.open_payment_id))).toMatchObject([{ amountCents: 8990, reason: 'cancel' }])

    const again = await subscribe(plan.monthly, 'pix', { token: tokens.patient2 })
    await settlePix(again.json.open_payment_id, 'succeed')
    await later(8 * DAY)
    const atEnd = await api.post(`/subscriptions/${again.json.id}/cancel/`, {}, { token: tokens.patient2 })
    expect(atEnd.json).toMatchObject({ status: 'active', cancel_at_period_end: true, has_access: true, pay_next_from: null })
    expect((await api.post(`/subscriptions/${again.json.id}/pay-next/`, {}, { token: tokens.patient2 })).json).toMatchObject({ code: 'cancelled_at_period_end' })
    expect((await api.post(`/subscriptions/${again.json.id}/resume/`, {}, { token: tokens.patient2 })).json).toMatchObject({ cancel_at_period_end: false })
    await api.post(`/subscriptions/${again.json.id}/cancel/`, {}, { token: tokens.patient2 })
    await later(30 * DAY)
    await subscriptionsTick(app.services)
    expect(await subscriptionRow(again.json.id)).toMatchObject({ status: 'ended', endedReason: 'cancelled' })
  })

  it('within the 7 days the subscriber may keep the period instead (decision 0081): nothing refunded, access until its end; after them `now` is refused', async () => {
    const created = await subscribe(plan.monthly, 'pix', { token: tokens.patient2 })
    await settlePix(created.json.open_payment_id, 'succeed')
    expect((await api.post(`/subscriptions/${created.json.id}/cancel/`, { at: 'later' }, { token: tokens.patient2 })).json).toEqual({ at: ['"later" is not a valid choice.'] })
    const kept = await api.post(`/subscriptions/${created.json.id}/cancel/`, { at: 'period_end' }, { token: tokens.patient2 })
    expect(kept.json).toMatchObject({ status: 'active', cancel_at_period_end: true, has_access: true, payments: [{ status: 'paid' }] })
    expect(await db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, created.json.open_payment_id))).toEqual([])
    // Still within the 7 days, the withdrawal stays possible.
    expect((await api.get(`/subscriptions/${created.json.id}/`, { token: tokens.patient2 })).json.cancellation).toMatchObject({ withdrawal: true, refund_cents: 8990 })
    expect((await api.post(`/subscriptions/${created.json.id}/resume/`, {}, { token: tokens.patient2 })).json).toMatchObject({ cancel_at_period_end: false })
    await later(8 * DAY)
    const late = await api.post(`/subscriptions/${created.json.id}/cancel/`, { at: 'now' }, { token: tokens.patient2 })
    expect([late.status, late.json.code]).toEqual([409, 'withdrawal_over'])
    expect(await subscriptionRow(created.json.id)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false })
    await api.post(`/subscriptions/${created.json.id}/cancel/`, { at: 'period_end' }, { token: tokens.patient2 })
    await later(30 * DAY)
    await subscriptionsTick(app.services)
    expect(await subscriptionRow(created.json.id)).toMatchObject({ status: 'ended', endedReason: 'cancelled' })
  })

  it('a subscription never paid ends with its code (refused, expired or cancelled), and the plan may be taken again', async () => {
    const refused = await subscribe(plan.trial, 'pix', { token: tokens.patient2 })
    await settlePix(refused.json.open_payment_id, 'fail')
    expect(await subscriptionRow(refused.json.id)).toMatchObject({ status: 'ended', endedReason: 'not_paid' })

    const expiring = await subscribe(plan.trial, 'pix', { token: tokens.patient2 })
    await later(32 * 60_000)
    await purchasesTick(app.services)
    expect(await subscriptionRow(expiring.json.id)).toMatchObject({ status: 'ended', endedReason: 'not_paid' })

    const cancelled = await subscribe(plan.trial, 'pix', { token: tokens.patient2 })
    expect((await api.post(`/subscriptions/${cancelled.json.id}/cancel/`, {}, { token: tokens.patient2 })).json).toMatchObject({ status: 'ended', ended_reason: 'cancelled' })
    expect(await purchaseRow(cancelled.json.open_payment_id)).toMatchObject({ status: 'cancelled' })
  })
})

describe('a fixed-term plan', () => {
  it('the 7-day trial: paid once, 7 days of access, no reminder, over at its end', async () => {
    const created = await subscribe(plan.trial, 'pix')
    expect(created.json).toMatchObject({ plan: { renews: false }, price_cents: 990 })
    await settlePix(created.json.open_payment_id, 'succeed')
    const running = (await api.get(`/subscriptions/${created.json.id}/`, { token: tokens.patient })).json
    expect(running).toMatchObject({ status: 'active', pay_next_from: null })
    expect(Date.parse(running.current_period_end) - Date.parse(running.current_period_start)).toBe(7 * DAY)
    expect((await api.post(`/subscriptions/${created.json.id}/pay-next/`, {}, { token: tokens.patient })).json).toMatchObject({ code: 'not_renewable' })
    await later(7 * DAY + 60_000)
    expect(await subscriptionsTick(app.services)).toMatchObject({ reminded: 0 })
    expect(await subscriptionRow(created.json.id)).toMatchObject({ status: 'ended', endedReason: 'term_over' })
  })

  it('by card: Stripe’s Checkout page for the one payment', async () => {
    const created = await subscribe(plan.trial, 'card', { token: tokens.patient2 })
    expect(created.status).toBe(201)
    const purchase = await purchaseRow(created.json.open_payment_id)
    expect(purchase).toMatchObject({ method: 'card', status: 'pending', subscriptionId: created.json.id })
    expect(purchase.checkoutUrl).toMatch(/\/fake-stripe\/checkout\//)
  })
})

describe('a renewing plan by card (Stripe Billing)', () => {
  const deliverAll = h.deliverAll
  const BILLING = BILLING_EVENTS
  const subscribeByCard = (card?: string) => h.subscribeByCard(plan.monthly, card)

  /** A card subscription whose card then refuses: a month on, its renewal fails. */
  async function refusedRenewal() {
    const id = await subscribeByCard()
    const stripeId = (await subscriptionRow(id)).stripeSubscriptionId!
    await stripe.subscriptions.update(stripeId, { default_payment_method: 'pm_card_chargeCustomerFail' })
    await later(31 * DAY)
    await app.fakes.stripeTick()
    await deliverAll(BILLING)
    return { id, stripeId }
  }

  it('Checkout takes the card; the paid invoice starts the month as a purchase with its PaymentIntent; the withdrawal cancels at Stripe and refunds', async () => {
    const id = await subscribeByCard()
    const row = await subscriptionRow(id)
    expect(row).toMatchObject({ status: 'active', stripeSubscriptionId: expect.stringMatching(/^sub_/), checkoutUrl: null, currentPeriodStart: new Date(NOW), currentPeriodEnd: new Date('2026-04-10T15:00:00Z') })
    const [payment] = await db.select().from(purchases).where(eq(purchases.subscriptionId, id))
    expect(payment).toMatchObject({ status: 'paid', method: 'card', totalCents: 8990, stripeInvoiceId: expect.stringMatching(/^in_/), stripePaymentIntentId: expect.stringMatching(/^pi_/), periodEnd: new Date('2026-04-10T15:00:00Z') })
    // Every event again (Stripe's redelivery): nothing twice.
    expect(new Set(await deliverAll(BILLING))).toEqual(new Set(['duplicate']))
    expect(await db.select().from(purchases).where(eq(purchases.subscriptionId, id))).toHaveLength(1)

    const withdrawn = await api.post(`/subscriptions/${id}/cancel/`, {}, { token: tokens.patient })
    expect(withdrawn.json).toMatchObject({ status: 'ended', ended_reason: 'withdrawn', payments: [{ status: 'refunded' }] })
    expect((await stripe.subscriptions.retrieve(row.stripeSubscriptionId!)).status).toBe('canceled')
    expect(await db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, payment!.id))).toMatchObject([{ amountCents: 8990, status: 'succeeded' }])
  })

  it('renews at the period’s end; cancelled after the 7 days it ends with its period at Stripe', async () => {
    const id = await subscribeByCard()
    await later(31 * DAY)
    await app.fakes.stripeTick()
    await deliverAll(BILLING)
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', currentPeriodEnd: new Date('2026-05-10T15:00:00Z') })
    expect(await db.select().from(purchases).where(eq(purchases.subscriptionId, id))).toHaveLength(2)
    const atEnd = await api.post(`/subscriptions/${id}/cancel/`, {}, { token: tokens.patient })
    expect(atEnd.json).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect((await stripe.subscriptions.retrieve((await subscriptionRow(id)).stripeSubscriptionId!)).cancel_at_period_end).toBe(true)
    await later(30 * DAY)
    await app.fakes.stripeTick()
    await deliverAll(BILLING)
    expect(await subscriptionRow(id)).toMatchObject({ status: 'ended', endedReason: 'cancelled' })
  })

  it('a refused renewal: past due and told, tried again 3 and 6 days later, and after 7 days ended at Stripe and told', async () => {
    const { id, stripeId } = await refusedRenewal()
    expect(await subscriptionRow(id)).toMatchObject({ status: 'past_due', renewalRetries: 0 })
    expect(await mailTo('paciente@innera.local')).toContain('Não conseguimos renovar sua assinatura Plano mensal')
    expect((await api.get(`/subscriptions/${id}/`, { token: tokens.patient })).json).toMatchObject({ status: 'past_due', has_access: true })
    await later(RENEWAL_RETRY_MS)
    expect(await subscriptionsTick(app.services)).toMatchObject({ retried: 1 })
    await later(RENEWAL_RETRY_MS)
    expect(await subscriptionsTick(app.services)).toMatchObject({ retried: 1 })
    expect(await subscriptionRow(id)).toMatchObject({ status: 'past_due', renewalRetries: 2 })
    await later(DAY + 60_000)
    expect(await subscriptionsTick(app.services)).toMatchObject({ ended: 1 })
    expect(await subscriptionRow(id)).toMatchObject({ status: 'ended', endedReason: 'renewal_failed' })
    expect((await stripe.subscriptions.retrieve(stripeId)).status).toBe('canceled')
    expect(await mailTo('paciente@innera.local')).toContain('Sua assinatura Plano mensal foi encerrada')
    await deliverAll(BILLING)
    expect(await subscriptionRow(id)).toMatchObject({ status: 'ended', endedReason: 'renewal_failed' })
  })

  /** The subscriber saves a card on Stripe's page (Checkout in setup mode), and Stripe's events arrive. */
  async function saveCard(id: number, card: string) {
    const started = await api.post(`/subscriptions/${id}/card/`, URLS, { token: tokens.patient })
    expect(started.status).toBe(201)
    expect(started.headers.get('cache-control')).toBe('private, no-store')
    const saved = await app.request(started.json.url, {
      method: 'POST',
      body: new URLSearchParams({ card_number: card, expiry: '12/30', cvc: '123', name: 'Pedro Santos', email: 'paciente@innera.local' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await app.services.background.idle()
    await deliverAll(BILLING)
    // What saving the card caused at Stripe (the invoice charged) is told by the next events.
    await deliverAll(BILLING)
    return saved.status
  }

  it('a refused renewal paid with a card saved on Stripe’s page: the card made the default, the open invoice charged at once, active again', async () => {
    const { id, stripeId } = await refusedRenewal()
    expect((await api.get(`/subscriptions/${id}/`, { token: tokens.patient })).json).toMatchObject({ card_updatable: true, card_updated_at: null, renewal_deadline: '2026-04-17T15:00:00.000Z' })
    // A card that declines is refused on the page: nothing changes.
    expect(await saveCard(id, '4000000000000002')).toBe(402)
    expect(await subscriptionRow(id)).toMatchObject({ status: 'past_due', cardUpdatedAt: null })
    // A card that attaches but is refused at the charge: saved, the invoice still unpaid, still past due, told once.
    expect(await saveCard(id, '4000000000000341')).toBe(303)
    expect(await subscriptionRow(id)).toMatchObject({ status: 'past_due', cardUpdatedAt: expect.any(Date) })
    expect((await mailTo('paciente@innera.local')).filter((subject) => subject.includes('Não conseguimos renovar'))).toHaveLength(1)
    // A good card: paid now, not at the next retry.
    expect(await saveCard(id, '4242424242424242')).toBe(303)
    const remote = await stripe.subscriptions.retrieve(stripeId)
    expect(remote.status).toBe('active')
    expect((await stripe.paymentMethods.retrieve(remote.default_payment_method as string)).card?.last4).toBe('4242')
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', pastDueSince: null, renewalRetries: 0 })
    expect(await db.select().from(purchases).where(eq(purchases.subscriptionId, id))).toHaveLength(2)
    // Every event again: nothing charged or recorded twice.
    await deliverAll(BILLING)
    expect(await db.select().from(purchases).where(eq(purchases.subscriptionId, id))).toHaveLength(2)
  })

  it('a card changed while the subscription is in good standing is used from the next renewal; no card to change on a PIX or ended subscription', async () => {
    const id = await subscribeByCard()
    expect(await saveCard(id, '5555555555554444')).toBe(303)
    const stripeId = (await subscriptionRow(id)).stripeSubscriptionId!
    const remote = await stripe.subscriptions.retrieve(stripeId)
    expect((await stripe.paymentMethods.retrieve(remote.default_payment_method as string)).card?.last4).toBe('4444')
    expect(await db.select().from(purchases).where(eq(purchases.subscriptionId, id))).toHaveLength(1)
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', cardUpdatedAt: expect.any(Date) })

    const pix = await activeSubscription(plan.monthly, tokens.patient2)
    expect((await api.post(`/subscriptions/${pix.id}/card/`, URLS, { token: tokens.patient2 })).json).toMatchObject({ code: 'no_card_to_update' })
    expect((await api.post(`/subscriptions/${id}/card/`, URLS, { token: tokens.patient2 })).status).toBe(404)
    expect((await api.post(`/subscriptions/${id}/card/`, URLS, { token: tokens.professional })).status).toBe(403)
    expect((await api.post(`/subscriptions/${id}/card/`, URLS, { token: tokens.admin })).status).toBe(403)
    expect((await api.post(`/subscriptions/${id}/card/`, URLS)).status).toBe(401)
    expect((await api.post(`/subscriptions/${id}/card/`, { success_url: 'javascript:alert(1)', cancel_url: 'x' }, { token: tokens.patient })).status).toBe(400)
    await api.post(`/subscriptions/${id}/cancel/`, {}, { token: tokens.patient })
    expect(await subscriptionRow(id)).toMatchObject({ status: 'ended' })
    expect((await api.post(`/subscriptions/${id}/card/`, URLS, { token: tokens.patient })).status).toBe(409)
  })

  it('a retried renewal paid with a new card: active again', async () => {
    const { id, stripeId } = await refusedRenewal()
    await stripe.subscriptions.update(stripeId, { default_payment_method: 'pm_card_visa' })
    await later(RENEWAL_RETRY_MS)
    expect(await subscriptionsTick(app.services)).toMatchObject({ retried: 1 })
    await deliverAll(BILLING)
    expect(await subscriptionRow(id)).toMatchObject({ status: 'active', pastDueSince: null, renewalRetries: 0 })
    expect(await db.select().from(purchases).where(eq(purchases.subscriptionId, id))).toHaveLength(2)
  })
})

describe('one plan at a time (decision 0072)', () => {
  it('another plan beside a live one, open or paid, is refused naming it (the database decides); once it has ended another may be taken', async () => {
    const monthly = await subscribe(plan.monthly, 'pix')
    expect(monthly.status).toBe(201)
    const yearly = await subscribe(plan.yearly, 'pix')
    expect(yearly.status).toBe(409)
    expect(yearly.json).toEqual({
      detail: 'You already have a plan, and every plan gives the same access: one at a time. Another may be taken once it has ended (cancel it on its page).',
      code: 'another_plan_live',
      subscription_id: monthly.json.id,
    })
    await settlePix(monthly.json.open_payment_id, 'succeed')
    expect((await subscribe(plan.trial, 'card')).json).toMatchObject({ code: 'another_plan_live', subscription_id: monthly.json.id })
    expect((await subscribe(plan.monthly)).json).toMatchObject({ code: 'already_subscribed', subscription_id: monthly.json.id })
    // Within the 7 days, cancelling is the withdrawal: it ends now, and the yearly plan may be taken.
    expect((await api.post(`/subscriptions/${monthly.json.id}/cancel/`, {}, { token: tokens.patient })).json).toMatchObject({ status: 'ended' })
    expect((await subscribe(plan.yearly, 'pix')).status).toBe(201)
    // Another patient's plan is theirs.
    expect((await subscribe(plan.monthly, 'pix', { token: tokens.patient2 })).status).toBe(201)
  })
})

describe('input and permissions', () => {
  it('refuses what is no plan, a card without its return addresses, bad fields; only patients subscribe; another’s subscription is a 404', async () => {
    expect((await subscribe(plan.course)).json).toMatchObject({ product_id: ['This product is not a subscription plan; buy it through a purchase.'] })
    expect((await api.post('/subscriptions/create/', { product_id: plan.monthly, method: 'card', idempotency_key: newKey() }, { token: tokens.patient })).json).toMatchObject({
      success_url: ['This field is required for a card payment.'],
    })
    expect((await api.post('/subscriptions/create/', { product_id: 'x', method: 'boleto', idempotency_key: 'short' }, { token: tokens.patient })).status).toBe(400)
    expect((await subscribe(plan.monthly, 'pix', { token: tokens.professional })).status).toBe(403)
    expect((await subscribe(plan.monthly, 'pix', { token: tokens.admin })).status).toBe(403)
    expect((await api.post('/subscriptions/create/', { product_id: plan.monthly, method: 'pix', idempotency_key: newKey() })).status).toBe(401)

    const mine = await activeSubscription(plan.monthly)
    for (const path of ['', 'cancel/', 'resume/', 'pay-next/']) {
      const call = path === '' ? api.get(`/subscriptions/${mine.id}/`, { token: tokens.patient2 }) : api.post(`/subscriptions/${mine.id}/${path}`, {}, { token: tokens.patient2 })
      expect((await call).status, path).toBe(404)
    }
    // An admin reads anyone's; lists are one's own, private.
    expect((await api.get(`/subscriptions/${mine.id}/`, { token: tokens.admin })).status).toBe(200)
    const list = await api.get('/subscriptions/', { token: tokens.patient })
    expect(list.headers.get('cache-control')).toBe('private, no-store')
    expect(list.json.results.every((item: { id: number }) => typeof item.id === 'number')).toBe(true)
    expect((await api.get('/subscriptions/', { token: tokens.professional })).json.count).toBe(0)
  })
})

import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { auditLog, fakeStripeObjects, products, purchaseGrants, purchaseRefunds, purchases, purchaseTransitions, stripeWebhookEvents } from '#server/db/schema.ts'
import type { LogEntry } from '#server/log.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { purchasesTick } from '#server/purchases/payments.ts'
import { startFakeStripe, type FakeStripeServer } from '#server/testing/stripe.ts'
import { client, createMemoryDatabase, createPostgresDatabase, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

/**
 * Stripe's events checked against the purchase they name (issue 41, decision 0074): in whatever
 * order they arrive the purchase ends as Stripe's objects say, and a payment counts only as the
 * purchase's own PaymentIntent, for its total, in BRL. Posted signed to the webhook route, with
 * the fake Stripe behind the SDK.
 */

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const time = fakeClock(NOW)
const logged: LogEntry[] = []

let database: DatabaseHandle
let fake: FakeStripeServer
let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let stripe: Stripe
let secret: string
const tokens = { patient: '', admin: '' }

beforeAll(async () => {
  database = await createMemoryDatabase()
  fake = await startFakeStripe(database.db, { clock: time.clock, log: (entry) => logged.push(entry), env: { FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/' } })
  app = fake.app
  db = database.db
  stripe = fake.stripe
  api = client(app)
  secret = app.services.config.stripe.webhookSecret!
})

afterAll(async () => {
  await fake.close()
  await database.close()
})

beforeEach(async () => {
  time.set(NOW)
  await app.services.background.idle()
  await resetDatabase(db)
  logged.length = 0
  tokens.patient = (await api.login('paciente@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
})

let keys = 0
const newKey = () => `checks-key-${String(++keys).padStart(8, '0')}`

async function buy(slug: string, method: 'pix' | 'card') {
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.slug, slug))
  const created = await api.post(
    '/purchases/create/',
    { items: [{ product_id: product!.id, quantity: 1 }], method, idempotency_key: newKey(), ...(method === 'card' && { success_url: 'http://app.test/compras/{PURCHASE_ID}', cancel_url: 'http://app.test/carrinho' }) },
    { token: tokens.patient },
  )
  expect(created.status).toBe(201)
  return { ...(await stored(created.json.id)), checkoutUrl: created.json.checkout_url as string | null }
}

const stored = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!

/** The fake Stripe's events of a type about one object (or naming it), oldest first. */
async function events(type: string, about?: string): Promise<Stripe.Event[]> {
  const object = sql`${fakeStripeObjects.data}->'data'->'object'`
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = ${type}`, about ? sql`(${object}->>'id' = ${about} or ${object}->>'payment_intent' = ${about})` : undefined))
    .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
  return rows.map((row) => row.data as unknown as Stripe.Event)
}

async function event(type: string, about: string): Promise<Stripe.Event> {
  const found = await events(type, about)
  if (found.length !== 1) throw new Error(`${found.length} events ${type} about ${about}`)
  return found[0]!
}

/** Posts an event to the webhook as Stripe would: its JSON signed at `at` (our clock by default). */
function deliver(stripeEvent: Stripe.Event, { at = time.clock() } = {}) {
  const payload = JSON.stringify(stripeEvent, null, 2)
  return api.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader(payload, secret, Math.floor(at / 1000)) } })
}

/** An event nobody at Stripe made, signed with the webhook's secret (a leaked secret, a forged test). */
const forged = (id: string, type: string, object: Record<string, unknown>) => ({ id, object: 'event', type, created: Math.floor(time.clock() / 1000), livemode: false, data: { object } }) as unknown as Stripe.Event

async function settlePix(paymentIntentId: string) {
  const response = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await app.services.background.idle()
  expect(response.status).toBe(303)
}

async function payCheckout(url: string) {
  const response = await app.request(url, { method: 'POST', body: new URLSearchParams({ card_number: '4242424242424242', expiry: '12/30', cvc: '123', name: 'Pedro Santos' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await app.services.background.idle()
  expect(response.status).toBe(303)
}

const transitionsOf = async (id: number) =>
  (await db.select().from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, id)).orderBy(asc(purchaseTransitions.id))).map((row) => [row.fromStatus, row.toStatus, row.source])
/** Grants still in force. */
const liveGrantsOf = (id: number) => db.select().from(purchaseGrants).where(and(eq(purchaseGrants.purchaseId, id), isNull(purchaseGrants.revokedAt)))
const refundRowsOf = (id: number) => db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, id)).orderBy(asc(purchaseRefunds.id))
const ownedCount = async () => (await api.get('/products/my-products/', { token: tokens.patient })).json.count as number

describe('events in any order: the purchase ends as Stripe’s objects say', () => {
  it('PIX: a refund that arrives before its payment ends the purchase refunded, and the late payment event grants nothing', async () => {
    const purchase = await buy('curso-sono-reparador', 'pix')
    const paymentIntentId = purchase.stripePaymentIntentId!
    await settlePix(paymentIntentId)
    // Refunded at Stripe (its dashboard) at once; Stripe sends charge.refunded before payment_intent.succeeded.
    await stripe.refunds.create({ payment_intent: paymentIntentId })
    const refunded = await deliver(await event('charge.refunded', paymentIntentId))
    expect(refunded.status).toBe(200)
    expect(await stored(purchase.id)).toMatchObject({ status: 'refunded', refundedCents: purchase.totalCents })
    expect(await liveGrantsOf(purchase.id)).toEqual([])

    expect((await deliver(await event('payment_intent.succeeded', paymentIntentId))).status).toBe(200)
    expect(await stored(purchase.id)).toMatchObject({ status: 'refunded', refundedCents: purchase.totalCents })
    expect(await liveGrantsOf(purchase.id)).toEqual([])
    expect(await ownedCount()).toBe(0)
    expect(await transitionsOf(purchase.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'paid', 'webhook'],
      ['paid', 'refunded', 'webhook'],
    ])
    // Stripe made the refund; nothing more is asked of it.
    expect(await refundRowsOf(purchase.id)).toEqual([])
    expect((await stripe.refunds.list({ payment_intent: paymentIntentId })).data).toHaveLength(1)
  })

  it('card: the refund first, then the completed session and the payment: refunded, nothing granted in force', async () => {
    const purchase = await buy('curso-sono-reparador', 'card')
    await payCheckout(purchase.checkoutUrl!)
    const paymentIntentId = ((await events('payment_intent.succeeded'))[0]!.data.object as Stripe.PaymentIntent).id
    await stripe.refunds.create({ payment_intent: paymentIntentId })
    // The purchase does not know its PaymentIntent yet: the charge names it in its metadata.
    expect((await deliver(await event('charge.refunded', paymentIntentId))).status).toBe(200)
    expect(await stored(purchase.id)).toMatchObject({ status: 'refunded', stripePaymentIntentId: paymentIntentId })
    for (const late of [await event('checkout.session.completed', purchase.stripeCheckoutSessionId!), await event('payment_intent.succeeded', paymentIntentId)]) {
      expect((await deliver(late)).status).toBe(200)
    }
    expect((await stored(purchase.id)).status).toBe('refunded')
    expect(await liveGrantsOf(purchase.id)).toEqual([])
    expect(await ownedCount()).toBe(0)
  })

  it('Stripe away when an event must be checked: 503 and nothing recorded, so Stripe’s redelivery applies it', async () => {
    const purchase = await buy('curso-sono-reparador', 'pix')
    await settlePix(purchase.stripePaymentIntentId!)
    await stripe.refunds.create({ payment_intent: purchase.stripePaymentIntentId! })
    const refunded = await event('charge.refunded', purchase.stripePaymentIntentId!)
    const away = testApp(db, { clock: time.clock, env: { STRIPE_API_URL: 'http://127.0.0.1:9', FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/' } })
    const payload = JSON.stringify(refunded)
    const header = signatureHeader(payload, away.services.config.stripe.webhookSecret!, Math.floor(time.clock() / 1000))
    const answer = await client(away).call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } })
    expect(answer.status).toBe(503)
    expect(await db.select().from(stripeWebhookEvents)).toEqual([])
    expect((await stored(purchase.id)).status).toBe('pending')
    expect((await deliver(refunded)).json.outcome).toBe('applied')
    expect((await stored(purchase.id)).status).toBe('refunded')
  })

  it('the reconciliation of a purchase whose events never came reads the refund too', async () => {
    const purchase = await buy('curso-sono-reparador', 'pix')
    await settlePix(purchase.stripePaymentIntentId!)
    await stripe.refunds.create({ payment_intent: purchase.stripePaymentIntentId! })
    time.advance(6 * 60)
    expect(await purchasesTick(app.services)).toMatchObject({ checked: 1 })
    expect(await stored(purchase.id)).toMatchObject({ status: 'refunded', refundedCents: purchase.totalCents })
    expect(await liveGrantsOf(purchase.id)).toEqual([])
  })
})

describe('a payment counts only as the purchase’s own PaymentIntent, for its total, in BRL', () => {
  it('a signed payment_intent.succeeded for a made-up PaymentIntent, R$ 0,01 in dollars, pays nothing; the admins see it', async () => {
    const purchase = await buy('curso-sono-reparador', 'pix')
    const real = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId!)
    const madeUp = forged('evt_forged_1', 'payment_intent.succeeded', { ...real, id: 'pi_made_up_0001', status: 'succeeded', amount: 1, amount_received: 1, currency: 'usd', next_action: null })
    const answer = await deliver(madeUp)
    expect(answer.status).toBe(200)
    expect(answer.json.outcome).toBe('mismatch')
    expect(await stored(purchase.id)).toMatchObject({ status: 'pending', paidAt: null, stripePaymentIntentId: real.id })
    expect(await liveGrantsOf(purchase.id)).toEqual([])
    expect(await refundRowsOf(purchase.id)).toEqual([])
    // Logged as a structured line, without the signature or any secret.
    const line = logged.find((entry) => entry.msg === 'stripe payment does not match its purchase')
    expect(line).toMatchObject({ level: 'warn', purchase_id: purchase.id, payment_intent_id: 'pi_made_up_0001', amount_cents: 1, currency: 'usd', expected_cents: purchase.totalCents, reason: 'unknown_payment_intent', event_id: 'evt_forged_1' })
    expect(JSON.stringify(logged)).not.toContain(secret)

    // On the admin's page of the purchase, and in the audit log as the provider's own entry.
    const detail = await api.get(`/admin/purchases/${purchase.id}/`, { token: tokens.admin })
    expect(detail.json.payment_mismatches).toEqual([
      { at: new Date(NOW).toISOString(), reason: 'unknown_payment_intent', payment_intent_id: 'pi_made_up_0001', amount_cents: 1, currency: 'usd', expected_cents: purchase.totalCents, stripe_event_id: 'evt_forged_1' },
    ])
    const audit = await api.get('/admin/audit/?action=purchase.payment_mismatch', { token: tokens.admin })
    expect(audit.json.results).toMatchObject([{ action: 'purchase.payment_mismatch', actor: null, target_type: 'purchase', target_id: String(purchase.id) }])

    // Again: a duplicate, recorded once. The buyer's real payment still pays.
    expect((await deliver(madeUp)).json.outcome).toBe('duplicate')
    await settlePix(real.id)
    expect((await deliver(await event('payment_intent.succeeded', real.id))).json.outcome).toBe('applied')
    expect((await stored(purchase.id)).status).toBe('paid')
    expect(await db.select().from(auditLog).where(eq(auditLog.action, 'purchase.payment_mismatch'))).toHaveLength(1)
  })

  it("the purchase's own PaymentIntent in an event that says 1 cent in dollars, before the buyer paid: Stripe is asked, and nothing is paid", async () => {
    const purchase = await buy('curso-sono-reparador', 'pix')
    const real = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId!)
    const answer = await deliver(forged('evt_forged_2', 'payment_intent.succeeded', { ...real, status: 'succeeded', amount_received: 1, currency: 'usd', next_action: null }))
    expect(answer.json.outcome).toBe('mismatch')
    expect((await stored(purchase.id)).status).toBe('pending')
    expect((await api.get(`/admin/purchases/${purchase.id}/`, { token: tokens.admin })).json.payment_mismatches).toMatchObject([{ reason: 'not_succeeded', payment_intent_id: real.id }])
  })

  it('a card purchase: a made-up PaymentIntent naming it pays nothing, its own Checkout payment does', async () => {
    const purchase = await buy('curso-sono-reparador', 'card')
    const answer = await deliver(
      forged('evt_forged_3', 'payment_intent.succeeded', { id: 'pi_made_up_0002', object: 'payment_intent', status: 'succeeded', amount: purchase.totalCents, amount_received: purchase.totalCents, currency: 'brl', metadata: { purchase_id: String(purchase.id) }, latest_charge: null }),
    )
    expect(answer.json.outcome).toBe('mismatch')
    expect(await stored(purchase.id)).toMatchObject({ status: 'pending', stripePaymentIntentId: null })
    await payCheckout(purchase.checkoutUrl!)
    expect((await deliver(await event('checkout.session.completed', purchase.stripeCheckoutSessionId!))).json.outcome).toBe('applied')
    expect((await stored(purchase.id)).status).toBe('paid')
    expect(await liveGrantsOf(purchase.id)).toHaveLength(1)
  })

  it("the purchase's money in another amount, paid at Stripe: nothing granted, given back, shown to the admins", async () => {
    const purchase = await buy('curso-sono-reparador', 'pix')
    // A PaymentIntent naming the purchase for R$ 1,00 (made at Stripe by hand, or by a bug): really paid.
    const other = await stripe.paymentIntents.create({
      amount: 100,
      currency: 'brl',
      allowed_payment_method_types: ['pix'],
      payment_method_data: { type: 'pix' },
      confirm: true,
      metadata: { purchase_id: String(purchase.id) },
    })
    await settlePix(other.id)
    const answer = await deliver(await event('payment_intent.succeeded', other.id))
    expect(answer.json.outcome).toBe('mismatch')
    expect(await stored(purchase.id)).toMatchObject({ status: 'pending', stripePaymentIntentId: purchase.stripePaymentIntentId })
    expect(await liveGrantsOf(purchase.id)).toEqual([])
    expect(await refundRowsOf(purchase.id)).toMatchObject([{ paymentIntentId: other.id, amountCents: 100, reason: 'wrong_amount', status: 'succeeded' }])
    expect((await stripe.refunds.list({ payment_intent: other.id })).data.map((refund) => refund.amount)).toEqual([100])
    const detail = await api.get(`/admin/purchases/${purchase.id}/`, { token: tokens.admin })
    expect(detail.json.payment_mismatches).toMatchObject([{ reason: 'amount', payment_intent_id: other.id, amount_cents: 100, currency: 'brl', expected_cents: purchase.totalCents }])
    expect(detail.json.refunds).toMatchObject([{ amount_cents: 100, reason: 'wrong_amount', by: { role: 'system' } }])
    // Its refund's charge.refunded changes nothing more; the purchase's own code still pays it.
    await deliver(await event('charge.refunded', other.id))
    expect(await refundRowsOf(purchase.id)).toHaveLength(1)
    expect(await db.select().from(auditLog).where(eq(auditLog.action, 'purchase.payment_mismatch'))).toHaveLength(1)
    await settlePix(purchase.stripePaymentIntentId!)
    await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))
    expect((await stored(purchase.id)).status).toBe('paid')
  })
})

describe('the signature’s timestamp', () => {
  it('more than 5 minutes ahead of the provider’s clock is refused like one 5 minutes old; a little ahead is taken', async () => {
    const purchase = await buy('curso-sono-reparador', 'pix')
    await settlePix(purchase.stripePaymentIntentId!)
    const succeeded = await event('payment_intent.succeeded', purchase.stripePaymentIntentId!)
    const ahead = await deliver(succeeded, { at: time.clock() + 6 * 60_000 })
    expect(ahead.status).toBe(400)
    expect(ahead.json).toMatchObject({ code: 'invalid_signature' })
    expect((await deliver(succeeded, { at: time.clock() + 301_000 })).status).toBe(400)
    expect(await db.select().from(stripeWebhookEvents)).toEqual([])
    expect((await stored(purchase.id)).status).toBe('pending')
    expect((await deliver(succeeded, { at: time.clock() + 299_000 })).json.outcome).toBe('applied')
  })
})

// Two provider processes on one PostgreSQL database: the same out-of-order event at both at once.
const postgres = await createPostgresDatabase()
describe.skipIf('unavailable' in postgres)(`PostgreSQL: two provider processes${'unavailable' in postgres ? ` (skipped: ${postgres.unavailable})` : ''}`, () => {
  it('the same refund-before-payment event at both: each asks Stripe, one applies it, the other finds it done', async () => {
    if ('unavailable' in postgres) return
    const second = await postgres.openAnother()
    const env = { FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/', FAKE_STRIPE_DUPLICATE_PERCENT: '0' }
    const one = testApp(postgres.handle.db, { env })
    const two = testApp(second.db, { env })
    try {
      const [a, b] = [client(one), client(two)]
      const pgDb = postgres.handle.db
      const token = (await a.login('paciente@innera.local')).access
      const [course] = await pgDb.select({ id: products.id }).from(products).where(eq(products.slug, 'curso-sono-reparador'))
      const created = await a.post('/purchases/create/', { items: [{ product_id: course!.id, quantity: 1 }], method: 'pix', idempotency_key: newKey() }, { token })
      expect(created.status).toBe(201)
      const [row] = await pgDb.select().from(purchases).where(eq(purchases.id, created.json.id))
      const paid = await one.request(`${PUBLIC_URL}/fake-stripe/pix/${row!.stripePaymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      expect(paid.status).toBe(303)
      await one.services.background.idle()
      await one.services.stripe!.refunds.create({ payment_intent: row!.stripePaymentIntentId! })
      const [found] = await pgDb
        .select({ data: fakeStripeObjects.data })
        .from(fakeStripeObjects)
        .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = 'charge.refunded'`, sql`${fakeStripeObjects.data}->'data'->'object'->>'payment_intent' = ${row!.stripePaymentIntentId}`))
      const payload = JSON.stringify(found!.data)
      const post = (target: typeof a) =>
        target.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader(payload, one.services.config.stripe.webhookSecret!, Math.floor(Date.now() / 1000)) } })
      const outcomes = await Promise.all([post(a), post(b)])
      expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200])
      expect(outcomes.map((outcome) => outcome.json.outcome).sort()).toEqual(['applied', 'duplicate'])
      const [after] = await pgDb.select().from(purchases).where(eq(purchases.id, row!.id))
      expect(after!.status).toBe('refunded')
      const moves = await pgDb.select().from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, row!.id)).orderBy(asc(purchaseTransitions.id))
      expect(moves.map((move) => move.toStatus)).toEqual(['pending', 'paid', 'refunded'])
      expect(await pgDb.select().from(purchaseGrants).where(and(eq(purchaseGrants.purchaseId, row!.id), isNull(purchaseGrants.revokedAt)))).toEqual([])
    } finally {
      await one.services.background.idle()
      await two.services.background.idle()
      await second.close()
      await postgres.drop()
    }
  })
})

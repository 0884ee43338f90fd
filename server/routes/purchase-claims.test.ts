import { and, asc, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { fakeStripeObjects, products, purchaseClaims, purchaseGrants, purchases, purchaseTransitions } from '#server/db/schema.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { recordTransition } from '#server/purchases/repository.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { client, describeOnPostgres, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

/**
 * A course, material or program is bought once (issue 41, decision 0072): the second checkout of
 * one a buyer has in an open purchase is a 409 that names it, whatever its idempotency key; a
 * checkout that ended unpaid frees the product; a payment that still arrives for a purchase that
 * lost it is given back and grants nothing. The database decides, also between two processes.
 */

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const setup = withFakeStripe(NOW)

let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let secret: string
const tokens = { patient: '', patient2: '' }

beforeAll(async () => {
  app = setup.fake.app
  db = setup.database.db
  api = client(app)
  secret = app.services.config.stripe.webhookSecret!
  tokens.patient = (await api.login('paciente@innera.local')).access
  tokens.patient2 = (await api.login('paciente2@innera.local')).access
})

let keys = 0
const newKey = () => `claims-key-${String(++keys).padStart(8, '0')}`
const COURSE = 'curso-sono-reparador'

async function productId(slug: string): Promise<number> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.slug, slug))
  return row!.id
}

async function buy(slugs: string[], method: 'pix' | 'card', { token = tokens.patient, key = newKey(), target = api } = {}) {
  const items = await Promise.all(slugs.map(async (slug) => ({ product_id: await productId(slug), quantity: 1 })))
  const urls = method === 'card' && { success_url: 'http://app.test/compras/{PURCHASE_ID}', cancel_url: 'http://app.test/carrinho' }
  return target.post('/purchases/create/', { items, method, idempotency_key: key, ...urls }, { token })
}

const stored = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!
const transitionsOf = async (id: number) =>
  (await db.select().from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, id)).orderBy(asc(purchaseTransitions.id))).map((row) => [row.fromStatus, row.toStatus, row.source])
const grantsOf = (id: number) => db.select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, id))

async function event(type: string, objectId: string): Promise<Stripe.Event> {
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = ${type}`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}`))
  if (rows.length !== 1) throw new Error(`${rows.length} events ${type} about ${objectId}`)
  return rows[0]!.data as unknown as Stripe.Event
}

function deliver(stripeEvent: Stripe.Event) {
  const payload = JSON.stringify(stripeEvent)
  const header = signatureHeader(payload, secret, Math.floor(setup.time.clock() / 1000))
  return api.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } })
}

/** The buyer's bank pays (or refuses) a purchase's PIX code on the fake's page, and Stripe's event arrives. */
async function settlePix(purchaseId: number, decision: 'succeed' | 'fail') {
  const paymentIntentId = (await stored(purchaseId)).stripePaymentIntentId!
  const response = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await app.services.background.idle()
  expect(response.status).toBe(303)
  const type = decision === 'succeed' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed'
  expect((await deliver(await event(type, paymentIntentId))).json.outcome).toBe('applied')
  return stored(purchaseId)
}

/** Marks a purchase failed on our side, as a refused or unstartable payment does, while its PIX code may still be paid. */
async function failHere(id: number) {
  const purchase = await stored(id)
  await db.transaction((tx) => recordTransition(tx, purchase, 'failed', { source: 'webhook', now: setup.time.clock() }))
}

const myProducts = async (token = tokens.patient) => (await api.get('/products/my-products/', { token })).json as { count: number; results: { product: { slug: string }; purchase_id: number }[] }

describe('one open or paid purchase per buyer and one-time product', () => {
  it('a second checkout with another key is a 409 naming the open purchase; the same key is still the first; nothing else is made', async () => {
    const course = await productId(COURSE)
    const key = newKey()
    const first = await buy([COURSE], 'pix', { key })
    expect(first.status).toBe(201)
    const second = await buy([COURSE], 'card')
    expect(second.status).toBe(409)
    expect(second.json).toEqual({
      detail: 'You already have a payment open for some of these products: finish it or cancel it on its page first.',
      code: 'already_in_checkout',
      purchase_id: first.json.id,
      product_ids: [course],
    })
    // A cart with a package beside it: nothing of it is bought either, no payment started at Stripe.
    expect((await buy(['pacote-4-consultas', COURSE], 'pix')).json).toMatchObject({ code: 'already_in_checkout', purchase_id: first.json.id, product_ids: [course] })
    const again = await buy([COURSE], 'pix', { key })
    expect([again.status, again.json.id]).toEqual([200, first.json.id])
    expect((await db.select().from(purchases)).map((row) => row.id)).toEqual([first.json.id])
    expect(await db.select({ total: sql<number>`count(*)::int` }).from(fakeStripeObjects).where(eq(fakeStripeObjects.type, 'payment_intent'))).toEqual([{ total: 1 }])
    // The product's page asks for the open checkout of it.
    const open = await api.get(`/purchases/?product_id=${course}&status=pending&page_size=1`, { token: tokens.patient })
    expect(open.json).toMatchObject({ count: 1, results: [{ id: first.json.id, status: 'pending' }] })
    expect((await api.get(`/purchases/?product_id=${course}&status=paid`, { token: tokens.patient })).json.count).toBe(0)
    expect((await api.get('/purchases/?product_id=abc&status=owed', { token: tokens.patient })).json).toEqual({
      product_id: ['A valid integer is required.'],
      status: ['"owed" is not a valid choice.'],
    })
    // Another buyer is another claim; a package alone may be bought beside the open course.
    expect((await buy([COURSE], 'pix', { token: tokens.patient2 })).status).toBe(201)
    expect((await buy(['pacote-4-consultas'], 'pix')).status).toBe(201)
  })

  it('paid, the course is owned (409 already_owned); a checkout cancelled, expired or refused frees it for a new one', async () => {
    const cancelled = (await buy([COURSE], 'pix')).json.id
    expect((await api.post(`/purchases/${cancelled}/cancel/`, {}, { token: tokens.patient })).json.status).toBe('cancelled')
    const expiring = await buy([COURSE], 'pix')
    expect(expiring.status).toBe(201)
    setup.time.advance(31 * 60)
    tokens.patient = (await api.login('paciente@innera.local')).access
    expect((await api.post(`/purchases/${expiring.json.id}/refresh-status/`, {}, { token: tokens.patient })).json.status).toBe('expired')
    const refused = await buy([COURSE], 'pix')
    expect(refused.status).toBe(201)
    expect((await settlePix(refused.json.id, 'fail')).status).toBe('failed')
    const paid = await buy([COURSE], 'card')
    expect(paid.status).toBe(201)
    const checkout = await app.request(paid.json.checkout_url, {
      method: 'POST',
      body: new URLSearchParams({ card_number: '4242424242424242', expiry: '12/30', cvc: '123', name: 'Pedro Santos' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(checkout.status).toBe(303)
    await app.services.background.idle()
    expect((await deliver(await event('checkout.session.completed', (await stored(paid.json.id)).stripeCheckoutSessionId!))).json.outcome).toBe('applied')
    expect((await stored(paid.json.id)).status).toBe('paid')
    expect((await buy([COURSE], 'pix')).json).toMatchObject({ code: 'already_owned', product_ids: [await productId(COURSE)] })
    // The refused one was cancelled by that payment (decision 0076): it can no longer be renewed, and its page names the paid one.
    const codes = await db.select({ total: sql<number>`count(*)::int` }).from(fakeStripeObjects).where(eq(fakeStripeObjects.type, 'payment_intent'))
    const renewed = await api.post(`/purchases/${refused.json.id}/renew-pix/`, {}, { token: tokens.patient })
    expect(renewed.status).toBe(409)
    expect(renewed.json).toMatchObject({ code: 'not_renewable' })
    expect(await db.select({ total: sql<number>`count(*)::int` }).from(fakeStripeObjects).where(eq(fakeStripeObjects.type, 'payment_intent'))).toEqual(codes)
    expect(await stored(refused.json.id)).toMatchObject({ status: 'cancelled', replacedByPurchaseId: paid.json.id })
    expect((await api.get(`/purchases/${refused.json.id}/`, { token: tokens.patient })).json).toMatchObject({ status: 'cancelled', replaced_by_purchase_id: paid.json.id })
  })

  it('a failed purchase whose course a newer one paid is cancelled for it, its PIX code closed at Stripe; my products lists the course once', async () => {
    const course = await productId(COURSE)
    const first = (await buy([COURSE, 'diario-do-sono'], 'pix')).json.id
    await failHere(first)
    const second = (await buy([COURSE], 'pix')).json.id
    expect((await settlePix(second, 'succeed')).status).toBe('paid')
    await app.services.background.idle()
    // The first one's code, left open in another tab, can no longer be paid (decision 0076; a payment that arrives all the same: purchase-replacements.test.ts).
    expect(await transitionsOf(first)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'failed', 'webhook'],
      ['failed', 'cancelled', 'replaced'],
    ])
    const [intent] = await db.select().from(fakeStripeObjects).where(eq(fakeStripeObjects.id, (await stored(first)).stripePaymentIntentId!))
    expect(intent?.data).toMatchObject({ status: 'canceled', cancellation_reason: 'duplicate' })
    expect(await grantsOf(first)).toEqual([])
    expect((await api.get(`/purchases/${first}/`, { token: tokens.patient })).json).toMatchObject({ status: 'cancelled', replaced_by_purchase_id: second })
    const mine = await myProducts()
    expect(mine.count).toBe(1)
    expect(mine.results).toMatchObject([{ product: { slug: COURSE }, purchase_id: second }])
    expect(await db.select().from(purchaseClaims)).toMatchObject([{ productId: course, purchaseId: second }])
  })

  it('a late payment of a failed purchase whose course nobody else took gives it, and the course is then owned', async () => {
    const first = (await buy([COURSE], 'pix')).json.id
    await failHere(first)
    expect(await db.select().from(purchaseClaims)).toEqual([])
    expect((await settlePix(first, 'succeed')).status).toBe('paid')
    expect(await grantsOf(first)).toHaveLength(1)
    expect((await buy([COURSE], 'pix')).json).toMatchObject({ code: 'already_owned' })
  })

  it('the same key repeated after Stripe was away starts its payment only while the course is free', async () => {
    const away = client(testApp(db, { clock: setup.time.clock, env: { STRIPE_API_URL: 'http://127.0.0.1:9', FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/' } }))
    const key = newKey()
    expect((await buy([COURSE], 'pix', { key, target: away })).status).toBe(503)
    const meanwhile = await buy([COURSE], 'pix')
    expect(meanwhile.status).toBe(201)
    const repeat = await buy([COURSE], 'pix', { key })
    expect(repeat.status).toBe(409)
    expect(repeat.json).toMatchObject({ code: 'already_in_checkout', purchase_id: meanwhile.json.id })
  })

  it('a refund that ends the course frees it; one that keeps it (a package refunded after the 7 days) does not', async () => {
    const first = (await buy([COURSE, 'pacote-4-consultas'], 'pix')).json.id
    await settlePix(first, 'succeed')
    setup.time.advance(8 * 24 * 3600)
    tokens.patient = (await api.login('paciente@innera.local')).access
    // After the 7 days the package's credits are refunded and the course stays.
    expect((await api.post(`/purchases/${first}/cancel/`, {}, { token: tokens.patient })).json.status).toBe('refunded')
    expect((await buy([COURSE], 'pix')).json).toMatchObject({ code: 'already_owned' })

    const other = (await buy(['diario-do-sono'], 'pix')).json.id
    await settlePix(other, 'succeed')
    expect((await api.post(`/purchases/${other}/cancel/`, {}, { token: tokens.patient })).json.status).toBe('refunded')
    expect((await buy(['diario-do-sono'], 'pix')).status).toBe(201)
  })
})

// Two provider processes on one PostgreSQL database, two checkouts of one course at the same moment.
await describeOnPostgres('PostgreSQL: two provider processes, two checkouts of one course at once', (open) => {
  it('exactly one is made (201), the other is a 409 naming it, round after round', async () => {
    const { first, second, dispose } = await open()
    await resetDatabase(first.db)
    const env = { FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/', FAKE_STRIPE_DUPLICATE_PERCENT: '0' }
    const one = testApp(first.db, { env })
    const two = testApp(second.db, { env })
    try {
      const [a, b] = [client(one), client(two)]
      const token = (await a.login('paciente@innera.local')).access
      const slugs = ['curso-sono-reparador', 'curso-comida-de-verdade', 'diario-do-sono', 'programa-essencial-8-semanas']
      const ids = await first.db.select({ id: products.id, slug: products.slug }).from(products)
      for (const slug of slugs) {
        const items = [{ product_id: ids.find((row) => row.slug === slug)!.id, quantity: 1 }]
        const create = (target: typeof a) => target.post('/purchases/create/', { items, method: 'pix', idempotency_key: newKey() }, { token })
        const answers = await Promise.all([create(a), create(b)])
        expect(answers.map((answer) => answer.status).sort(), slug).toEqual([201, 409])
        const made = answers.find((answer) => answer.status === 201)!
        expect(answers.find((answer) => answer.status === 409)!.json).toMatchObject({ code: 'already_in_checkout', purchase_id: made.json.id })
      }
      const rows = await first.db.select().from(purchases)
      expect(rows).toHaveLength(slugs.length)
    } finally {
      await one.services.background.idle()
      await two.services.background.idle()
      await dispose()
    }
  })
})

describe('GET /products/{id}/ with a token: the caller’s standing beside the product (decision 0095)', () => {
  const MATERIAL = 'diario-30-dias-menos-alcool'
  const productAs = async (id: number, token?: string) => api.get(`/products/${id}/`, { token })

  it('a patient’s open payment, then the product in force; another patient sees neither; anonymous and other roles get no standing', async () => {
    const id = await productId(MATERIAL)
    const anonymous = await productAs(id)
    expect(anonymous.status).toBe(200)
    expect(anonymous.json).not.toHaveProperty('viewer')
    expect(anonymous.headers.get('cache-control') ?? '').not.toContain('private')
    expect((await productAs(id, tokens.patient)).json).toMatchObject({ id, viewer: { owned: false, open_purchase_id: null } })

    const open = await buy([MATERIAL], 'pix')
    expect(open.status).toBe(201)
    const pending = await productAs(id, tokens.patient)
    expect(pending.json).toMatchObject({ id, slug: MATERIAL, viewer: { owned: false, open_purchase_id: open.json.id } })
    expect(pending.headers.get('cache-control')).toBe('private, no-store')
    expect((await productAs(id, tokens.patient2)).json).toMatchObject({ viewer: { owned: false, open_purchase_id: null } })

    expect((await settlePix(open.json.id as number, 'succeed')).status).toBe('paid')
    expect((await productAs(id, tokens.patient)).json).toMatchObject({ viewer: { owned: true, open_purchase_id: null } })
    expect((await productAs(id, tokens.patient2)).json).toMatchObject({ viewer: { owned: false, open_purchase_id: null } })
    // The rest of the answer is the public one.
    const { viewer: _viewer, ...product } = (await productAs(id, tokens.patient)).json as Record<string, unknown>
    expect(product).toEqual(anonymous.json)

    const professional = (await api.login('profissional@innera.local')).access
    expect((await productAs(id, professional)).json).toMatchObject({ id, viewer: null })
    expect(await productAs(id, 'not-a-token')).toMatchObject({ status: 401 })
    expect(await productAs(2147483647, tokens.patient)).toMatchObject({ status: 404 })
  })
})

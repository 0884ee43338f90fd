import { and, asc, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { consultationCredits, fakeStripeObjects, products, purchaseGrants, purchaseRefunds, purchases, purchaseTransitions, stripeWebhookEvents } from '#server/db/schema.ts'
import { createWebhookSender, signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { purchasesTick } from '#server/purchases/payments.ts'
import { recordTransition } from '#server/purchases/repository.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { client, createPostgresDatabase, PUBLIC_URL, testApp } from '#server/testing/harness.ts'
import { silentLogger } from '#server/log.ts'

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const setup = withFakeStripe(NOW)

let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let stripe: Stripe
let secret: string
const tokens: Record<'patient' | 'patient2' | 'professional' | 'admin', string> = { patient: '', patient2: '', professional: '', admin: '' }

beforeAll(async () => {
  app = setup.fake.app
  db = setup.database.db
  stripe = setup.stripe
  api = client(app)
  secret = app.services.config.stripe.webhookSecret!
  tokens.patient = (await api.login('paciente@innera.local')).access
  tokens.patient2 = (await api.login('paciente2@innera.local')).access
  tokens.professional = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
})

/** Moves the clock on, and signs the patient in again: an access token lasts 5 minutes. */
async function later(seconds: number) {
  setup.time.advance(seconds)
  tokens.patient = (await api.login('paciente@innera.local')).access
}

let keys = 0
const newKey = () => `test-key-${String(++keys).padStart(8, '0')}`
const SUCCESS_URL = 'http://app.test/compras/{PURCHASE_ID}'
const CANCEL_URL = 'http://app.test/carrinho'

async function productId(slug: string): Promise<number> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.slug, slug))
  return row!.id
}

async function buy(slugs: string[], method: 'pix' | 'card', { token = tokens.patient, key = newKey() } = {}) {
  const items = await Promise.all(slugs.map(async (slug) => ({ product_id: await productId(slug), quantity: 1 })))
  return api.post('/purchases/create/', { items, method, idempotency_key: key, ...(method === 'card' && { success_url: SUCCESS_URL, cancel_url: CANCEL_URL }) }, { token })
}

const get = (id: number, token = tokens.patient) => api.get(`/purchases/${id}/`, { token })
const stored = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!

/** The fake Stripe's events of a type (about one object), oldest first. */
async function events(type: string, objectId?: string): Promise<Stripe.Event[]> {
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(
      and(
        eq(fakeStripeObjects.type, 'event'),
        sql`${fakeStripeObjects.data}->>'type' = ${type}`,
        objectId ? sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}` : undefined,
      ),
    )
    .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
  return rows.map((row) => row.data as unknown as Stripe.Event)
}

async function event(type: string, objectId?: string): Promise<Stripe.Event> {
  const found = await events(type, objectId)
  if (found.length !== 1) throw new Error(`${found.length} events ${type} about ${objectId}`)
  return found[0]!
}

/** Delivers an event as Stripe would: its JSON signed at `at` (our clock by default). */
function deliver(stripeEvent: Stripe.Event, { at = setup.time.clock(), key = secret, target = api } = {}) {
  const payload = JSON.stringify(stripeEvent, null, 2)
  return target.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader(payload, key, Math.floor(at / 1000)) } })
}

/** The buyer's bank pays (or refuses) a PIX code on the fake's development page. */
async function settlePix(paymentIntentId: string, decision: 'succeed' | 'fail') {
  const response = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await app.services.background.idle()
  expect(response.status).toBe(303)
}

/** The buyer pays on the fake's hosted Checkout page with a test card. */
async function payCheckout(url: string, number = '4242424242424242') {
  const response = await app.request(url, {
    method: 'POST',
    body: new URLSearchParams({ card_number: number, expiry: '12/30', cvc: '123', name: 'Pedro Santos' }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  await app.services.background.idle()
  return response
}

const transitionsOf = async (id: number) =>
  (await db.select().from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, id)).orderBy(asc(purchaseTransitions.id))).map((row) => [row.fromStatus, row.toStatus, row.source])
const grantsOf = (id: number) => db.select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, id))

/** A PIX purchase, paid at the fake and its payment_intent.succeeded delivered. */
async function paidPix(slugs: string[]) {
  const created = await buy(slugs, 'pix')
  expect(created.status).toBe(201)
  const purchase = await stored(created.json.id)
  await settlePix(purchase.stripePaymentIntentId!, 'succeed')
  expect((await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))).json.outcome).toBe('applied')
  return stored(purchase.id)
}

describe('GET /purchases/payment-methods/', () => {
  it('says card and PIX with their rules, to a signed-in user only, never cached', async () => {
    expect((await api.get('/purchases/payment-methods/')).status).toBe(401)
    const answer = await api.get('/purchases/payment-methods/', { token: tokens.professional })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    expect(answer.json).toEqual({
      available: true,
      currency: 'BRL',
      withdrawal_days: 7,
      methods: [
        { method: 'card', flow: 'hosted_checkout', refund: { key: 'refunds.deadline.card', billing_cycles: 2, business_days: null } },
        { method: 'pix', flow: 'pix_code', code_lifetime_seconds: 1800, refund: { key: 'refunds.deadline.pix', billing_cycles: null, business_days: 3 } },
      ],
    })
  })
})

describe('POST /purchases/create/', () => {
  it('PIX: prices from the database, a confirmed PaymentIntent in exact cents, its code for 30 minutes', async () => {
    const course = await productId('curso-sono-reparador')
    const material = await productId('diario-do-sono')
    const answer = await api.post(
      '/purchases/create/',
      // What the request says of prices is not read.
      { items: [{ product_id: course, quantity: 1, unit_cents: 1 }, { product_id: material, quantity: 1, price_cents: 1 }], method: 'pix', idempotency_key: newKey(), total_cents: 2 },
      { token: tokens.patient },
    )
    expect(answer.status).toBe(201)
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    const [courseRow] = await db.select().from(products).where(eq(products.id, course))
    const [materialRow] = await db.select().from(products).where(eq(products.id, material))
    const total = courseRow!.priceCents + materialRow!.priceCents
    expect(answer.json).toMatchObject({
      status: 'pending',
      method: 'pix',
      total_cents: total,
      refunded_cents: 0,
      currency: 'BRL',
      checkout_url: null,
      paid_at: null,
      failure: null,
      refund_quote: null,
      can_cancel: true,
      can_renew_pix: false,
      items: [
        { product_id: course, product_type: 'course', quantity: 1, unit_cents: courseRow!.priceCents, line_cents: courseRow!.priceCents, name: courseRow!.name },
        { product_id: material, product_type: 'digital_material', quantity: 1, unit_cents: materialRow!.priceCents, line_cents: materialRow!.priceCents },
      ],
      transitions: [{ from_status: null, to_status: 'pending', source: 'create' }],
    })
    expect(answer.json.pix.data).toMatch(/^000201/)
    expect(answer.json.pix.expires_at).toBe(new Date(NOW + 30 * 60_000).toISOString())
    const purchase = await stored(answer.json.id)
    const paymentIntent = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId!)
    expect(paymentIntent).toMatchObject({ amount: total, currency: 'brl', status: 'requires_action', metadata: { purchase_id: String(purchase.id) }, payment_method_types: ['pix'] })
    expect(paymentIntent.next_action!.pix_display_qr_code!.data).toBe(answer.json.pix.data)
  })

  it('card: a Checkout Session in BRL cents with the purchase in its metadata and the session id in its success URL', async () => {
    const packageId = await productId('pacote-4-consultas')
    const answer = await buy(['pacote-4-consultas'], 'card')
    expect(answer.status).toBe(201)
    expect(answer.json).toMatchObject({ status: 'pending', method: 'card', total_cents: 64_800, pix: null })
    const purchase = await stored(answer.json.id)
    expect(answer.json.checkout_url).toBe(`${PUBLIC_URL}/fake-stripe/checkout/${purchase.stripeCheckoutSessionId}`)
    const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId!)
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 64_800,
      currency: 'brl',
      client_reference_id: String(purchase.id),
      metadata: { purchase_id: String(purchase.id) },
      customer_email: 'paciente@innera.local',
      success_url: `http://app.test/compras/${purchase.id}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: CANCEL_URL,
    })
    const items = await stripe.checkout.sessions.listLineItems(session.id)
    expect(items.data.map((item) => [item.quantity, item.amount_total, item.currency])).toEqual([[1, 64_800, 'brl']])
    expect(packageId).toBeGreaterThan(0)
  })

  it('one purchase per idempotency key: a repeat answers the same purchase with 200', async () => {
    const key = newKey()
    const first = await buy(['diario-do-sono'], 'pix', { key })
    const again = await buy(['diario-do-sono'], 'pix', { key })
    expect([first.status, again.status]).toEqual([201, 200])
    expect(again.json.id).toBe(first.json.id)
    expect(again.json.pix.data).toBe(first.json.pix.data)
    // The key is the patient's: another patient's same key is another purchase.
    const other = await buy(['diario-do-sono'], 'pix', { key, token: tokens.patient2 })
    expect(other.status).toBe(201)
    expect(other.json.id).not.toBe(first.json.id)
    expect((await db.select().from(purchases)).length).toBe(2)
  })

  it('refuses subscriptions, unknown or hidden products, quantities over the type rule, and bad bodies', async () => {
    const plan = await productId('plano-mensal')
    const course = await productId('curso-sono-reparador')
    const subscription = await api.post('/purchases/create/', { items: [{ product_id: plan, quantity: 1 }], method: 'pix', idempotency_key: newKey() }, { token: tokens.patient })
    expect(subscription.status).toBe(400)
    expect(subscription.json.detail).toBe("Subscriptions are started from the plan's page.")

    await db.update(products).set({ active: false }).where(eq(products.slug, 'diario-do-sono'))
    const hidden = await buy(['diario-do-sono'], 'pix')
    expect(hidden.status).toBe(400)
    expect(hidden.json.items[0].product_id[0]).toMatch(/^Invalid pk "\d+" - object does not exist\.$/)

    const two = await api.post('/purchases/create/', { items: [{ product_id: course, quantity: 2 }], method: 'pix', idempotency_key: newKey() }, { token: tokens.patient })
    expect(two.status).toBe(400)
    expect(two.json).toEqual({ items: [{ quantity: ['Ensure this value is less than or equal to 1.'] }] })

    const bad = await api.post('/purchases/create/', { items: [{ product_id: 0, quantity: 1 }], method: 'pix', idempotency_key: 'has spaces in it!!' }, { token: tokens.patient })
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual({
      items: [{ product_id: ['Ensure this value is greater than or equal to 1.'] }],
      idempotency_key: ['Enter a valid idempotency key: 16 to 64 letters, digits, "-" or "_".'],
    })
    const nul = await api.post('/purchases/create/', { items: [{ product_id: course, quantity: 1 }], method: 'pix', idempotency_key: `${newKey()}\u0000` }, { token: tokens.patient })
    expect(nul.status).toBe(400)
    expect(await db.select().from(purchases)).toEqual([])
  })

  it('does not sell again what the buyer already has for good (409 already_owned, naming it); a package again and again', async () => {
    const created = await buy(['curso-comida-de-verdade'], 'pix', { token: tokens.patient2 })
    const purchase = await stored(created.json.id)
    await settlePix(purchase.stripePaymentIntentId!, 'succeed')
    await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))
    expect((await stored(purchase.id)).status).toBe('paid')
    const again = await buy(['pacote-4-consultas-paula-ribeiro', 'curso-comida-de-verdade'], 'pix', { token: tokens.patient2 })
    expect(again.status).toBe(409)
    expect(again.json).toMatchObject({ code: 'already_owned', product_ids: [await productId('curso-comida-de-verdade')] })
    // A product's page asks whether its visitor has it.
    const course = await productId('curso-comida-de-verdade')
    expect((await api.get(`/products/my-products/?product_id=${course}&page_size=1`, { token: tokens.patient2 })).json).toMatchObject({ count: 1, results: [{ product: { id: course }, kind: 'course' }] })
    expect((await api.get(`/products/my-products/?product_id=${course}`, { token: tokens.patient })).json.count).toBe(0)
    expect((await api.get('/products/my-products/?product_id=abc', { token: tokens.patient })).json).toHaveProperty('product_id')
    // Someone else may buy it; the owner may buy a package.
    expect((await buy(['curso-comida-de-verdade'], 'pix')).status).toBe(201)
    expect((await buy(['pacote-4-consultas-paula-ribeiro'], 'pix', { token: tokens.patient2 })).status).toBe(201)
  })

  it('counts purchases per user (THROTTLE_PURCHASE_PER_USER), never a repeat of a used key', async () => {
    const limited = client(testApp(db, { clock: setup.time.clock, env: { THROTTLE_DISABLED: '0', THROTTLE_PURCHASE_PER_USER: '1/h', STRIPE_API_URL: setup.fake.apiUrl, FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/' } }))
    const items = [{ product_id: await productId('diario-do-sono'), quantity: 1 }]
    const key = newKey()
    expect((await limited.post('/purchases/create/', { items, method: 'pix', idempotency_key: key }, { token: tokens.patient })).status).toBe(201)
    expect((await limited.post('/purchases/create/', { items, method: 'pix', idempotency_key: key }, { token: tokens.patient })).status).toBe(200)
    const refused = await limited.post('/purchases/create/', { items, method: 'pix', idempotency_key: newKey() }, { token: tokens.patient })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
  })

  it('Stripe unreachable: 503, the purchase marked failed and nothing charged; the same key later starts it', async () => {
    const away = testApp(db, { clock: setup.time.clock, env: { STRIPE_API_URL: 'http://127.0.0.1:9', FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/' } })
    const key = newKey()
    const items = [{ product_id: await productId('diario-do-sono'), quantity: 1 }]
    const failed = await client(away).post('/purchases/create/', { items, method: 'pix', idempotency_key: key }, { token: tokens.patient })
    expect(failed.status).toBe(503)
    expect(failed.json).toEqual({ detail: 'The payment service could not be reached. Nothing was charged; try again in a moment.', code: 'payment_provider_unavailable' })
    const [row] = await db.select().from(purchases)
    expect(row).toMatchObject({ status: 'failed', failureCode: 'payment_provider_unavailable', stripePaymentIntentId: null })
    expect(await events('payment_intent.created')).toEqual([])

    const retried = await api.post('/purchases/create/', { items, method: 'pix', idempotency_key: key }, { token: tokens.patient })
    expect(retried.status).toBe(200)
    expect(retried.json).toMatchObject({ id: row!.id, status: 'pending', failure: null })
    expect(retried.json.pix.data).toMatch(/^000201/)
    expect(await transitionsOf(row!.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'failed', 'create'],
      ['failed', 'pending', 'create'],
    ])
  })
})

describe('who may call what', () => {
  it('anonymous callers get 401 everywhere but the webhook, which wants a signature', async () => {
    const created = await buy(['diario-do-sono'], 'pix')
    const id = created.json.id
    for (const [method, path] of [
      ['GET', '/purchases/'],
      ['POST', '/purchases/create/'],
      ['GET', `/purchases/${id}/`],
      ['POST', `/purchases/${id}/refresh-status/`],
      ['POST', `/purchases/${id}/cancel/`],
      ['POST', `/purchases/${id}/renew-pix/`],
      ['GET', '/products/my-products/'],
    ] as const) {
      expect((await api.call(method, path)).status, `${method} ${path}`).toBe(401)
    }
    expect((await api.call('POST', '/purchases/webhook/', { rawBody: '{}' })).status).toBe(400)
  })

  it("another user's purchase is 404; admins read any and refresh it, but only patients buy, cancel and renew", async () => {
    const id = (await buy(['diario-do-sono'], 'pix')).json.id
    for (const path of [`/purchases/${id}/`]) expect((await api.get(path, { token: tokens.patient2 })).status).toBe(404)
    for (const action of ['refresh-status', 'cancel', 'renew-pix']) expect((await api.post(`/purchases/${id}/${action}/`, {}, { token: tokens.patient2 })).status, action).toBe(404)
    expect((await api.get(`/purchases/${id}/`, { token: tokens.professional })).status).toBe(404)
    expect((await api.post(`/purchases/${id}/refresh-status/`, {}, { token: tokens.professional })).status).toBe(404)
    expect((await api.get('/purchases/', { token: tokens.patient2 })).json.count).toBe(0)

    expect((await api.get(`/purchases/${id}/`, { token: tokens.admin })).status).toBe(200)
    expect((await api.post(`/purchases/${id}/refresh-status/`, {}, { token: tokens.admin })).status).toBe(200)
    for (const token of [tokens.admin, tokens.professional]) {
      expect((await buy(['diario-do-sono'], 'pix', { token })).status).toBe(403)
      expect((await api.post(`/purchases/${id}/cancel/`, {}, { token })).status).toBe(403)
      expect((await api.post(`/purchases/${id}/renew-pix/`, {}, { token })).status).toBe(403)
      const mine = await api.get('/products/my-products/', { token })
      expect([mine.status, mine.json.count]).toEqual([200, 0])
    }
    expect((await api.get('/purchases/99999/', { token: tokens.admin })).status).toBe(404)
    expect((await api.get('/purchases/2147483648/', { token: tokens.patient })).status).toBe(400)
  })

  it('lists the caller’s purchases newest first in DRF pages', async () => {
    const first = (await buy(['diario-do-sono'], 'pix')).json.id
    setup.time.advance(60)
    const second = (await buy(['curso-sono-reparador'], 'pix')).json.id
    const page = await api.get('/purchases/?page_size=1', { token: tokens.patient })
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(page.json).toMatchObject({ count: 2, previous: null, results: [{ id: second, status: 'pending' }] })
    expect(page.json.results[0]).not.toHaveProperty('transitions')
    expect((await api.get('/purchases/?page=2&page_size=1', { token: tokens.patient })).json.results[0].id).toBe(first)
  })
})

describe('POST /purchases/webhook/', () => {
  it('refuses a bad signature or an old timestamp with 400, changing nothing', async () => {
    const created = await buy(['curso-sono-reparador'], 'pix')
    const purchase = await stored(created.json.id)
    await settlePix(purchase.stripePaymentIntentId!, 'succeed')
    const succeeded = await event('payment_intent.succeeded', purchase.stripePaymentIntentId!)
    expect((await deliver(succeeded, { key: 'whsec_someone_else' })).status).toBe(400)
    expect((await deliver(succeeded, { at: setup.time.clock() - 301_000 })).status).toBe(400)
    const tampered = JSON.stringify(succeeded)
    const header = signatureHeader(tampered, secret, Math.floor(setup.time.clock() / 1000))
    const other = await api.call('POST', '/purchases/webhook/', { rawBody: tampered.replace('"succeeded"', '"succeeded" '), headers: { 'stripe-signature': header } })
    expect(other.status).toBe(400)
    expect((await api.call('POST', '/purchases/webhook/', { rawBody: tampered })).status).toBe(400)
    expect(await db.select().from(stripeWebhookEvents)).toEqual([])
    expect((await stored(purchase.id)).status).toBe('pending')
    // Within the 5 minutes it is taken.
    expect((await deliver(succeeded, { at: setup.time.clock() - 299_000 })).json.outcome).toBe('applied')
  })

  it('pays once: a replayed event, and the other events of the same payment, grant nothing more', async () => {
    const [packageId, courseId] = [await productId('pacote-4-consultas-paula-ribeiro'), await productId('curso-sono-reparador')]
    const cart = { items: [{ product_id: courseId, quantity: 1 }, { product_id: packageId, quantity: 1 }] }
    await api.call('PUT', '/cart/', { body: cart, token: tokens.patient })
    const created = await buy(['pacote-4-consultas-paula-ribeiro'], 'card')
    const purchase = await stored(created.json.id)
    // Declined first: the page stays open, the failure is kept for the purchase's page, the cart stays whole.
    expect((await payCheckout(created.json.checkout_url, '4000000000009995')).status).toBe(402)
    const failed = await events('payment_intent.payment_failed')
    expect((await deliver(failed[0]!)).json.outcome).toBe('applied')
    expect((await get(purchase.id)).json).toMatchObject({ status: 'pending', failure: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' } })
    expect((await api.get('/cart/', { token: tokens.patient })).json.items).toEqual(cart.items)

    expect((await payCheckout(created.json.checkout_url)).status).toBe(303)
    const completed = await event('checkout.session.completed', purchase.stripeCheckoutSessionId!)
    // The event may come before the buyer is back: the answer is the same either way.
    expect((await deliver(completed)).json.outcome).toBe('applied')
    expect((await deliver(completed)).json.outcome).toBe('duplicate')
    const paymentIntentId = (await stored(purchase.id)).stripePaymentIntentId!
    expect((await deliver(await event('payment_intent.succeeded', paymentIntentId))).json.outcome).toBe('applied')
    // A failure that arrives after the payment is ignored.
    expect((await deliver(failed[0]!)).json.outcome).toBe('duplicate')

    const answer = await get(purchase.id)
    expect(answer.json).toMatchObject({ status: 'paid', failure: null, checkout_url: null, paid_at: new Date(NOW).toISOString() })
    expect(await transitionsOf(purchase.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'paid', 'webhook'],
    ])
    expect(await grantsOf(purchase.id)).toHaveLength(1)
    const credits = await db.select().from(consultationCredits).where(eq(consultationCredits.purchaseId, purchase.id))
    expect(credits).toMatchObject([{ total: 4, used: 0, professionalId: 2 }])
    // What was paid for left the account's cart, in the same transaction; the rest stays.
    expect((await api.get('/cart/', { token: tokens.patient })).json.items).toEqual([{ product_id: courseId, quantity: 1 }])
  })

  it('out of order: a late cancellation, expiry or failure never undoes a payment', async () => {
    const created = await buy(['curso-sono-reparador'], 'card')
    const purchase = await stored(created.json.id)
    await payCheckout(created.json.checkout_url)
    const completed = await event('checkout.session.completed', purchase.stripeCheckoutSessionId!)
    const succeeded = (await events('payment_intent.succeeded'))[0]!
    // payment_intent.succeeded first: it names the purchase in its metadata.
    expect((await deliver(succeeded)).json.outcome).toBe('applied')
    expect((await stored(purchase.id)).status).toBe('paid')
    const forged = (type: string, object: Record<string, unknown>) => ({ ...succeeded, id: `evt_late_${type}`, type, data: { object } }) as unknown as Stripe.Event
    const pi = succeeded.data.object as Stripe.PaymentIntent
    expect((await deliver(forged('payment_intent.canceled', { ...pi, status: 'canceled', cancellation_reason: 'abandoned' }))).json.outcome).toBe('applied')
    expect((await deliver(forged('payment_intent.payment_failed', { ...pi, status: 'requires_payment_method', last_payment_error: { code: 'card_declined', message: 'no' } }))).json.outcome).toBe('applied')
    expect((await deliver(forged('checkout.session.expired', { ...completed.data.object, status: 'expired', payment_status: 'unpaid' }))).json.outcome).toBe('applied')
    expect((await deliver(completed)).json.outcome).toBe('applied')
    expect(await stored(purchase.id)).toMatchObject({ status: 'paid', failureCode: null })
    expect(await transitionsOf(purchase.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'paid', 'webhook'],
    ])
    expect(await grantsOf(purchase.id)).toHaveLength(1)
  })

  it('a payment for a purchase already expired is refunded at once, and recorded', async () => {
    const created = await buy(['curso-sono-reparador'], 'pix')
    const purchase = await stored(created.json.id)
    // Expired on our side (the tick) while the buyer's bank was paying.
    await db.transaction((tx) => recordTransition(tx, purchase, 'expired', { source: 'expiry', now: setup.time.clock() }))
    await settlePix(purchase.stripePaymentIntentId!, 'succeed')
    expect((await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))).json.outcome).toBe('applied')
    const answer = await get(purchase.id)
    expect(answer.json).toMatchObject({ status: 'refunded', refunded_cents: purchase.totalCents, refunds: [{ amount_cents: purchase.totalCents, reason: 'late_payment', status: 'succeeded' }] })
    expect(await transitionsOf(purchase.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'expired', 'expiry'],
      ['expired', 'refunded', 'webhook'],
    ])
    expect(await grantsOf(purchase.id)).toEqual([])
    const refunds = await stripe.refunds.list({ payment_intent: purchase.stripePaymentIntentId! })
    expect(refunds.data.map((refund) => refund.amount)).toEqual([purchase.totalCents])
    // Stripe's charge.refunded after it changes nothing more.
    const charge = (await events('charge.refunded'))[0]!
    expect((await deliver(charge)).json.outcome).toBe('applied')
    expect((await transitionsOf(purchase.id)).length).toBe(3)
    expect((await stripe.refunds.list({ payment_intent: purchase.stripePaymentIntentId! })).data).toHaveLength(1)
  })

  it('the fake Stripe’s own signed deliveries reach it and pay the purchase', async () => {
    const created = await buy(['diario-do-sono'], 'pix')
    const purchase = await stored(created.json.id)
    await settlePix(purchase.stripePaymentIntentId!, 'succeed')
    // The fixture's deliveries go nowhere; this sender sends them to the provider itself.
    const sender = createWebhookSender({
      db,
      secret,
      clock: setup.time.clock,
      log: silentLogger,
      duplicatePercent: 100,
      fetch: async (_url, init) => app.request(`${PUBLIC_URL}/purchases/webhook/`, init),
    })
    // Their first attempts failed (nowhere to go): the retries are due a minute later.
    setup.time.advance(61)
    expect((await sender.deliverDue()).delivered).toBeGreaterThan(0)
    setup.time.advance(5)
    await sender.deliverDue()
    expect((await stored(purchase.id)).status).toBe('paid')
    expect(await grantsOf(purchase.id)).toHaveLength(1)
  })
})

describe('refresh-status, renew-pix and the tick', () => {
  it('refresh-status applies what Stripe says as the webhook would; the late webhook then changes nothing', async () => {
    const created = await buy(['curso-sono-reparador'], 'pix')
    const purchase = await stored(created.json.id)
    await settlePix(purchase.stripePaymentIntentId!, 'succeed')
    const refreshed = await api.post(`/purchases/${purchase.id}/refresh-status/`, {}, { token: tokens.patient })
    expect(refreshed.status).toBe(200)
    expect(refreshed.json).toMatchObject({ status: 'paid', pix: null, transitions: [{ to_status: 'pending' }, { from_status: 'pending', to_status: 'paid', source: 'refresh' }] })
    expect(refreshed.json.refund_quote).toMatchObject({ refund_cents: purchase.totalCents, reason: 'refunds.reason.withdrawal', deadline: { method: 'pix', business_days: 3, date: '2026-03-13' } })
    expect((await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))).json.outcome).toBe('applied')
    expect((await transitionsOf(purchase.id)).length).toBe(2)
    expect(await grantsOf(purchase.id)).toHaveLength(1)
  })

  it('renew-pix: a refused code fails the purchase; a new code puts it back to pending, and the old code’s events are ignored', async () => {
    const created = await buy(['diario-do-sono'], 'pix')
    const purchase = await stored(created.json.id)
    await settlePix(purchase.stripePaymentIntentId!, 'fail')
    await deliver(await event('payment_intent.payment_failed', purchase.stripePaymentIntentId!))
    const failed = await get(purchase.id)
    expect(failed.json).toMatchObject({ status: 'failed', pix: null, can_renew_pix: true, failure: { code: 'payment_intent_payment_attempt_failed' } })

    const renewed = await api.post(`/purchases/${purchase.id}/renew-pix/`, {}, { token: tokens.patient })
    expect(renewed.status).toBe(200)
    expect(renewed.json).toMatchObject({ status: 'pending', failure: null, can_renew_pix: false })
    expect(renewed.json.pix.data).not.toBe(created.json.pix.data)
    const after = await stored(purchase.id)
    expect(after.stripePaymentIntentId).not.toBe(purchase.stripePaymentIntentId)
    expect((await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId!)).status).toBe('canceled')
    await deliver(await event('payment_intent.canceled', purchase.stripePaymentIntentId!))
    expect((await stored(purchase.id)).status).toBe('pending')
    expect((await api.post(`/purchases/${purchase.id}/renew-pix/`, {}, { token: tokens.patient })).status).toBe(409)

    await settlePix(after.stripePaymentIntentId!, 'succeed')
    await deliver(await event('payment_intent.succeeded', after.stripePaymentIntentId!))
    expect(await transitionsOf(purchase.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'failed', 'webhook'],
      ['failed', 'pending', 'renew'],
      ['pending', 'paid', 'webhook'],
    ])
  })

  it('an expired PIX code expires the purchase (refresh-status), and renew-pix gives a new one', async () => {
    const created = await buy(['diario-do-sono'], 'pix')
    await later(31 * 60)
    const refreshed = await api.post(`/purchases/${created.json.id}/refresh-status/`, {}, { token: tokens.patient })
    expect(refreshed.json).toMatchObject({ status: 'expired', failure: { code: 'payment_intent_payment_attempt_expired' }, can_renew_pix: true })
    const renewed = await api.post(`/purchases/${created.json.id}/renew-pix/`, {}, { token: tokens.patient })
    expect(renewed.json.status).toBe('pending')
    expect(renewed.json.pix.expires_at).toBe(new Date(setup.time.clock() + 30 * 60_000).toISOString())
  })

  it('the tick reconciles a payment whose webhook never came, exactly once, and expires what was left unpaid', async () => {
    const paid = await stored((await buy(['curso-sono-reparador'], 'pix')).json.id)
    const unpaid = await stored((await buy(['diario-do-sono'], 'pix')).json.id)
    await settlePix(paid.stripePaymentIntentId!, 'succeed')
    // Not yet: a purchase is left to its webhook for a few minutes.
    expect(await purchasesTick(app.services)).toMatchObject({ checked: 0 })
    setup.time.advance(6 * 60)
    expect(await purchasesTick(app.services)).toMatchObject({ checked: 2, expired: 0 })
    expect((await stored(paid.id)).status).toBe('paid')
    expect(await transitionsOf(paid.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'paid', 'reconcile'],
    ])
    expect(await purchasesTick(app.services)).toMatchObject({ checked: 0 })
    expect(await grantsOf(paid.id)).toHaveLength(1)

    setup.time.advance(30 * 60)
    await purchasesTick(app.services)
    expect((await stored(unpaid.id)).status).toBe('expired')
    // The webhook of the payment after all: nothing more.
    expect((await deliver(await event('payment_intent.succeeded', paid.stripePaymentIntentId!))).json.outcome).toBe('applied')
    expect(await grantsOf(paid.id)).toHaveLength(1)
  })
})

describe('POST /purchases/{id}/cancel/', () => {
  it('cancels a pending PIX purchase and its PaymentIntent; a pending card purchase and its Checkout Session', async () => {
    const pix = await buy(['diario-do-sono'], 'pix')
    const cancelled = await api.post(`/purchases/${pix.json.id}/cancel/`, {}, { token: tokens.patient })
    expect(cancelled.status).toBe(200)
    expect(cancelled.json).toMatchObject({ status: 'cancelled', pix: null, can_cancel: false })
    expect((await stripe.paymentIntents.retrieve((await stored(pix.json.id)).stripePaymentIntentId!)).status).toBe('canceled')
    expect((await api.post(`/purchases/${pix.json.id}/cancel/`, {}, { token: tokens.patient })).status).toBe(409)

    const card = await buy(['diario-do-sono'], 'card')
    expect((await api.post(`/purchases/${card.json.id}/cancel/`, {}, { token: tokens.patient })).json.status).toBe('cancelled')
    expect((await stripe.checkout.sessions.retrieve((await stored(card.json.id)).stripeCheckoutSessionId!)).status).toBe('expired')
    expect(await transitionsOf(card.json.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'cancelled', 'cancel'],
    ])
  })

  it('within the 7 days a paid purchase is refunded in full, by Stripe, and what it gave ends', async () => {
    const purchase = await paidPix(['curso-sono-reparador', 'pacote-4-consultas'])
    expect((await api.get('/products/my-products/', { token: tokens.patient })).json.count).toBe(2)
    await later(6 * 24 * 3600)
    const before = await get(purchase.id)
    expect(before.json.refund_quote).toMatchObject({ refund_cents: purchase.totalCents, reason: 'refunds.reason.withdrawal', withdrawal_ends_at: '2026-03-18T03:00:00.000Z' })
    const answer = await api.post(`/purchases/${purchase.id}/cancel/`, {}, { token: tokens.patient })
    expect(answer.status).toBe(200)
    expect(answer.json).toMatchObject({ status: 'refunded', refunded_cents: purchase.totalCents, refund_quote: null, refunds: [{ amount_cents: purchase.totalCents, reason: 'cancel', status: 'succeeded' }] })
    expect((await stripe.refunds.list({ payment_intent: purchase.stripePaymentIntentId! })).data.map((refund) => refund.amount)).toEqual([purchase.totalCents])
    expect((await api.get('/products/my-products/', { token: tokens.patient })).json.count).toBe(0)
    expect(await db.select().from(consultationCredits)).toMatchObject([{ total: 0, used: 0 }])
    // Stripe's charge.refunded: already so.
    await deliver((await events('charge.refunded'))[0]!)
    expect((await transitionsOf(purchase.id)).at(-1)).toEqual(['paid', 'refunded', 'cancel'])
    expect(await db.select().from(purchaseRefunds)).toHaveLength(1)
  })

  it('after the 7 days: a course is kept and nothing refunded (409); a package gives back its unused credits pro rata', async () => {
    const course = await paidPix(['curso-sono-reparador'])
    const pack = await paidPix(['pacote-4-consultas'])
    await db.update(consultationCredits).set({ used: 1 }).where(eq(consultationCredits.purchaseId, pack.id))
    await later(8 * 24 * 3600)
    const refused = await api.post(`/purchases/${course.id}/cancel/`, {}, { token: tokens.patient })
    expect(refused.status).toBe(409)
    expect(refused.json.code).toBe('nothing_to_refund')
    expect((await get(course.id)).json).toMatchObject({ status: 'paid', can_cancel: false, refund_quote: { refund_cents: 0, deadline: null } })

    const answer = await api.post(`/purchases/${pack.id}/cancel/`, {}, { token: tokens.patient })
    // floor(64800 × 3 / 4)
    expect(answer.json).toMatchObject({ status: 'refunded', refunded_cents: 48_600 })
    expect((await stripe.refunds.list({ payment_intent: pack.stripePaymentIntentId! })).data.map((refund) => refund.amount)).toEqual([48_600])
    expect(await db.select().from(consultationCredits).where(eq(consultationCredits.purchaseId, pack.id))).toMatchObject([{ total: 1, used: 1 }])
  })
})

describe('GET /products/my-products/', () => {
  it("lists what the caller's paid purchases give: products, kinds, credits, newest first", async () => {
    await paidPix(['diario-do-sono'])
    setup.time.advance(60)
    await paidPix(['pacote-4-consultas-paula-ribeiro', 'programa-essencial-8-semanas'])
    await buy(['curso-sono-reparador'], 'pix')
    const answer = await api.get('/products/my-products/', { token: tokens.patient })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    expect(answer.json.count).toBe(3)
    const bySlug = Object.fromEntries(answer.json.results.map((entry: { product: { slug: string } }) => [entry.product.slug, entry]))
    expect(bySlug['diario-do-sono']).toMatchObject({
      kind: 'material',
      download_url: `${PUBLIC_URL}/products/my-products/${await productId('diario-do-sono')}/download/`,
      credits: null,
      available_at: new Date(NOW).toISOString(),
    })
    expect(bySlug['programa-essencial-8-semanas']).toMatchObject({ download_url: null })
    expect(bySlug['programa-essencial-8-semanas']).toMatchObject({ kind: 'program', credits: null })
    expect(bySlug['pacote-4-consultas-paula-ribeiro']).toMatchObject({
      kind: 'consultation_credits',
      credits: { total: 4, used: 0, remaining: 4, professional_id: 2 },
      product: { product_type: 'consultation_package', professional: { id: 2 } },
    })
    expect(answer.json.results[2].product.slug).toBe('diario-do-sono')
    expect((await api.get('/products/my-products/', { token: tokens.patient2 })).json.count).toBe(0)
  })

  it("a material's file to its buyer only, from when it is available, not after a refund (decision 0056)", async () => {
    const material = await productId('guia-planejamento-refeicoes')
    const purchase = await paidPix(['guia-planejamento-refeicoes'])
    const download = (token?: string, id = material) => app.request(`/products/my-products/${id}/download/`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
    const file = await download(tokens.patient)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="guia-planejamento-refeicoes.pdf"')
    expect(file.headers.get('cache-control')).toBe('private, no-store')
    const bytes = Buffer.from(await file.arrayBuffer())
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(Number(file.headers.get('content-length'))).toBe(bytes.length)
    // Nobody else, nothing that is not a material, nobody signed out.
    expect((await download(tokens.patient2)).status).toBe(404)
    expect((await download()).status).toBe(401)
    expect((await download(tokens.professional)).status).toBe(404)
    expect((await download(tokens.admin)).status).toBe(404)
    await paidPix(['programa-essencial-8-semanas'])
    expect((await download(tokens.patient, await productId('programa-essencial-8-semanas'))).status).toBe(404)
    // Granted for later: not yet, and said when.
    await db.update(purchaseGrants).set({ availableAt: new Date(NOW + 86_400_000) }).where(eq(purchaseGrants.purchaseId, purchase.id))
    const early = await download(tokens.patient)
    expect(early.status).toBe(409)
    expect(await early.json()).toMatchObject({ code: 'not_available_yet', available_at: new Date(NOW + 86_400_000).toISOString() })
    await db.update(purchaseGrants).set({ availableAt: new Date(NOW) }).where(eq(purchaseGrants.purchaseId, purchase.id))
    // Withdrawn within the 7 days: the file goes with the refund.
    expect((await api.post(`/purchases/${purchase.id}/cancel/`, {}, { token: tokens.patient })).status).toBe(200)
    expect((await download(tokens.patient)).status).toBe(404)
  })
})

// Two provider processes on one PostgreSQL database: the same event delivered to both at once.
const postgres = await createPostgresDatabase()
describe.skipIf('unavailable' in postgres)(`PostgreSQL: two provider processes${'unavailable' in postgres ? ` (skipped: ${postgres.unavailable})` : ''}`, () => {
  it('the same event delivered to both at once grants once; a refresh racing a webhook too', async () => {
    if ('unavailable' in postgres) return
    const second = await postgres.openAnother()
    const env = { FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/', FAKE_STRIPE_DUPLICATE_PERCENT: '0' }
    const one = testApp(postgres.handle.db, { env })
    const two = testApp(second.db, { env })
    try {
      const [a, b] = [client(one), client(two)]
      const token = (await a.login('paciente@innera.local')).access
      const pgDb = postgres.handle.db
      // A package: bought again and again (a course is not sold twice to one buyer).
      const [course] = await pgDb.select({ id: products.id }).from(products).where(eq(products.slug, 'pacote-4-consultas-paula-ribeiro'))
      const pay = async () => {
        const created = await a.post('/purchases/create/', { items: [{ product_id: course!.id, quantity: 1 }], method: 'pix', idempotency_key: newKey() }, { token })
        expect(created.status).toBe(201)
        const [row] = await pgDb.select().from(purchases).where(eq(purchases.id, created.json.id))
        const paid = await one.request(`${PUBLIC_URL}/fake-stripe/pix/${row!.stripePaymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        expect(paid.status).toBe(303)
        await one.services.background.idle()
        const [found] = await pgDb
          .select({ data: fakeStripeObjects.data })
          .from(fakeStripeObjects)
          .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = 'payment_intent.succeeded'`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${row!.stripePaymentIntentId}`))
        return { id: row!.id, event: found!.data as unknown as Stripe.Event }
      }
      const grants = async (id: number) => (await pgDb.select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, id))).length
      const paidTransitions = async (id: number) => (await pgDb.select().from(purchaseTransitions).where(and(eq(purchaseTransitions.purchaseId, id), eq(purchaseTransitions.toStatus, 'paid')))).length

      const first = await pay()
      const outcomes = await Promise.all([deliver(first.event, { at: Date.now(), target: a }), deliver(first.event, { at: Date.now(), target: b })])
      expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200])
      expect(outcomes.map((outcome) => outcome.json.outcome).sort()).toEqual(['applied', 'duplicate'])
      expect([await grants(first.id), await paidTransitions(first.id)]).toEqual([1, 1])

      const racing = await pay()
      const raced = await Promise.all([deliver(racing.event, { at: Date.now(), target: a }), b.post(`/purchases/${racing.id}/refresh-status/`, {}, { token })])
      expect(raced.map((outcome) => outcome.status)).toEqual([200, 200])
      expect([await grants(racing.id), await paidTransitions(racing.id)]).toEqual([1, 1])
    } finally {
      await one.services.background.idle()
      await two.services.background.idle()
      await second.close()
      await postgres.drop()
    }
  })
})

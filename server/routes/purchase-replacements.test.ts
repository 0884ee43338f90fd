import { and, asc, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { fakeStripeObjects, products, purchaseClaims, purchaseGrants, purchaseRefunds, purchases, purchaseTransitions } from '#server/db/schema.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { purchasesTick } from '#server/purchases/payments.ts'
import { recordTransition } from '#server/purchases/repository.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { client, describeOnPostgres, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

/**
 * A buyer's other checkouts of what they now own are cancelled (decision 0076): once a purchase is
 * paid for a course, the buyer's other purchases of it not final (a failed card purchase whose
 * Checkout page is still open at Stripe, a PIX code left open) are cancelled, naming the paid one
 * (`replaced_by_purchase_id`), and closed at Stripe: the page can no longer pay, the code neither.
 * Stripe away, they are cancelled all the same and the tick closes them later; money that arrives
 * all the same goes back in full (`superseded`).
 */

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const setup = withFakeStripe(NOW)

let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let stripe: Stripe
let secret: string
const tokens = { patient: '', patient2: '', professional: '', admin: '' }

async function signIn() {
  tokens.patient = (await api.login('paciente@innera.local')).access
  tokens.patient2 = (await api.login('paciente2@innera.local')).access
  tokens.professional = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
}

beforeAll(async () => {
  app = setup.fake.app
  db = setup.database.db
  stripe = setup.stripe
  api = client(app)
  secret = app.services.config.stripe.webhookSecret!
  await signIn()
})

let keys = 0
const newKey = () => `replaced-key-${String(++keys).padStart(8, '0')}`
const COURSE = 'curso-sono-reparador'

async function productId(slug: string): Promise<number> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.slug, slug))
  return row!.id
}

async function buy(slugs: string[], method: 'pix' | 'card', { token = tokens.patient } = {}) {
  const items = await Promise.all(slugs.map(async (slug) => ({ product_id: await productId(slug), quantity: 1 })))
  const urls = method === 'card' && { success_url: 'http://app.test/compras/{PURCHASE_ID}', cancel_url: 'http://app.test/carrinho' }
  const answer = await api.post('/purchases/create/', { items, method, idempotency_key: newKey(), ...urls }, { token })
  expect(answer.status).toBe(201)
  return answer.json as { id: number; checkout_url: string | null }
}

const stored = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!
const transitionsOf = async (id: number) =>
  (await db.select().from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, id)).orderBy(asc(purchaseTransitions.id))).map((row) => [row.fromStatus, row.toStatus, row.source])

async function events(type: string, objectId: string): Promise<Stripe.Event[]> {
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = ${type}`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}`))
    .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
  return rows.map((row) => row.data as unknown as Stripe.Event)
}

async function event(type: string, objectId: string): Promise<Stripe.Event> {
  const found = await events(type, objectId)
  if (found.length !== 1) throw new Error(`${found.length} events ${type} about ${objectId}`)
  return found[0]!
}

/** Delivers an event as Stripe would, to this test's provider or to another one (`to`) on the same database. */
function deliver(stripeEvent: Stripe.Event, to?: ProviderApp) {
  const payload = JSON.stringify(stripeEvent)
  const header = signatureHeader(payload, to ? to.services.config.stripe.webhookSecret! : secret, Math.floor(setup.time.clock() / 1000))
  return (to ? client(to) : api).call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } })
}

/** The buyer's bank pays a PIX code on the fake's page (whatever the code's state: the page says what it is after). */
async function payPixAtStripe(paymentIntentId: string) {
  const response = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await app.services.background.idle()
  expect(response.status).toBe(303)
}

/** A PIX purchase paid: its code paid at the fake, and Stripe's event delivered (to `to`, another provider, if given). */
async function paidByPix(purchaseId: number, to?: ProviderApp) {
  const paymentIntentId = (await stored(purchaseId)).stripePaymentIntentId!
  await payPixAtStripe(paymentIntentId)
  expect((await deliver(await event('payment_intent.succeeded', paymentIntentId), to)).json.outcome).toBe('applied')
  return stored(purchaseId)
}

/** The buyer pays on the fake's hosted Checkout page with a test card: its answer. */
function payCheckoutPage(url: string) {
  return app.request(url, {
    method: 'POST',
    body: new URLSearchParams({ card_number: '4242424242424242', expiry: '12/30', cvc: '123', name: 'Pedro Santos' }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

/** Marks a purchase failed on our side, as a refused or unstartable payment does, while its Checkout page or PIX code may still be paid at Stripe. */
async function failHere(id: number) {
  const purchase = await stored(id)
  await db.transaction((tx) => recordTransition(tx, purchase, 'failed', { source: 'webhook', now: setup.time.clock() }))
}

describe('a paid purchase of a course cancels the buyer’s other checkouts of it', () => {
  it('a card purchase left failed with its Checkout page open, the course then paid by PIX: cancelled, its page expired at Stripe, naming the paid one', async () => {
    const course = await productId(COURSE)
    const first = await buy([COURSE, 'diario-do-sono'], 'card')
    await failHere(first.id)
    const session = (await stored(first.id)).stripeCheckoutSessionId!
    expect((await stripe.checkout.sessions.retrieve(session)).status).toBe('open')

    const second = await buy([COURSE], 'pix')
    expect(await paidByPix(second.id)).toMatchObject({ status: 'paid' })

    expect(await stored(first.id)).toMatchObject({ status: 'cancelled', replacedByPurchaseId: second.id, checkoutUrl: null, stripeClosedAt: new Date(NOW) })
    expect(await transitionsOf(first.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'failed', 'webhook'],
      ['failed', 'cancelled', 'replaced'],
    ])
    // At Stripe: the session expired, so its hosted page no longer takes a card.
    expect((await stripe.checkout.sessions.retrieve(session)).status).toBe('expired')
    const page = await payCheckoutPage(first.checkout_url!)
    expect(page.status).toBe(409)
    expect(await page.text()).toContain('This payment page has expired')
    // Its page and the list say the course is the buyer's through the paid purchase.
    const read = await api.get(`/purchases/${first.id}/`, { token: tokens.patient })
    expect(read.json).toMatchObject({ status: 'cancelled', replaced_by_purchase_id: second.id, checkout_url: null, can_cancel: false, can_renew_pix: false })
    expect(read.json.transitions.at(-1)).toMatchObject({ from_status: 'failed', to_status: 'cancelled', source: 'replaced' })
    expect((await api.get(`/purchases/${second.id}/`, { token: tokens.patient })).json.replaced_by_purchase_id).toBeNull()
    const list = await api.get('/purchases/', { token: tokens.patient })
    expect(list.json.results.map((row: { id: number; replaced_by_purchase_id: number | null }) => [row.id, row.replaced_by_purchase_id])).toEqual([
      [second.id, null],
      [first.id, second.id],
    ])
    // The material that was beside the course in it is free again; the course is owned.
    expect(await db.select().from(purchaseClaims)).toMatchObject([{ productId: course, purchaseId: second.id }])
    // Stripe's news of the expiry changes nothing any more; cancelling again is refused.
    expect((await deliver(await event('checkout.session.expired', session))).status).toBe(200)
    expect((await stored(first.id)).status).toBe('cancelled')
    expect((await api.post(`/purchases/${first.id}/cancel/`, {}, { token: tokens.patient })).json).toMatchObject({ code: 'not_cancellable' })
  })

  it('a PIX code of a failed purchase left open, the course then paid by card: cancelled, its PaymentIntent cancelled at Stripe, the code no longer payable', async () => {
    const first = await buy([COURSE], 'pix')
    await failHere(first.id)
    const code = (await stored(first.id)).stripePaymentIntentId!

    const second = await buy([COURSE], 'card')
    expect((await payCheckoutPage(second.checkout_url!)).status).toBe(303)
    await app.services.background.idle()
    expect((await deliver(await event('checkout.session.completed', (await stored(second.id)).stripeCheckoutSessionId!))).json.outcome).toBe('applied')
    expect((await stored(second.id)).status).toBe('paid')

    expect(await stored(first.id)).toMatchObject({ status: 'cancelled', replacedByPurchaseId: second.id, pixData: null })
    expect(await stripe.paymentIntents.retrieve(code)).toMatchObject({ status: 'canceled', cancellation_reason: 'duplicate' })
    // The bank tries to pay the old code: refused at Stripe, no payment.
    await payPixAtStripe(code)
    expect((await stripe.paymentIntents.retrieve(code)).status).toBe('canceled')
    expect(await events('payment_intent.succeeded', code)).toEqual([])
    expect((await api.get(`/purchases/${first.id}/`, { token: tokens.patient })).json).toMatchObject({ status: 'cancelled', pix: null, replaced_by_purchase_id: second.id })
    // Renewing the cancelled code is refused.
    expect((await api.post(`/purchases/${first.id}/renew-pix/`, {}, { token: tokens.patient })).status).toBe(409)
  })

  it('only the buyer’s own purchases of that product, not final: another buyer’s, a package, a paid or cancelled one stay as they are', async () => {
    const others = await buy([COURSE], 'pix', { token: tokens.patient2 })
    const pack = await buy(['pacote-4-consultas'], 'pix')
    const cancelled = await buy([COURSE], 'pix')
    expect((await api.post(`/purchases/${cancelled.id}/cancel/`, {}, { token: tokens.patient })).json.status).toBe('cancelled')
    const paid = await buy([COURSE], 'pix')
    await paidByPix(paid.id)
    expect((await stored(others.id)).status).toBe('pending')
    expect((await stored(pack.id)).status).toBe('pending')
    expect(await stored(cancelled.id)).toMatchObject({ status: 'cancelled', replacedByPurchaseId: null })
    expect(await transitionsOf(cancelled.id)).toEqual([
      [null, 'pending', 'create'],
      ['pending', 'cancelled', 'cancel'],
    ])
    // Cancelled by the buyer before: its page still says where the course is now.
    expect((await api.get(`/purchases/${cancelled.id}/`, { token: tokens.patient })).json).toMatchObject({ status: 'cancelled', replaced_by_purchase_id: paid.id })
  })
})

describe('Stripe away, and money that arrives all the same', () => {
  const awayApp = () => testApp(db, { clock: setup.time.clock, env: { STRIPE_API_URL: 'http://127.0.0.1:9', FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/' } })

  it('cancelled here at once; the tick closes the code at Stripe once it answers, once', async () => {
    const first = await buy([COURSE], 'pix')
    await failHere(first.id)
    const code = (await stored(first.id)).stripePaymentIntentId!
    const second = await buy([COURSE], 'pix')
    const away = awayApp()
    await paidByPix(second.id, away)
    expect(await stored(first.id)).toMatchObject({ status: 'cancelled', replacedByPurchaseId: second.id, stripeClosedAt: null })
    expect((await stripe.paymentIntents.retrieve(code)).status).toBe('requires_action')
    expect((await api.get(`/purchases/${first.id}/`, { token: tokens.patient })).json).toMatchObject({ status: 'cancelled', pix: null })

    // Within the minute the tick leaves it (the payment's own call may still be at it); then closes it.
    expect(await purchasesTick(app.services)).toMatchObject({ closed: 0 })
    setup.time.advance(61)
    expect(await purchasesTick(app.services)).toMatchObject({ closed: 1 })
    expect((await stripe.paymentIntents.retrieve(code)).status).toBe('canceled')
    expect((await stored(first.id)).stripeClosedAt).toEqual(new Date(setup.time.clock()))
    setup.time.advance(61)
    expect(await purchasesTick(app.services)).toMatchObject({ closed: 0 })
  })

  it('the old code paid before Stripe was told: refunded in full as superseded, nothing granted, the course held by the paid one', async () => {
    const course = await productId(COURSE)
    const first = await buy([COURSE], 'pix')
    await failHere(first.id)
    const code = (await stored(first.id)).stripePaymentIntentId!
    const second = await buy([COURSE], 'pix')
    await paidByPix(second.id, awayApp())
    expect((await stored(first.id)).status).toBe('cancelled')

    await payPixAtStripe(code)
    expect((await deliver(await event('payment_intent.succeeded', code))).json.outcome).toBe('applied')
    expect(await stored(first.id)).toMatchObject({ status: 'refunded', refundedCents: (await stored(first.id)).totalCents, replacedByPurchaseId: second.id })
    expect(await db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, first.id))).toMatchObject([{ reason: 'superseded', status: 'succeeded' }])
    expect(await db.select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, first.id))).toEqual([])
    expect(await db.select().from(purchaseClaims)).toMatchObject([{ productId: course, purchaseId: second.id }])
    // The tick then finds it paid at Stripe: nothing to close, marked done.
    setup.time.advance(61)
    expect(await purchasesTick(app.services)).toMatchObject({ closed: 1 })
    expect((await stored(first.id)).status).toBe('refunded')
  })
})

// Two provider processes on one PostgreSQL database: two checkouts of one course, both failed
// here with their codes still open, both paid at once and their events delivered one to each.
await describeOnPostgres('PostgreSQL: two payments of one course at once, in two processes', (open) => {
  it('one is paid and holds the course, the other is given back as superseded; never a deadlock, round after round', async () => {
    const { first, second, dispose } = await open()
    await resetDatabase(first.db)
    const env = { FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/', FAKE_STRIPE_DUPLICATE_PERCENT: '0' }
    const one = testApp(first.db, { env })
    const two = testApp(second.db, { env })
    const pg = first.db
    try {
      const a = client(one)
      const token = (await a.login('paciente@innera.local')).access
      const ids = await pg.select({ id: products.id, slug: products.slug }).from(products)
      const signed = (to: ProviderApp, stripeEvent: Stripe.Event) => {
        const payload = JSON.stringify(stripeEvent)
        const header = signatureHeader(payload, to.services.config.stripe.webhookSecret!, Math.floor(Date.now() / 1000))
        return client(to).call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } })
      }
      /** A PIX checkout of the product, failed here with its code still open, then paid at Stripe: its id and Stripe's event. */
      const failedThenPaid = async (productId: number) => {
        const created = await a.post('/purchases/create/', { items: [{ product_id: productId, quantity: 1 }], method: 'pix', idempotency_key: newKey() }, { token })
        expect(created.status).toBe(201)
        const [row] = await pg.select().from(purchases).where(eq(purchases.id, created.json.id))
        await pg.transaction((tx) => recordTransition(tx, row!, 'failed', { source: 'webhook', now: Date.now() }))
        return { id: row!.id, paymentIntentId: row!.stripePaymentIntentId! }
      }
      for (const slug of ['curso-sono-reparador', 'curso-comida-de-verdade', 'diario-do-sono', 'programa-essencial-8-semanas']) {
        const productId = ids.find((row) => row.slug === slug)!.id
        const pair = [await failedThenPaid(productId), await failedThenPaid(productId)]
        const paidEvents: Stripe.Event[] = []
        for (const { paymentIntentId } of pair) {
          const paid = await one.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
          expect(paid.status).toBe(303)
          await one.services.background.idle()
          const [found] = await pg
            .select({ data: fakeStripeObjects.data })
            .from(fakeStripeObjects)
            .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = 'payment_intent.succeeded'`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${paymentIntentId}`))
          paidEvents.push(found!.data as unknown as Stripe.Event)
        }
        const answers = await Promise.all([signed(one, paidEvents[0]!), signed(two, paidEvents[1]!)])
        expect(answers.map((answer) => [answer.status, answer.json.outcome]), slug).toEqual([
          [200, 'applied'],
          [200, 'applied'],
        ])
        await one.services.background.idle()
        await two.services.background.idle()
        const rows = await pg.select().from(purchases).where(sql`${purchases.id} in (${pair[0]!.id}, ${pair[1]!.id})`).orderBy(asc(purchases.id))
        expect(rows.map((row) => row.status).sort(), slug).toEqual(['paid', 'refunded'])
        const winner = rows.find((row) => row.status === 'paid')!
        const loser = rows.find((row) => row.status === 'refunded')!
        expect(await pg.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, loser.id)), slug).toMatchObject([{ reason: 'superseded', amountCents: loser.totalCents }])
        expect(await pg.select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, loser.id)), slug).toEqual([])
        expect(await pg.select().from(purchaseClaims).where(eq(purchaseClaims.productId, productId)), slug).toMatchObject([{ purchaseId: winner.id }])
      }
    } finally {
      await one.services.background.idle()
      await two.services.background.idle()
      await dispose()
    }
  })
})

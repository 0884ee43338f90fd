import { and, asc, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, expect } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { fakeStripeObjects, outbox, products, purchases, subscriptions } from '#server/db/schema.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import type { withFakeStripe } from '#server/testing/stripe.ts'
import { client, PUBLIC_URL } from '#server/testing/harness.ts'

/**
 * What the subscriptions' provider tests do again and again (decision 0052): sign the seeded people
 * in, subscribe, pay a PIX code on the fake's page or a card on its Checkout page, and deliver the
 * fake Stripe's events to the webhook as Stripe would. Call it at the top of a test file, after
 * `withFakeStripe`; what it returns is ready in the file's tests.
 */

export type Role = 'patient' | 'patient2' | 'professional' | 'admin'
const EMAILS: Record<Role, string> = { patient: 'paciente@innera.local', patient2: 'paciente2@innera.local', professional: 'profissional@innera.local', admin: 'admin@innera.local' }
export const URLS = { success_url: 'http://app.test/compras/{PURCHASE_ID}', cancel_url: 'http://app.test/assinaturas' }
/** The events of Stripe Billing the provider listens to. */
export const BILLING_EVENTS = ['checkout.session.completed', 'customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.paid', 'invoice.payment_failed']

export function subscriptionHelpers(setup: ReturnType<typeof withFakeStripe>) {
  const state = {} as { app: ProviderApp; db: Database; api: ReturnType<typeof client>; secret: string; stripe: Stripe }
  const tokens: Record<Role, string> = { patient: '', patient2: '', professional: '', admin: '' }
  let keys = 0

  async function signIn() {
    for (const role of Object.keys(EMAILS) as Role[]) tokens[role] = (await state.api.login(EMAILS[role])).access
  }

  beforeAll(async () => {
    state.app = setup.fake.app
    state.db = setup.database.db
    state.api = client(state.app)
    state.secret = state.app.services.config.stripe.webhookSecret!
    state.stripe = setup.stripe
    await signIn()
  })

  const newKey = () => `subscription-key-${String(++keys).padStart(6, '0')}`
  const purchaseRow = async (id: number) => (await state.db.select().from(purchases).where(eq(purchases.id, id)))[0]!
  const subscriptionRow = async (id: number) => (await state.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!

  function subscribe(product: number, method: 'pix' | 'card' = 'pix', { token = tokens.patient, key = newKey() } = {}) {
    return state.api.post('/subscriptions/create/', { product_id: product, method, idempotency_key: key, ...(method === 'card' && URLS) }, { token })
  }

  /** The newest event of this type about this object. */
  async function event(type: string, objectId: string): Promise<Stripe.Event> {
    const rows = await state.db
      .select({ data: fakeStripeObjects.data })
      .from(fakeStripeObjects)
      .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = ${type}`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}`))
      .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
    return rows.at(-1)!.data as unknown as Stripe.Event
  }

  function deliver(stripeEvent: Stripe.Event) {
    const payload = JSON.stringify(stripeEvent)
    return state.api.call('POST', '/purchases/webhook/', {
      rawBody: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader(payload, state.secret, Math.floor(setup.time.clock() / 1000)) },
    })
  }

  /** Every event of these types the fake Stripe made, delivered in order (as Stripe would, at least once). */
  async function deliverAll(types: string[] = BILLING_EVENTS) {
    const rows = await state.db.select({ data: fakeStripeObjects.data }).from(fakeStripeObjects).where(eq(fakeStripeObjects.type, 'event')).orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
    const events = rows.map((row) => row.data as unknown as Stripe.Event).filter((item) => types.includes(item.type))
    return Promise.all(events.map(async (item) => (await deliver(item)).json.outcome))
  }

  /** The subscriber's bank pays (or refuses) the PIX code on the fake's page, and Stripe's event arrives. */
  async function settlePix(purchaseId: number, decision: 'succeed' | 'fail') {
    const paymentIntentId = (await purchaseRow(purchaseId)).stripePaymentIntentId!
    const response = await state.app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, {
      method: 'POST',
      body: new URLSearchParams({ decision }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await state.app.services.background.idle()
    expect(response.status).toBe(303)
    await deliver(await event(decision === 'succeed' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', paymentIntentId))
  }

  /** A subscription to the plan, its first code paid: active from now. */
  async function activeSubscription(product: number, token = tokens.patient): Promise<{ id: number; open_payment_id: number }> {
    const created = await subscribe(product, 'pix', { token })
    expect(created.status).toBe(201)
    await settlePix(created.json.open_payment_id, 'succeed')
    return created.json
  }

  /** A renewing plan subscribed by card on the fake's Checkout page, its events delivered. */
  async function subscribeByCard(product: number, card = '4242424242424242'): Promise<number> {
    const created = await subscribe(product, 'card')
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ status: 'incomplete', checkout_url: expect.stringMatching(/^http/), open_payment_id: null })
    const paid = await state.app.request(created.json.checkout_url, {
      method: 'POST',
      body: new URLSearchParams({ card_number: card, expiry: '12/30', cvc: '123', name: 'Pedro Santos', email: EMAILS.patient }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await state.app.services.background.idle()
    expect(paid.status).toBe(303)
    await deliverAll()
    return created.json.id as number
  }

  return {
    state,
    tokens,
    signIn,
    newKey,
    /** Moves the clock on; tokens last 5 minutes, so everyone signs in again. */
    later: async (ms: number) => {
      setup.time.advance(ms / 1000)
      await signIn()
    },
    productId: async (slug: string) => (await state.db.select({ id: products.id }).from(products).where(eq(products.slug, slug)))[0]!.id,
    mailTo: async (email: string) => (await state.db.select().from(outbox).where(eq(outbox.to, email))).map((row) => row.subject),
    purchaseRow,
    subscriptionRow,
    subscribe,
    event,
    deliver,
    deliverAll,
    settlePix,
    activeSubscription,
    subscribeByCard,
  }
}

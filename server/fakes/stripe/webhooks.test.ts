import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { fakeStripeDeliveries } from '#server/db/schema.ts'
import type { LogEntry } from '#server/log.ts'
import { startFakeStripe, startWebhookEndpoint, type FakeStripeServer, type WebhookEndpoint } from '#server/testing/stripe.ts'
import { createMemoryDatabase, fakeClock, resetDatabase } from '#server/testing/harness.ts'
import { newId, recordEvent } from '#server/fakes/stripe/store.ts'
import { createWebhookSender, DUPLICATE_DELAY_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS, signatureHeader } from '#server/fakes/stripe/webhooks.ts'

const NOW = Date.parse('2026-03-02T12:00:00Z')
const time = fakeClock(NOW)
let database: DatabaseHandle
let endpoint: WebhookEndpoint
let fake: FakeStripeServer
/** The fake's signing secret: this test process's own (testing/harness.ts), never a constant. */
const webhookSecret = () => fake.app.services.config.stripe.webhookSecret!
let stripe: Stripe
const logged: LogEntry[] = []

beforeAll(async () => {
  database = await createMemoryDatabase()
  endpoint = await startWebhookEndpoint()
  fake = await startFakeStripe(database.db, { clock: time.clock, env: { FAKE_STRIPE_WEBHOOK_URL: endpoint.url }, log: (entry) => logged.push(entry) })
  stripe = fake.stripe
})
afterAll(async () => {
  await fake.close()
  await endpoint.close()
  await database.close()
})
beforeEach(async () => {
  time.set(NOW)
  await fake.app.services.background.idle()
  await resetDatabase(database.db)
  endpoint.received.length = 0
  endpoint.answers = []
  logged.length = 0
})

/** The webhooks a call caused, once its background delivery is done. */
async function settled<T>(call: Promise<T>): Promise<T> {
  const result = await call
  await fake.app.services.background.idle()
  return result
}

const deliverDue = () => fake.app.fakes.stripeWebhooks!.deliverDue()
const types = () => endpoint.received.map((webhook) => webhook.event.type)

describe('webhook signatures', () => {
  it('are what the SDK’s constructEvent checks, over the raw body', async () => {
    const intent = await settled(stripe.paymentIntents.create({ amount: 15_000, currency: 'brl', payment_method: 'pm_card_visa', confirm: true }))
    expect(types().sort()).toEqual(['charge.succeeded', 'payment_intent.created', 'payment_intent.succeeded'])
    for (const { headers, body, event } of endpoint.received) {
      const header = headers['stripe-signature'] as string
      expect(header).toMatch(new RegExp(`^t=${NOW / 1000},v1=[0-9a-f]{64}$`))
      expect(headers['content-type']).toBe('application/json; charset=utf-8')
      expect(headers['user-agent']).toMatch(/^Stripe\/1\.0/)
      const checked = stripe.webhooks.constructEvent(body, header, webhookSecret(), 300, undefined, NOW)
      expect(checked.id).toBe(event.id)
      expect(checked.id).toMatch(/^evt_/)
    }
    const succeeded = endpoint.received.find((webhook) => webhook.event.type === 'payment_intent.succeeded')!
    expect(succeeded.event.data.object).toMatchObject({ id: intent.id, status: 'succeeded' })
  })

  it('match the SDK’s own test header, and fail for a changed body, another secret or an old timestamp', async () => {
    await settled(stripe.customers.create({ email: 'paciente@innera.local' }))
    const [{ headers, body }] = endpoint.received as [(typeof endpoint.received)[number]]
    const header = headers['stripe-signature'] as string
    expect(header).toBe(stripe.webhooks.generateTestHeaderString({ payload: body, secret: webhookSecret(), timestamp: NOW / 1000 }))
    expect(signatureHeader(body, webhookSecret(), NOW / 1000)).toBe(header)

    // receivedAt is in milliseconds.
    const check = (payload: string, secret = webhookSecret(), receivedAt = NOW) => () => stripe.webhooks.constructEvent(payload, header, secret, 300, undefined, receivedAt)
    expect(check(body.replace('paciente@', 'outra@'))).toThrow(Stripe.errors.StripeSignatureVerificationError)
    expect(check(body, 'whsec_another_secret')).toThrow(Stripe.errors.StripeSignatureVerificationError)
    expect(check(body)).not.toThrow()
    expect(check(body, webhookSecret(), NOW + 301_000)).toThrow(/Timestamp outside the tolerance zone/)
  })
})

describe('webhook delivery', () => {
  it('retries a failing endpoint with backoff, the same event each time', async () => {
    endpoint.answers = [500, 503]
    await settled(stripe.customers.create({ email: 'a@innera.local' }))
    expect(endpoint.received).toHaveLength(1)
    expect(await deliverDue()).toEqual({ delivered: 0, retrying: 0, failed: 0 })

    time.advance(RETRY_DELAYS_MS[0]! / 1000 - 1)
    expect((await deliverDue()).retrying).toBe(0)
    time.advance(1)
    expect(await deliverDue()).toEqual({ delivered: 0, retrying: 1, failed: 0 })
    const [row] = await database.db.select().from(fakeStripeDeliveries)
    expect(row).toMatchObject({ attempts: 2, lastError: 'HTTP 503', deliveredAt: null })
    expect(row!.nextAttemptAt.getTime()).toBe(time.clock() + RETRY_DELAYS_MS[1]!)

    time.advance(RETRY_DELAYS_MS[1]! / 1000)
    expect(await deliverDue()).toEqual({ delivered: 1, retrying: 0, failed: 0 })
    expect(new Set(endpoint.received.map((webhook) => webhook.event.id)).size).toBe(1)
    const stamps = endpoint.received.map((webhook) => Number(/^t=(\d+)/.exec(webhook.headers['stripe-signature'] as string)![1]))
    expect(stamps).toEqual([NOW / 1000, NOW / 1000 + 60, NOW / 1000 + 360])
    // The signature is made at each sending, so a late retry still passes the tolerance check.
    const last = endpoint.received.at(-1)!
    expect(() => stripe.webhooks.constructEvent(last.body, last.headers['stripe-signature'] as string, webhookSecret(), 300, undefined, NOW + 360_000)).not.toThrow()
  })

  it('gives up after about three days, and says so in the log', async () => {
    endpoint.answers = Array.from({ length: MAX_ATTEMPTS }, () => 500)
    await settled(stripe.customers.create({ email: 'a@innera.local' }))
    for (const delay of RETRY_DELAYS_MS) {
      time.advance(delay / 1000)
      await deliverDue()
    }
    expect(endpoint.received).toHaveLength(MAX_ATTEMPTS)
    const [row] = await database.db.select().from(fakeStripeDeliveries)
    expect(row).toMatchObject({ attempts: MAX_ATTEMPTS, lastError: 'HTTP 500', failedAt: expect.any(Date) })
    expect(RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0) / 3_600_000).toBeCloseTo(65.6, 1)
    expect(logged).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'fake stripe webhook given up', attempts: MAX_ATTEMPTS }))
    time.advance(86_400)
    expect(await deliverDue()).toEqual({ delivered: 0, retrying: 0, failed: 0 })
  })

  it('counts a redirect, a closed port and a timeout as failures', async () => {
    endpoint.answers = [302]
    await settled(stripe.customers.create({ email: 'a@innera.local' }))
    expect((await database.db.select().from(fakeStripeDeliveries))[0]!.lastError).toBe('HTTP 302')

    await database.db.update(fakeStripeDeliveries).set({ url: 'http://127.0.0.1:9/closed/', nextAttemptAt: new Date(time.clock()) })
    expect((await deliverDue()).retrying).toBe(1)
    expect((await database.db.select().from(fakeStripeDeliveries))[0]!.lastError).toMatch(/^no answer/)

    const hanging = createWebhookSender({
      db: database.db,
      secret: webhookSecret(),
      clock: time.clock,
      log: () => undefined,
      duplicatePercent: 0,
      fetch: (_url, init) => new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason))),
      timeoutMs: 50,
    })
    time.advance(3600)
    expect((await hanging.deliverDue()).retrying).toBe(1)
    expect((await database.db.select().from(fakeStripeDeliveries))[0]!.lastError).toBe('timeout')
  })

  it('sends a delivered event once more now and then, never a duplicate of a duplicate', async () => {
    // The app's own sender duplicates nothing here (FAKE_STRIPE_DUPLICATE_PERCENT=0); these draw what they are told.
    const sender = (draw: number) =>
      createWebhookSender({ db: database.db, secret: webhookSecret(), clock: time.clock, log: () => undefined, fetch, duplicatePercent: 5, random: () => draw })
    const record = () => recordEvent(database.db, 'customer.created', { id: newId('cus', 14), object: 'customer' }, { now: time.clock(), webhookUrl: endpoint.url })

    const first = await record()
    expect(await sender(0.049).deliverDue()).toEqual({ delivered: 1, retrying: 0, failed: 0 })
    expect((await sender(0).deliverDue()).delivered).toBe(0)
    time.advance(DUPLICATE_DELAY_MS / 1000)
    expect((await sender(0).deliverDue()).delivered).toBe(1)
    time.advance(60)
    expect((await sender(0).deliverDue()).delivered).toBe(0)
    expect(endpoint.received.map((webhook) => webhook.event.id)).toEqual([first.id, first.id])

    await record()
    expect((await sender(0.05).deliverDue()).delivered).toBe(1)
    time.advance(60)
    expect((await sender(0).deliverDue()).delivered).toBe(0)
    expect(endpoint.received).toHaveLength(3)
  })

  it('never sends one delivery twice when two processes deliver at once', async () => {
    for (let index = 0; index < 30; index++) await recordEvent(database.db, 'customer.created', { id: newId('cus', 14), object: 'customer' }, { now: time.clock(), webhookUrl: endpoint.url })
    const other = createWebhookSender({ db: database.db, secret: webhookSecret(), clock: time.clock, log: () => undefined, fetch, duplicatePercent: 0 })
    const reports = await Promise.all([deliverDue(), other.deliverDue(), deliverDue()])
    expect(reports.reduce((sum, report) => sum + report.delivered, 0)).toBe(30)
    expect(new Set(endpoint.received.map((webhook) => webhook.event.id)).size).toBe(30)
    expect(endpoint.received).toHaveLength(30)
  })
})

describe('the fake Stripe’s tick', () => {
  it('expires unpaid PIX charges and sends what is due', async () => {
    const intent = await settled(
      stripe.paymentIntents.create({
        amount: 18_000,
        currency: 'brl',
        allowed_payment_method_types: ['pix'],
        payment_method_data: { type: 'pix' },
        payment_method_options: { pix: { expires_after_seconds: 60 } },
        confirm: true,
      }),
    )
    expect(types().sort()).toEqual(['payment_intent.created', 'payment_intent.requires_action'])
    time.advance(60)
    expect(await fake.app.fakes.stripeTick()).toEqual({ expired: 1, subscriptions: 0, delivered: 1, retrying: 0, failed: 0 })
    const failed = endpoint.received.at(-1)!.event
    expect(failed).toMatchObject({ type: 'payment_intent.payment_failed', data: { object: { id: intent.id, status: 'requires_payment_method' } } })
    expect(await fake.app.fakes.stripeTick()).toEqual({ expired: 0, subscriptions: 0, delivered: 0, retrying: 0, failed: 0 })
  })
})

import { randomInt } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProviderApp, type ProviderApp } from '#server/app.ts'
import { openDatabase, type Database, type DatabaseHandle } from '#server/db/client.ts'
import { outbox } from '#server/db/schema.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { notReadyResponse } from '#server/http/starting.ts'
import { serveMetrics } from '#server/metrics/serve.ts'
import { client, createMemoryDatabase, createPostgresDatabase, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'
import { parseExposition, valueOf } from '#server/testing/prometheus.ts'
import { startFakeStripe, type FakeStripeServer } from '#server/testing/stripe.ts'

/**
 * The provider's /metrics (decision 0089, docs/metrics.md) and its readiness: the series on their
 * own port only, read back in Prometheus' text format, bounded whatever the URLs, and moving with
 * requests, webhooks, jobs and the outbox; /readyz/ 503 while the database does not answer.
 */

const NOW = Date.parse('2026-03-10T15:00:00Z')
const time = fakeClock(NOW)
let database: DatabaseHandle
let app: ProviderApp

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock })
})
afterAll(() => database.close())

const scrape = async (target: ProviderApp = app) => parseExposition(await target.services.metrics.registry.metrics())

describe('the metrics port', () => {
  it('answers GET /metrics in the text format on its own port, and nothing else; the API port has no /metrics', async () => {
    const server = await serveMetrics(app.services.metrics.registry, { port: 0, host: '127.0.0.1' })
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      await client(app).get('/healthz/')
      const response = await fetch(`${base}/metrics`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      const exposition = parseExposition(await response.text())
      expect(exposition.types.get('innera_provider_http_requests_total')).toBe('counter')
      expect(exposition.types.get('innera_provider_http_request_duration_seconds')).toBe('histogram')
      expect(valueOf(exposition, 'innera_provider_http_requests_total', { route: '/healthz/', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1)
      expect((await fetch(`${base}/`)).status).toBe(404)
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405)
    } finally {
      server.close()
    }
    expect((await client(app).get('/metrics')).status).toBe(404)
  })

  it('is bound to the address it is given (loopback by default in the configuration)', async () => {
    expect(testApp(database.db, { env: { PROVIDER_METRICS_PORT: '9465' } }).services.config.metrics).toEqual({ port: 9465, host: '127.0.0.1' })
    expect(testApp(database.db).services.config.metrics).toBeUndefined()
    const server = await serveMetrics(app.services.metrics.registry, { port: 0, host: '127.0.0.1' })
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1')
    server.close()
  })
})

describe('requests', () => {
  it('count by the matched route pattern and status, with their latency, and the counter rises', async () => {
    const before = valueOf(await scrape(), 'innera_provider_http_requests_total', { route: '/pillars/', method: 'GET', status: '200' })
    const latencyBefore = valueOf(await scrape(), 'innera_provider_http_request_duration_seconds_count', { route: '/pillars/', method: 'GET' })
    for (let i = 0; i < 3; i++) expect((await client(app).get('/pillars/')).status).toBe(200)
    const after = await scrape()
    expect(valueOf(after, 'innera_provider_http_requests_total', { route: '/pillars/', method: 'GET', status: '200' })).toBe(before + 3)
    expect(valueOf(after, 'innera_provider_http_request_duration_seconds_count', { route: '/pillars/', method: 'GET' })).toBe(latencyBefore + 3)
    expect(valueOf(after, 'innera_provider_http_request_duration_seconds_bucket', { route: '/pillars/', method: 'GET', le: '+Inf' })).toBe(latencyBefore + 3)
  })

  it('a thousand distinct ids and a thousand unknown paths make no new series', async () => {
    const api = client(app)
    // Warm: each kind of request once, so its series exist.
    await api.get('/purchases/1/')
    await api.get('/no-such-path-0/')
    await api.call('BREW', '/purchases/1/')
    const series = (await scrape()).series.size
    for (let i = 2; i <= 1001; i++) await api.get(`/purchases/${i}/`)
    for (let i = 1; i <= 1000; i++) await api.get(`/no-such-path-${i}/?q=${i}`)
    const after = await scrape()
    expect(after.series.size).toBe(series)
    expect(valueOf(after, 'innera_provider_http_requests_total', { route: '/purchases/:id/', method: 'GET', status: '401' })).toBeGreaterThanOrEqual(1001)
    expect(valueOf(after, 'innera_provider_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1001)
    expect([...after.series].filter((line) => /purchases\/\d|no-such-path/.test(line))).toEqual([])
  }, 60_000)
})

describe('the outbox, the pool and the jobs', () => {
  it('the outbox gauges say how many e-mails wait and for how long', async () => {
    await resetDatabase(database.db)
    expect(valueOf(await scrape(), 'innera_provider_mail_outbox_pending')).toBe(0)
    expect(valueOf(await scrape(), 'innera_provider_mail_outbox_oldest_pending_seconds')).toBe(0)
    const created = new Date(NOW - 90_000)
    await database.db.insert(outbox).values([
      { to: 'a@example.com', subject: 'a', textBody: 'a', createdAt: created },
      { to: 'b@example.com', subject: 'b', textBody: 'b', createdAt: new Date(NOW - 10_000) },
      { to: 'c@example.com', subject: 'c', textBody: 'c', createdAt: new Date(NOW - 500_000), sentAt: new Date(NOW - 400_000) },
    ])
    const exposition = await scrape()
    expect(valueOf(exposition, 'innera_provider_mail_outbox_pending')).toBe(2)
    expect(valueOf(exposition, 'innera_provider_mail_outbox_oldest_pending_seconds')).toBe(90)
    await resetDatabase(database.db)
  })

  it('the pool gauge reports the database handle’s connections (PGlite: its one)', async () => {
    const withPool = createProviderApp({ db: database.db, config: testApp(database.db).services.config, poolStats: database.poolStats })
    const exposition = await scrape(withPool)
    expect(valueOf(exposition, 'innera_provider_db_pool_connections', { driver: 'pglite', state: 'total' })).toBe(1)
    expect(valueOf(exposition, 'innera_provider_db_pool_max', { driver: 'pglite' })).toBe(1)
  })

  it('on PostgreSQL, the pool gauge counts node-postgres’ connections: total, idle, and requests waiting for one', async (context) => {
    const postgres = await createPostgresDatabase()
    if ('unavailable' in postgres) return context.skip(postgres.unavailable)
    try {
      const pooled = createProviderApp({ db: postgres.handle.db, config: testApp(postgres.handle.db).services.config, poolStats: postgres.handle.poolStats })
      const pool = async () => {
        const exposition = await scrape(pooled)
        return Object.fromEntries(['total', 'idle', 'waiting'].map((state) => [state, valueOf(exposition, 'innera_provider_db_pool_connections', { driver: 'postgres', state })]))
      }
      expect(valueOf(await scrape(pooled), 'innera_provider_db_pool_max', { driver: 'postgres' })).toBe(10)
      // Twelve statements at once on a pool of ten, each waiting for a lock that a transaction of
      // another pool holds until the test lets it go: ten connections busy and two requests
      // waiting (the scrape's own outbox query may wait too) for as long as needed, whatever the
      // machine's load; then all idle. (then: drizzle's statements run once something waits for them.)
      const another = await postgres.openAnother()
      const key = randomInt(1, 2 ** 31)
      let release = () => {}
      const released = new Promise<void>((resolve) => (release = resolve))
      let holding = () => {}
      const held = new Promise<void>((resolve) => (holding = resolve))
      const holder = another.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${key})`)
        holding()
        await released
      })
      try {
        await held
        const busy = Array.from({ length: 12 }, () => postgres.handle.db.execute(sql`SELECT pg_advisory_xact_lock_shared(${key})`).then(() => undefined))
        await expect
          .poll(async () => {
            const { total, idle, waiting } = await pool()
            return total === 10 && idle === 0 && waiting !== undefined && waiting >= 2
          }, { timeout: 30_000, interval: 20 })
          .toBe(true)
        release()
        await Promise.all([holder, ...busy])
        // The earlier scrapes' outbox queries, which waited behind the lock too, end just after.
        await expect.poll(pool, { timeout: 10_000, interval: 20 }).toMatchObject({ total: 10, idle: 10, waiting: 0 })
      } finally {
        release()
        await holder.catch(() => undefined)
        await another.close()
      }
    } finally {
      await postgres.drop()
    }
  })

  it('a periodic job’s runs and failures are counted by its name', async () => {
    const jobs = testApp(database.db)
    let runs = 0
    jobs.services.background.every('flaky', 5, async () => {
      runs += 1
      if (runs % 2 === 0) throw new Error('boom')
    })
    await expect.poll(() => runs, { timeout: 5_000 }).toBeGreaterThanOrEqual(4)
    await jobs.services.background.stop()
    const exposition = await scrape(jobs)
    const counted = valueOf(exposition, 'innera_provider_job_runs_total', { job: 'flaky' })
    expect(counted).toBe(runs)
    expect(valueOf(exposition, 'innera_provider_job_failures_total', { job: 'flaky' })).toBe(Math.floor(runs / 2))
    expect(valueOf(exposition, 'innera_provider_job_last_success_timestamp_seconds', { job: 'flaky' })).toBeGreaterThan(0)
  })
})

describe('the live message streams', () => {
  it('the gauge counts the streams open now: up when one opens, down when its client goes', async () => {
    const api = client(app)
    const { access } = await api.login('paciente@innera.local')
    const open = async () => valueOf(await scrape(), 'innera_provider_message_streams_open')
    const before = await open()
    const controller = new AbortController()
    const response = await app.request('http://provider.test/messages/stream/', { headers: { authorization: `Bearer ${access}` }, signal: controller.signal })
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    await expect.poll(open).toBe(before + 1)
    controller.abort()
    await reader.cancel()
    await expect.poll(open).toBe(before)
  })
})

describe('the payment webhook', () => {
  let fake: FakeStripeServer
  beforeAll(async () => {
    fake = await startFakeStripe(database.db, { clock: time.clock, env: { FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/unused/' } })
  })
  afterAll(() => fake.close())

  it('counts applied, ignored, duplicate and refused events', async () => {
    const secret = fake.app.services.config.stripe.webhookSecret!
    const deliver = (payload: string, signature = signatureHeader(payload, secret, Math.floor(time.clock() / 1000))) =>
      client(fake.app).call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } })
    const outcomes = async () => {
      const exposition = await scrape(fake.app)
      return Object.fromEntries(['applied', 'duplicate', 'ignored', 'mismatch', 'refused', 'failed'].map((outcome) => [outcome, valueOf(exposition, 'innera_provider_payment_webhooks_total', { outcome })]))
    }
    // Every outcome's series is there from the start, at 0: a rate over it works before the first event.
    expect(await outcomes()).toEqual({ applied: 0, duplicate: 0, ignored: 0, mismatch: 0, refused: 0, failed: 0 })
    const event = { id: 'evt_metrics_0001', object: 'event', type: 'customer.created', created: Math.floor(time.clock() / 1000), livemode: false, data: { object: { id: 'cus_metrics' } } } as unknown as Stripe.Event
    const payload = JSON.stringify(event)
    expect((await deliver(payload)).json).toMatchObject({ outcome: 'ignored' })
    expect((await deliver(payload)).json).toMatchObject({ outcome: 'duplicate' })
    expect((await deliver(payload, 't=1,v1=00')).status).toBe(400)
    expect(await outcomes()).toEqual({ applied: 0, duplicate: 1, ignored: 1, mismatch: 0, refused: 1, failed: 0 })
  })
})

describe('GET /readyz/', () => {
  /** The database, or one that refuses every statement while `down` (a lost connection). */
  function switchable(db: Database) {
    const state = { down: false }
    const proxy = new Proxy(db, {
      get(target, property, receiver) {
        if (property === 'execute' && state.down) return () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'))
        return Reflect.get(target, property, receiver)
      },
    })
    return { db: proxy, state }
  }

  it('is 503 "not ready" while the database is unreachable, 200 once it answers again', async () => {
    const { db, state } = switchable(database.db)
    const api = client(testApp(db))
    expect(await api.get('/readyz/')).toMatchObject({ status: 200, json: { status: 'ready', database: 'ok' } })
    state.down = true
    const down = await api.get('/readyz/')
    expect(down).toMatchObject({ status: 503, json: { status: 'not ready', database: 'unreachable' } })
    expect(down.headers.get('retry-after')).toBe('5')
    expect(down.headers.get('cache-control')).toBe('no-store')
    state.down = false
    expect(await api.get('/readyz/')).toMatchObject({ status: 200, json: { status: 'ready' } })
  })

  it('is 503 with a PostgreSQL server that does not answer (nothing listens on the port)', async () => {
    const unreachable = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/postgres' })
    try {
      expect(await client(testApp(unreachable.db)).get('/readyz/')).toMatchObject({ status: 503, json: { status: 'not ready', database: 'unreachable' } })
    } finally {
      await unreachable.close()
    }
  })

  it('while the process starts (migrations), every path answers 503 "not ready" and says why', async () => {
    const response = notReadyResponse('migrating')
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(await response.json()).toEqual({ status: 'not ready', reason: 'migrating' })
  })
})

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import type Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Clock } from '#server/clock.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import type { Logger } from '#server/log.ts'
import { createStripeClient } from '#server/stripe/client.ts'
import { createMemoryDatabase, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'

/**
 * The provider on a loopback port with the official Stripe SDK pointed at its fake Stripe (Node's
 * http, no in-process shortcut), and a webhook endpoint on another port that records what it is
 * sent and answers what a test tells it to.
 */

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string; event: { id: string; type: string; data: { object: Record<string, unknown> } } }

export type WebhookEndpoint = {
  url: string
  received: ReceivedWebhook[]
  /** Statuses to answer next, in order; 200 once they run out. */
  answers: number[]
  close(): Promise<void>
}

export async function startWebhookEndpoint(): Promise<WebhookEndpoint> {
  const received: ReceivedWebhook[] = []
  const endpoint = { received, answers: [] as number[] }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      received.push({ headers: request.headers, body, event: JSON.parse(body) })
      response.writeHead(endpoint.answers.shift() ?? 200, { 'content-type': 'application/json' }).end('{"received": true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return Object.assign(endpoint, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/purchases/webhook/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  })
}

export type FakeStripeServer = { app: ProviderApp; stripe: Stripe; apiUrl: string; close(): Promise<void> }

/** The provider listening on 127.0.0.1 (a free port), with STRIPE_API_URL pointing there. */
export async function startFakeStripe(db: Database, { clock, env = {}, log }: { clock?: Clock; env?: Record<string, string>; log?: Logger } = {}): Promise<FakeStripeServer> {
  // eslint-disable-next-line prefer-const -- assigned once the port is known, read by the server's handler
  let app: ProviderApp | undefined
  const server: ServerType = await new Promise((resolve) => {
    const instance = serve({ fetch: (request) => app!.fetch(request), port: 0, hostname: '127.0.0.1' }, () => resolve(instance))
  })
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  app = testApp(db, { clock, log, env: { FAKE_STRIPE_DUPLICATE_PERCENT: '0', ...env, STRIPE_API_URL: apiUrl } })
  const stripe = createStripeClient(app.services.config.stripe)!
  return {
    app,
    stripe,
    apiUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // The SDK keeps its connections alive; they would hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}

/** What withFakeStripe sets up for a test file: read its fields inside hooks and tests. */
export type FakeStripeFixture = { time: ReturnType<typeof fakeClock>; database: DatabaseHandle; fake: FakeStripeServer; stripe: Stripe }

/**
 * A test file's fake Stripe: one in-memory database and one provider on a loopback port for the
 * file, the clock set back to `now` and the database reseeded before each test. No webhook
 * endpoint: events are stored, nothing is delivered (the webhooks have their own tests).
 */
export function withFakeStripe(now: number): FakeStripeFixture {
  return fakeStripeFixture(now, false)
}

/** withFakeStripe with a webhook endpoint that receives what the fake sends (emptied before each test). */
export function withFakeStripeWebhooks(now: number): FakeStripeFixture & { endpoint: WebhookEndpoint } {
  return fakeStripeFixture(now, true) as FakeStripeFixture & { endpoint: WebhookEndpoint }
}

function fakeStripeFixture(now: number, webhooks: boolean): FakeStripeFixture & { endpoint?: WebhookEndpoint } {
  const fixture = { time: fakeClock(now) } as FakeStripeFixture & { endpoint?: WebhookEndpoint }
  beforeAll(async () => {
    fixture.database = await createMemoryDatabase()
    if (webhooks) fixture.endpoint = await startWebhookEndpoint()
    fixture.fake = await startFakeStripe(fixture.database.db, { clock: fixture.time.clock, env: { FAKE_STRIPE_WEBHOOK_URL: fixture.endpoint?.url ?? 'http://127.0.0.1:9/unused/' } })
    fixture.stripe = fixture.fake.stripe
  })
  afterAll(async () => {
    await fixture.fake.close()
    await fixture.endpoint?.close()
    await fixture.database.close()
  })
  beforeEach(async () => {
    fixture.time.set(now)
    await fixture.fake.app.services.background.idle()
    await resetDatabase(fixture.database.db)
    if (fixture.endpoint) {
      fixture.endpoint.received.length = 0
      fixture.endpoint.answers = []
    }
  })
  return fixture
}

import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { generateFakeSecret } from '#server/fakes/secrets.ts'
import { testConfig } from '#server/testing/harness.ts'
import { createStripeClient } from '#server/stripe/client.ts'

type Seen = { method: string; url: string; authorization: string; idempotencyKey: string; body: string }

// A stand-in for Stripe on a loopback port that records what the SDK sends; `answers` says what to reply.
let server: Server
let apiUrl: string
const seen: Seen[] = []
let answers: { status: number; body: unknown }[] = []

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString()))
  })

beforeAll(async () => {
  server = createServer(async (request, response) => {
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization ?? '',
      idempotencyKey: String(request.headers['idempotency-key'] ?? ''),
      body: await read(request),
    })
    const answer = answers.shift() ?? { status: 200, body: { id: 'cus_1', object: 'customer' } }
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  seen.length = 0
  answers = []
})

describe('createStripeClient', () => {
  it('is undefined when payments are off', () => {
    expect(createStripeClient(testConfig({ FAKE_STRIPE: 'off' }).stripe)).toBeUndefined()
  })

  it('sends the SDK’s requests to STRIPE_API_URL with the key, form-encoded', async () => {
    const key = generateFakeSecret('stripe_secret_key')
    const stripe = createStripeClient(testConfig({ STRIPE_API_URL: apiUrl, FAKE_STRIPE_SECRET_KEY: key }).stripe)!
    const customer = await stripe.customers.create({ email: 'paciente@innera.local', metadata: { user_id: '4' } })
    expect(customer.id).toBe('cus_1')
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/v1/customers',
        authorization: `Bearer ${key}`,
        idempotencyKey: expect.stringMatching(/.+/),
        body: 'email=paciente%40innera.local&metadata[user_id]=4',
      },
    ])
  })

  it('retries a 500 with the same idempotency key, and gives up after two retries', async () => {
    const stripe = createStripeClient(testConfig({ STRIPE_API_URL: apiUrl }).stripe)!
    answers = [{ status: 500, body: { error: { type: 'api_error', message: 'boom' } } }]
    await stripe.customers.create({ email: 'a@b.test' })
    expect(seen).toHaveLength(2)
    expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey)

    seen.length = 0
    answers = Array.from({ length: 3 }, () => ({ status: 500, body: { error: { type: 'api_error', message: 'still down' } } }))
    await expect(stripe.customers.create({ email: 'a@b.test' })).rejects.toMatchObject({ type: 'StripeAPIError', message: 'still down' })
    expect(seen).toHaveLength(3)
  }, 30_000)

  it('goes through a given fetch instead of Node’s http', async () => {
    const urls: string[] = []
    const stripe = createStripeClient(testConfig({ PROVIDER_PUBLIC_URL: 'http://provider.test' }).stripe, {
      fetch: async (input) => {
        urls.push(String(input instanceof Request ? input.url : input))
        return Response.json({ id: 'pi_1', object: 'payment_intent' })
      },
    })!
    expect((await stripe.paymentIntents.retrieve('pi_1')).id).toBe('pi_1')
    expect(urls).toEqual(['http://provider.test/v1/payment_intents/pi_1'])
  })
})

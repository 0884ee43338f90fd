/**
 * Stripe's webhook at the provider (issue 24): distinct `payment_intent.succeeded` events sent at a
 * fixed rate (open loop: each at its own moment, however long the earlier ones take) to one
 * provider process, one in twenty delivered a second time a moment later, as Stripe now and then
 * does. Every event must be answered 200 (`applied` the first time, `duplicate` the second: 0
 * lost), and every purchase paid with exactly one grant (0 double grants).
 *
 * The purchases are real (POST /purchases/create/, PIX: a PaymentIntent at the fake Stripe); the
 * events carry the fake's PaymentIntent as Stripe sends it, marked succeeded, signed with the
 * fake's webhook secret exactly as Stripe signs (`t=…,v1=HMAC-SHA256(t.payload)`).
 */
import { createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { startInstance } from './lib/instance.mjs'
import { median } from './waterfall.mjs'

// The fake Stripe's key and webhook secret for this run, given to the provider (FAKE_STRIPE_*):
// each install has its own, never a constant (decision 0073).
const FAKE_SECRET_KEY = `sk_test_${randomBytes(32).toString('hex')}`
const FAKE_WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('hex')}`
const PATIENT = 'paciente@innera.local'
const PASSWORD = 'innera-demo-2025'

/** Every this-many-th event is delivered a second time. */
const DUPLICATE_EVERY = 20

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc/PID/stat (USER_HZ 100). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const sign = (payload, at) => `t=${at},v1=${createHmac('sha256', FAKE_WEBHOOK_SECRET).update(`${at}.${payload}`).digest('hex')}`
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function json(response) {
  const text = await response.text()
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${text.slice(0, 200)}`)
  return JSON.parse(text)
}

/** Runs `task` over `items`, `concurrency` at a time. */
async function pool(items, concurrency, task) {
  const results = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++
        results[index] = await task(items[index], index)
      }
    }),
  )
  return results
}

/**
 * `databaseServer` (BENCH_DATABASE_URL unless given) runs the provider on a throwaway PostgreSQL
 * database, as the other measurements do; unset, on its in-memory PGlite.
 */
export async function measureWebhooks({ buildDir, rate = 200, seconds = 10, databaseServer = process.env.BENCH_DATABASE_URL || undefined, log = () => {} } = {}) {
  const count = rate * seconds
  // The fake Stripe's own events (a PaymentIntent created, awaiting its PIX payment) go to a sink
  // here rather than to the provider: the figure is the provider's webhook alone, as with Stripe,
  // which is not in the provider's process.
  const sink = createServer((request, response) => request.resume().on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}')))
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve))
  const instance = await startInstance({
    name: 'bench-webhooks',
    buildDir,
    databaseServer,
    providerEnv: {
      FAKE_STRIPE: 'on',
      FAKE_STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
      FAKE_STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      FAKE_STRIPE_DUPLICATE_PERCENT: '0',
      FAKE_STRIPE_WEBHOOK_URL: `http://127.0.0.1:${sink.address().port}/purchases/webhook/`,
      ACCESS_TOKEN_LIFETIME: '86400',
      REFRESH_TOKEN_LIFETIME: '172800',
    },
  })
  try {
    const api = instance.providerURL.replace(/\/$/, '')
    const { access } = await json(await fetch(`${api}/authentication/custom-login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: PATIENT, password: PASSWORD }) }))
    const auth = { authorization: `Bearer ${access}` }
    // A consultation package: the one kind one buyer may buy again and again (a course has one open
    // or paid purchase per buyer, decision 0072); each payment still takes the grant's statements.
    const products = await json(await fetch(`${api}/products/?product_type=consultation_package`, { headers: auth }))
    const sold = (products.results ?? products)[0]
    if (!sold) throw new Error('no consultation package in the catalogue')

    log(`webhook: ${count} PIX purchases to pay…`)
    const purchases = await pool(Array.from({ length: count }, (_, index) => index), 8, async (index) => {
      const body = { items: [{ product_id: sold.id, quantity: 1 }], method: 'pix', idempotency_key: `bench-webhook-${String(index).padStart(8, '0')}` }
      const purchase = await json(await fetch(`${api}/purchases/create/`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) }))
      return purchase.id
    })
    // Each purchase's PaymentIntent as the fake Stripe holds it (Stripe's list, 100 a page): the object its event carries.
    const byPurchase = new Map()
    let startingAfter
    for (;;) {
      const page = await json(await fetch(`${api}/v1/payment_intents?limit=100${startingAfter ? `&starting_after=${startingAfter}` : ''}`, { headers: { authorization: `Bearer ${FAKE_SECRET_KEY}` } }))
      for (const intent of page.data) byPurchase.set(Number(intent.metadata?.purchase_id), intent)
      if (!page.has_more || page.data.length === 0) break
      startingAfter = page.data.at(-1).id
    }
    const intents = purchases.map((id) => {
      const intent = byPurchase.get(id)
      if (!intent) throw new Error(`purchase ${id}: no PaymentIntent at the fake Stripe`)
      return intent
    })
    const events = intents.map((intent, index) => ({
      id: `evt_bench_${String(index).padStart(8, '0')}`,
      object: 'event',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.succeeded',
      data: { object: { ...intent, status: 'succeeded', amount_received: intent.amount, next_action: null } },
    }))

    log(`webhook: ${count} distinct events at ${rate}/s, one in ${DUPLICATE_EVERY} delivered twice…`)
    const outcomes = { applied: 0, duplicate: 0, ignored: 0, failed: 0 }
    /** Why deliveries failed: an HTTP status, or the network error's code. */
    const failures = {}
    const latencies = []
    const deliver = async (event) => {
      const payload = JSON.stringify(event)
      const started = performance.now()
      try {
        const response = await fetch(`${api}/purchases/webhook/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload, Math.floor(Date.now() / 1000)) },
          body: payload,
          signal: AbortSignal.timeout(60_000),
        })
        const answer = response.ok ? await response.json() : null
        latencies.push(performance.now() - started)
        outcomes[answer?.outcome ?? 'failed'] = (outcomes[answer?.outcome ?? 'failed'] ?? 0) + 1
        if (!answer) failures[response.status] = (failures[response.status] ?? 0) + 1
      } catch (error) {
        outcomes.failed += 1
        const reason = error?.cause?.code ?? error?.name ?? 'error'
        failures[reason] = (failures[reason] ?? 0) + 1
      }
    }
    const cpuBefore = cpuMs(instance.providerPid)
    const startedAt = performance.now()
    const sends = []
    const again = []
    const interval = 1000 / rate
    for (let index = 0; index < events.length; index++) {
      const due = startedAt + index * interval
      const wait = due - performance.now()
      if (wait > 1) await sleep(wait)
      sends.push(deliver(events[index]))
      // One event in twenty again, half a second later: Stripe sends an event twice now and then
      // (the fake's FAKE_STRIPE_DUPLICATE_PERCENT, 5, by default).
      if (index % DUPLICATE_EVERY === 0) again.push(sleep(500).then(() => deliver(events[index])))
    }
    // The rate is of distinct events: until the last one's first delivery is answered. The last
    // second deliveries leave half a second after it, so counting them would cap the figure at
    // 2000 / 10.4 s = 192/s, whatever the provider does.
    await Promise.all(sends)
    const elapsedSeconds = (performance.now() - startedAt) / 1000
    await Promise.all(again)
    const withDuplicatesSeconds = (performance.now() - startedAt) / 1000
    // The provider's own CPU per delivery: what the figure costs, whatever else the machine was doing
    // (on PostgreSQL the database's processes come on top).
    const providerCpuMsPerDelivery = Math.round(((cpuMs(instance.providerPid) - cpuBefore) / (count + Math.ceil(count / DUPLICATE_EVERY))) * 100) / 100

    // What the purchases became: each paid, each with one grant.
    const paid = (await pool(purchases, 8, async (id) => (await json(await fetch(`${api}/purchases/${id}/`, { headers: auth }))).status)).filter((status) => status === 'paid').length
    const owned = await json(await fetch(`${api}/products/my-products/?page_size=1`, { headers: auth }))
    latencies.sort((a, b) => a - b)
    return {
      events: count,
      deliveries: count + Math.ceil(count / DUPLICATE_EVERY),
      duplicatesSent: Math.ceil(count / DUPLICATE_EVERY),
      targetPerSecond: rate,
      achievedPerSecond: Math.round((count / elapsedSeconds) * 10) / 10,
      elapsedSeconds: Math.round(elapsedSeconds * 10) / 10,
      withDuplicatesSeconds: Math.round(withDuplicatesSeconds * 10) / 10,
      outcomes,
      failures,
      medianMs: Math.round(median(latencies) * 10) / 10,
      p99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] * 10) / 10,
      providerCpuMsPerDelivery,
      purchasesPaid: paid,
      grants: owned.count,
      lost: count - outcomes.applied,
      doubleGrants: Math.max(0, owned.count - count),
    }
  } finally {
    await instance.close()
    sink.close()
  }
}

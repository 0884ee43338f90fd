#!/usr/bin/env node
/**
 * Scale-out check (`npm test`, after the build): two embedded providers on one PostgreSQL and
 * one Redis, and two apps, each app on its own provider, all on free loopback ports. Proves
 * what several processes behind a load balancer need: a session signed in on one app works on
 * the other, a login throttle counts across both providers (in Redis, not per process), data
 * written through one is read through the other, both use the fakes' secrets made once in
 * the database, and a message sent through one provider reaches a live stream held on the other,
 * also app to app: posted on app A, heard on app B's live thread (`/mensagens/{id}/eventos`).
 *
 * Skipped, with one line, when PostgreSQL (TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test) or Redis (REDIS_URL, default redis://127.0.0.1:6379)
 * does not answer. Uses a throwaway database and its own Redis key prefix, both removed at the
 * end, also on failure.
 */
import { spawn } from 'node:child_process'
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import pg from 'pg'
import { freePort, waitFor } from './lib/net.mjs'
import { readEvents } from './lib/sse.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const DEMO_PASSWORD = 'innera-demo-2025'
const LOGIN_LIMIT = 3

const run = randomBytes(5).toString('hex')
const databaseName = `innera_scale_${run}`
const keyPrefix = `innera:scale-out:${run}:`
const children = []
let databaseCreated = false
let passed = 0
let failed = 0

function check(ok, label, detail = '') {
  if (ok) passed += 1
  else failed += 1
  console.log(`${ok ? '✓' : '✗'} ${label}${!ok && detail ? `: ${detail}` : ''}`)
}

function redact(url) {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

async function postgresProblem() {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return undefined
  } catch (error) {
    return `PostgreSQL at ${redact(DATABASE_URL)} does not answer (${error.message}); set TEST_DATABASE_URL`
  } finally {
    await client.end().catch(() => undefined)
  }
}

async function redisProblem() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => undefined)
  try {
    await redis.connect()
    await redis.ping()
    return undefined
  } catch (error) {
    return `Redis at ${redact(REDIS_URL)} does not answer (${error.message}); set REDIS_URL`
  } finally {
    redis.disconnect()
  }
}

/** Runs `sql` on the maintenance connection (CREATE/DROP DATABASE cannot run in a transaction). */
async function admin(sql) {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 5_000 })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

function start(label, script, env) {
  const child = spawn(process.execPath, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4_000)
  })
  children.push({ label, child, stderr: () => stderr })
  return child
}

/** A minimal cookie jar: the app's cookies carried by hand, redirects not followed. */
function jar() {
  const cookies = new Map()
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    take(response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';')
        const at = pair.indexOf('=')
        const name = pair.slice(0, at).trim()
        const value = pair.slice(at + 1).trim()
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name)
        else cookies.set(name, value)
      }
    },
  }
}

async function request(base, path, { cookies, form } = {}) {
  const headers = { Accept: 'text/html' }
  if (cookies && cookies.header()) headers.Cookie = cookies.header()
  let body
  if (form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    headers.Origin = base
    body = new URLSearchParams(form).toString()
  }
  const response = await fetch(`${base}${path}`, { method: form ? 'POST' : 'GET', headers, body, redirect: 'manual', signal: AbortSignal.timeout(60_000) })
  cookies?.take(response)
  return { status: response.status, headers: response.headers, text: await response.text() }
}

async function signIn(base, email) {
  const cookies = jar()
  const response = await request(base, '/auth?mode=login', { cookies, form: { email, password: DEMO_PASSWORD } })
  if (response.status !== 303 && response.status !== 302) throw new Error(`signing in ${email} on ${base} answered ${response.status}`)
  return cookies
}

async function main() {
  const problem = (await postgresProblem()) ?? (await redisProblem())
  if (problem) {
    console.log(`scale-out check skipped: ${problem}.`)
    return
  }
  const started = performance.now()
  await admin(`CREATE DATABASE ${databaseName}`)
  databaseCreated = true
  try {
    const databaseUrl = new URL(DATABASE_URL)
    databaseUrl.pathname = `/${databaseName}`
    const [providerA, providerB, app1, app2] = await Promise.all([freePort(), freePort(), freePort(), freePort()])
    const apps = [`http://127.0.0.1:${app1}`, `http://127.0.0.1:${app2}`]
    const shared = {
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL,
      REDIS_KEY_PREFIX: keyPrefix,
      PROVIDER_JWT_SECRET: `scale-out-jwt-secret-${run}-0123456789abcdef`,
      PROVIDER_FORWARDING_SECRET: `scale-out-forwarding-secret-${run}-0123456789`,
      PROVIDER_HOST: '127.0.0.1',
      THROTTLE_DISABLED: '0',
      THROTTLE_LOGIN_PER_EMAIL: `${LOGIN_LIMIT}/m`,
      LOG_LEVEL: 'error',
    }
    // One after the other: the first migrates and seeds the empty database, the second finds it done.
    for (const [index, port] of [providerA, providerB].entries()) {
      const child = start(`provider ${'AB'[index]}`, 'build/provider/index.js', { ...shared, PROVIDER_PORT: String(port), APP_PUBLIC_URL: apps[index] })
      await waitFor(`http://127.0.0.1:${port}/healthz/`, { child })
    }
    const appChildren = [app1, app2].map((port, index) =>
      start(`app ${index + 1}`, 'build/http/server.js', {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_PUBLIC_URL: apps[index],
        PROVIDER_API_URL: `http://127.0.0.1:${[providerA, providerB][index]}`,
        PROVIDER_FORWARDING_SECRET: shared.PROVIDER_FORWARDING_SECRET,
        SESSION_SECRET: `scale-out-session-secret-${run}-0123456789abcdef`,
        SESSION_COOKIE_SECURE: 'false',
        LOG_LEVEL: 'error',
      }),
    )
    await Promise.all(apps.map((base, index) => waitFor(`${base}/healthz`, { child: appChildren[index] })))

    for (const port of [providerA, providerB]) {
      const health = await (await fetch(`http://127.0.0.1:${port}/healthz/`)).json()
      check(health.status === 'ok' && health.redis === 'ok', `provider on :${port} reports database and Redis ok`, JSON.stringify(health))
    }

    // 1. Sessions: the cookie is signed with the shared SESSION_SECRET and carries its tokens.
    // (Kept for check 6: the patient's logins are counted, THROTTLE_LOGIN_PER_EMAIL.)
    const patientSessions = []
    for (const [from, to] of [[0, 1], [1, 0]]) {
      const cookies = await signIn(apps[from], 'paciente@innera.local')
      patientSessions[from] = cookies
      const dashboard = await request(apps[to], '/dashboard', { cookies })
      check(
        dashboard.status === 200 && dashboard.text.includes('Pedro'),
        `a session signed in on app ${from + 1} works on app ${to + 1}`,
        `GET /dashboard answered ${dashboard.status}${dashboard.status === 200 ? ' without the patient\'s name' : ''}`,
      )
    }

    // 2. The login throttle for one e-mail, attempts alternating between the two stacks.
    const email = `scale-${run}@example.com`
    const statuses = []
    let retryAfter = null
    for (let attempt = 0; attempt <= LOGIN_LIMIT; attempt += 1) {
      const response = await request(apps[attempt % 2], '/auth?mode=login', { cookies: jar(), form: { email, password: 'wrong-password-123' } })
      statuses.push(response.status)
      if (attempt === LOGIN_LIMIT) retryAfter = response.headers.get('retry-after')
    }
    const refusedOnlyLast = statuses.slice(0, LOGIN_LIMIT).every((status) => status >= 400 && status < 500 && status !== 429) && statuses[LOGIN_LIMIT] === 429
    check(
      refusedOnlyLast,
      `failed logins for one e-mail alternated across both apps get 429 on attempt ${LOGIN_LIMIT + 1} (counted in Redis)`,
      `statuses ${statuses.join(', ')}`,
    )
    // The other provider, asked directly, refuses the same e-mail too and says for how long.
    const direct = await fetch(`http://127.0.0.1:${providerB}/authentication/custom-login/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'wrong-password-123' }),
    })
    const directBody = await direct.json()
    const wait = Number(direct.headers.get('retry-after'))
    check(
      direct.status === 429 && wait > 0 && wait <= 60 && directBody.detail === `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.`,
      'provider B refuses that e-mail as well: 429 with Retry-After and the DRF detail',
      `${direct.status} ${JSON.stringify(directBody)} Retry-After ${direct.headers.get('retry-after')}`,
    )
    check(
      Number(retryAfter) > 0,
      "the app's 429 sign-in page (a form POST without JavaScript) says how long to wait: Retry-After",
      `Retry-After ${retryAfter}`,
    )

    // 3. Data: a contact message sent through app 1 is in the inbox read through app 2.
    const sender = `Escala ${run}`
    const sent = await request(apps[0], '/contato', {
      cookies: jar(),
      form: { name: sender, email: `contato-${run}@example.com`, phone: '', subject: 'other', message: 'Mensagem do teste de escala horizontal.' },
    })
    const adminCookies = await signIn(apps[1], 'admin@innera.local')
    const inbox = await request(apps[1], '/admin/messages', { cookies: adminCookies })
    check(
      sent.status < 400 && inbox.status === 200 && inbox.text.includes(sender),
      'a contact message sent through app 1 is in the admin inbox read through app 2',
      `POST /contato ${sent.status}, GET /admin/messages ${inbox.status}${inbox.status === 200 ? ' without the message' : ''}`,
    )

    // 4. The fakes' secrets (decision 0073): made once for the install and kept in the shared
    // database, so the fake Stripe in either provider takes the key the SDK of the other sends, and
    // both check the fake's webhooks with one secret. Read where they are kept, never from a constant.
    const database = new pg.Client({ connectionString: databaseUrl.toString(), connectionTimeoutMillis: 5_000 })
    await database.connect()
    const stored = Object.fromEntries((await database.query('SELECT name, value FROM fake_secrets')).rows.map((row) => [row.name, row.value]))
    await database.end()
    const answers = []
    for (const port of [providerA, providerB]) {
      const provider = `http://127.0.0.1:${port}`
      const own = await fetch(`${provider}/v1/payment_intents?limit=1`, { headers: { authorization: `Bearer ${stored.stripe_secret_key}` } })
      const guessed = await fetch(`${provider}/v1/payment_intents?limit=1`, { headers: { authorization: `Bearer sk_test_${randomBytes(24).toString('hex')}` } })
      const event = JSON.stringify({ id: `evt_scale_${run}_${port}`, object: 'event', type: 'balance.available', data: { object: { object: 'balance' } } })
      const at = Math.floor(Date.now() / 1000)
      const signature = `t=${at},v1=${createHmac('sha256', stored.stripe_webhook_secret ?? '').update(`${at}.${event}`).digest('hex')}`
      const hook = await fetch(`${provider}/purchases/webhook/`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: event })
      answers.push(`:${port} own key ${own.status}, a guessed one ${guessed.status}, a webhook signed with the stored secret ${hook.status}`)
      own.body?.cancel()
      guessed.body?.cancel()
      hook.body?.cancel()
    }
    check(
      Object.keys(stored).length === 4 && answers.every((answer) => answer.endsWith('own key 200, a guessed one 401, a webhook signed with the stored secret 200')),
      "both providers use the fakes' secrets made once in the shared database: the stored key opens either fake Stripe, a guessed one neither, and either checks a webhook with the stored secret",
      `${Object.keys(stored).length} stored (${Object.keys(stored).sort().join(', ')}); ${answers.join('; ')}`,
    )
    // 5. Messages (decision 0085): a message sent through provider A reaches a live stream held on
    // provider B, once each and in order (PostgreSQL's LISTEN/NOTIFY between the processes).
    const login = async (port, email) => {
      const answer = await fetch(`http://127.0.0.1:${port}/authentication/custom-login/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) })
      return (await answer.json()).access
    }
    const [patient, professional] = [await login(providerA, 'paciente@innera.local'), await login(providerB, 'profissional@innera.local')]
    const bearer = (token) => ({ authorization: `Bearer ${token}`, 'Content-Type': 'application/json' })
    const professionalId = (await (await fetch(`http://127.0.0.1:${providerB}/users/me/`, { headers: bearer(professional) })).json()).id
    const conversation = await (await fetch(`http://127.0.0.1:${providerA}/messages/conversations/`, { method: 'POST', headers: bearer(patient), body: JSON.stringify({ with: professionalId }) })).json()
    const streamAbort = new AbortController()
    const stream = await fetch(`http://127.0.0.1:${providerB}/messages/stream/`, { headers: bearer(professional), signal: streamAbort.signal })
    const texts = []
    const heard = readEvents(stream.body, ({ event, data }) => {
      if (event === 'message' && data) texts.push(JSON.parse(data).text)
    })
    const wanted = [`escala ${run} 1`, `escala ${run} 2`, `escala ${run} 3`]
    const sentAt = performance.now()
    for (const text of wanted) {
      await fetch(`http://127.0.0.1:${providerA}/messages/conversations/${conversation.id}/messages/`, { method: 'POST', headers: bearer(patient), body: JSON.stringify({ text }) })
    }
    for (const deadline = Date.now() + 5_000; texts.length < wanted.length && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50))
    const elapsed = performance.now() - sentAt
    // A moment more: a message heard twice would show now.
    await new Promise((resolve) => setTimeout(resolve, 300))
    streamAbort.abort()
    await heard
    check(
      stream.status === 200 && JSON.stringify(texts) === JSON.stringify(wanted),
      'three messages sent through provider A reach a stream held on provider B, once each and in order',
      `stream ${stream.status}; heard ${JSON.stringify(texts)} in ${elapsed.toFixed(0)} ms`,
    )

    // 6. The same through the apps (decision 0088): the professional's live thread open on app B
    // (`/mensagens/{id}/eventos`, its session's stream passed through), the patient's messages
    // posted as the thread's form does on app A; one sent again with its idempotency key through
    // app B, as a retry after a dropped answer would be: each arrives once, in order.
    const [patientOnA, professionalOnB] = [patientSessions[0], await signIn(apps[1], 'profissional@innera.local')]
    const liveAbort = new AbortController()
    const live = await fetch(`${apps[1]}/mensagens/${conversation.id}/eventos`, { headers: { Accept: 'text/event-stream', Cookie: professionalOnB.header() }, signal: liveAbort.signal })
    const liveTexts = []
    const listening = live.body
      ? readEvents(live.body, ({ event, data }) => {
          if (event === 'message' && data) liveTexts.push(JSON.parse(data).text)
        })
      : Promise.resolve()
    const throughApps = [`pelas apps ${run} 1`, `pelas apps ${run} 2`]
    const posts = []
    const post = async (base, text, key) => (await request(base, `/mensagens/${conversation.id}`, { cookies: patientOnA, form: { intent: 'send', text, idempotency_key: key } })).status
    const appSentAt = performance.now()
    posts.push(await post(apps[0], throughApps[0], randomUUID()))
    const retried = randomUUID()
    posts.push(await post(apps[0], throughApps[1], retried), await post(apps[1], throughApps[1], retried))
    for (const deadline = Date.now() + 5_000; liveTexts.length < throughApps.length && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50))
    const appElapsed = performance.now() - appSentAt
    await new Promise((resolve) => setTimeout(resolve, 300))
    liveAbort.abort()
    await listening
    check(
      live.status === 200 && live.headers.get('cache-control') === 'private, no-store' && posts.every((status) => status === 303 || status === 302) && JSON.stringify(liveTexts) === JSON.stringify(throughApps),
      "messages posted on app A (one again through app B with its key) reach the professional's live thread on app B, once each and in order",
      `live ${live.status} (${live.headers.get('cache-control')}); posts ${posts.join(', ')}; heard ${JSON.stringify(liveTexts)} in ${appElapsed.toFixed(0)} ms`,
    )

    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`)
  } finally {
    await cleanUp()
  }
}

let cleaning
/** Stops the four processes, drops the database and removes the run's Redis keys; once. */
function cleanUp() {
  cleaning ??= (async () => {
    await stopAll()
    if (databaseCreated) await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch((error) => console.error(`could not drop ${databaseName}: ${error.message}`))
    await dropKeys().catch((error) => console.error(`could not remove the Redis keys ${keyPrefix}*: ${error.message}`))
  })()
  return cleaning
}

async function stopAll() {
  await Promise.all(
    children.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000)
      return exited.finally(() => clearTimeout(force))
    }),
  )
}

async function dropKeys() {
  const redis = new Redis(REDIS_URL)
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 100)
      cursor = next
      if (keys.length > 0) await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
}

// Ctrl-C or a CI timeout still cleans up: children stopped, database dropped, keys removed.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.log(`✗ interrupted (${signal}); cleaning up`)
    void cleanUp().finally(() => process.exit(130))
  })
}

try {
  await main()
} catch (error) {
  failed += 1
  console.log(`✗ scale-out check could not run: ${error.message}`)
  for (const { label, stderr } of children) if (stderr().trim()) console.log(`--- ${label} stderr ---\n${stderr().trim()}`)
}
if (passed + failed > 0) console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)

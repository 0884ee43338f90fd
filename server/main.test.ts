import { spawn } from 'node:child_process'
import { createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function startProvider(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const ready = new Promise<string>((resolve, reject) => {
    const check = () => {
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('provider listening on '))
      if (line) resolve(line)
    }
    child.stdout.on('data', check)
    void exited.then((code) => reject(new Error(`provider exited with ${code}: ${stderr}`)))
  })
  return { child, ready, exited, output: () => ({ stdout, stderr }) }
}

/**
 * The attack of issue 41, with the values the code and the README once published (the only place
 * they may still appear): what anyone could send to read and refund every buyer's payments, sign
 * events that mark purchases paid, and call the fake Zoom and Google as us. A fresh install's
 * fakes have secrets of their own, and refuse every one of these.
 */
async function expectOldPublicSecretsRefused(base: string): Promise<void> {
  const OLD_STRIPE_KEY = 'sk_test_innera_fake_stripe_dev_only'
  const OLD_WEBHOOK_SECRET = 'whsec_innera_fake_stripe_dev_only'
  const OLD_ZOOM = 'innera-fake-zoom-client:innera-fake-zoom-secret-dev-only'
  const OLD_GOOGLE_SECRET = 'innera-dev-secret'
  const listed = await fetch(`${base}/v1/payment_intents?limit=100`, { headers: { authorization: `Bearer ${OLD_STRIPE_KEY}` } })
  expect(listed.status).toBe(401)
  expect(((await listed.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid API Key provided: /)
  const refund = await fetch(`${base}/v1/refunds`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OLD_STRIPE_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'payment_intent=pi_someone_elses',
  })
  expect(refund.status).toBe(401)

  const body = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_forged', object: 'payment_intent', metadata: { purchase_id: '1' } } } })
  const at = Math.floor(Date.now() / 1000)
  const signature = `t=${at},v1=${createHmac('sha256', OLD_WEBHOOK_SECRET).update(`${at}.${body}`).digest('hex')}`
  const forged = await fetch(`${base}/purchases/webhook/`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body })
  expect(forged.status).toBe(400)
  expect(await forged.json()).toMatchObject({ code: 'invalid_signature' })

  const zoom = await fetch(`${base}/fake-zoom/oauth/token?grant_type=account_credentials&account_id=innera-fake-zoom-account`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(OLD_ZOOM).toString('base64')}` },
  })
  expect(zoom.status).toBe(400)
  expect(await zoom.json()).toMatchObject({ error: 'invalid_client' })

  const google = await fetch(`${base}/fake-google/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'innera-dev-client', client_secret: OLD_GOOGLE_SECRET, code: '4/whatever', redirect_uri: 'http://x.test/cb' }),
  })
  expect(google.status).toBe(401)
  expect(await google.json()).toMatchObject({ error: 'invalid_client' })
}

/**
 * Each test waits for the events (the readiness line, the exit), never for a time: the bound below
 * only stops a hang. Under Node 24 on a busy machine the first start (tsx compiling, PGlite's
 * initdb and migrations) has taken over 30 s.
 */
const START_BOUND = { timeout: 180_000 }

describe('server/main.ts', START_BOUND, () => {
  it("starts, prints one readiness line, serves, refuses the fakes' old public secrets (issue 41), and exits 0 on SIGTERM", async () => {
    const port = await freePort()
    // In memory: the folder-backed start is the same code plus PGlite's slower first initdb.
    const provider = startProvider({ PROVIDER_PORT: String(port), PROVIDER_DATA_DIR: 'memory://' })
    expect(await provider.ready).toBe(`provider listening on http://127.0.0.1:${port}`)

    const health = await fetch(`http://127.0.0.1:${port}/healthz/`)
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' })
    await expectOldPublicSecretsRefused(`http://127.0.0.1:${port}`)

    provider.child.kill('SIGTERM')
    expect(await provider.exited).toBe(0)
    const lines = provider.output().stdout.trim().split('\n')
    expect(lines.filter((line) => line.startsWith('provider listening on'))).toHaveLength(1)
    // Every other stdout line is structured JSON (request and lifecycle logs).
    for (const line of lines.slice(1)) expect(() => JSON.parse(line)).not.toThrow()
    // Without SMTP_URL mail stays in the outbox; the reminder tick ran and stopped with the process.
    const ready = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.msg === 'provider ready')
    expect(ready).toMatchObject({ mail: 'outbox only', payments: 'fake stripe' })
    expect(provider.output().stderr).not.toContain('background task failed')
    // It says it made the fakes' secrets, by the variables that would give them instead; their values are never logged.
    const made = lines.filter((line) => line.includes("made the fakes' secrets")).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(made).toEqual([expect.objectContaining({ level: 'info', secrets: ['FAKE_STRIPE_SECRET_KEY', 'FAKE_STRIPE_WEBHOOK_SECRET', 'FAKE_ZOOM_CLIENT_SECRET', 'FAKE_GOOGLE_CLIENT_SECRET'] })])
    expect(`${provider.output().stdout}${provider.output().stderr}`).not.toMatch(/sk_test_|whsec_|GOCSPX-/)
  })

  it('answers /readyz/ 503 "not ready" while it opens and migrates its database, 200 once it serves; /metrics only on its metrics port', async () => {
    const [port, metricsPort] = await Promise.all([freePort(), freePort()])
    const provider = startProvider({ PROVIDER_PORT: String(port), PROVIDER_DATA_DIR: 'memory://', PROVIDER_METRICS_PORT: String(metricsPort) })
    let listening = false
    void provider.ready.then(() => (listening = true), () => undefined)
    const seen: string[] = []
    while (!listening) {
      const answer = await fetch(`http://127.0.0.1:${port}/readyz/`).then(async (response) => `${response.status} ${JSON.stringify(await response.json())}`, () => 'refused')
      if (!listening && seen.at(-1) !== answer) seen.push(answer)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await provider.ready
    // Refused before the port listens, then 503 saying why; a 200 (the readiness line may reach us after it) only last.
    const answers = seen.filter((answer) => answer !== 'refused')
    expect(answers).toEqual(expect.arrayContaining([expect.stringMatching(/^503 \{"status":"not ready","reason":"(opening database|migrating)"\}$/)]))
    expect(answers.slice(0, -1).filter((answer) => !answer.startsWith('503'))).toEqual([])
    const ready = await fetch(`http://127.0.0.1:${port}/readyz/`)
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', database: 'ok' }])

    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404)
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(metrics.status).toBe(200)
    const text = await metrics.text()
    // Node's own series (event-loop delay, heap) and the pool's, beside the requests just made.
    for (const series of ['nodejs_eventloop_lag_seconds ', 'nodejs_heap_size_used_bytes ', 'innera_provider_db_pool_connections{driver="pglite",state="total"} 1']) {
      expect(text).toContain(series)
    }
    expect(text).toMatch(/^innera_provider_http_requests_total\{route="\/readyz\/",method="GET",status="200"\} [1-9]\d*$/m)
    provider.child.kill('SIGTERM')
    expect(await provider.exited).toBe(0)
    const lines = provider.output().stdout.trim().split('\n').slice(1).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.find((entry) => entry.msg === 'provider ready')).toMatchObject({ metrics: `http://127.0.0.1:${metricsPort}/metrics` })
  })

  it('stops at once, exit 0, when asked while it starts (as PID 1 in a container it would ignore SIGTERM without a handler)', async () => {
    const port = await freePort()
    const provider = startProvider({ PROVIDER_PORT: String(port), PROVIDER_DATA_DIR: 'memory://' })
    // It never gets to ready: that is the point.
    provider.ready.catch(() => undefined)
    // It listens from the start and answers 503 "not ready" while the database opens and migrates.
    let status = 0
    while (status !== 503) {
      status = await fetch(`http://127.0.0.1:${port}/readyz/`).then((response) => response.status, () => 0)
      if (status === 200) throw new Error('ready before the test could stop it while starting')
      if (status !== 503) await new Promise((resolve) => setTimeout(resolve, 10))
    }
    provider.child.kill('SIGTERM')
    expect(await provider.exited).toBe(0)
    expect(provider.output().stdout).toContain('"msg":"stopped while starting","signal":"SIGTERM"')
    expect(provider.output().stdout).not.toContain('provider listening on')
  })

  it('warns once on stderr when a development stand-in is on in production', async () => {
    const port = await freePort()
    const provider = startProvider({
      NODE_ENV: 'production',
      PROVIDER_JWT_SECRET: 'p'.repeat(40),
      DEV_MAILBOX: 'on',
      PROVIDER_PORT: String(port),
      PROVIDER_DATA_DIR: 'memory://',
    })
    await provider.ready
    provider.child.kill('SIGTERM')
    await provider.exited
    const warnings = provider
      .output()
      .stderr.split('\n')
      .filter((line) => line.includes('"level":"warn"'))
    expect(warnings).toHaveLength(1)
    expect(JSON.parse(warnings[0]!).msg).toMatch(/^DEV_MAILBOX is on with NODE_ENV=production/)
  })

  it('refuses a bad configuration with a clear message and exit code 1', async () => {
    const provider = startProvider({ PROVIDER_PORT: '99999', REFRESH_TOKEN_LIFETIME: 'soon' })
    await expect(provider.ready).rejects.toThrow()
    expect(await provider.exited).toBe(1)
    const { stderr } = provider.output()
    expect(stderr).toContain('Invalid provider configuration')
    expect(stderr).toContain('PROVIDER_PORT must be an integer between 1 and 65535')
    expect(stderr).toContain('REFRESH_TOKEN_LIFETIME must be an integer')
  })

  // The one-shot migration service of compose.yaml (decision 0091): two at once on an empty
  // PostgreSQL database, as two replicas starting together would; they take turns on the lock.
  it('--migrate-only migrates and seeds, never listens, and exits 0; two at once on an empty PostgreSQL database apply each migration once', async (context) => {
    const url = process.env.TEST_DATABASE_URL
    const { default: pg } = await import('pg')
    const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
    try {
      if (!url) throw new Error('TEST_DATABASE_URL is not set')
      await admin.connect()
    } catch {
      return context.skip()
    }
    const name = `innera_migrate_${randomBytes(4).toString('hex')}`
    await admin.query(`CREATE DATABASE ${name}`)
    try {
      const databaseUrl = new URL(url!)
      databaseUrl.pathname = `/${name}`
      const runs = [0, 1].map(() => {
        const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--migrate-only'], {
          env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: databaseUrl.toString() },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let output = ''
        child.stdout.on('data', (chunk) => (output += chunk))
        child.stderr.on('data', (chunk) => (output += chunk))
        return new Promise<{ code: number | null; output: string }>((resolve) => child.once('exit', (code) => resolve({ code, output })))
      })
      const results = await Promise.all(runs)
      for (const { code, output } of results) {
        expect(code, output).toBe(0)
        expect(output).not.toContain('provider listening')
        expect(JSON.parse(output.trim().split('\n').at(-1)!)).toMatchObject({ level: 'info', msg: 'migrated', database: 'postgres' })
      }
      // Each demo account was made by one of them (together, as many as there are); each migration of the journal is recorded once.
      const seeded = results.map(({ output }) => (JSON.parse(output.trim().split('\n').at(-1)!) as { seeded: { users: number } }).seeded.users)
      const journal = JSON.parse(readFileSync(new URL('./db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as { entries: unknown[] }
      const database = new pg.Client({ connectionString: databaseUrl.toString() })
      await database.connect()
      const { rows } = await database.query<{ applied: string; distinct_hashes: string }>('select count(*) as applied, count(distinct hash) as distinct_hashes from drizzle.__drizzle_migrations')
      const users = await database.query<{ count: string }>('select count(*) from users')
      await database.end()
      expect(seeded[0]! + seeded[1]!).toBe(Number(users.rows[0]!.count))
      expect(Number(users.rows[0]!.count)).toBeGreaterThan(0)
      expect(rows[0]).toEqual({ applied: String(journal.entries.length), distinct_hashes: String(journal.entries.length) })
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  })
})

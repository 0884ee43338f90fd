import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { describe, it } from 'vitest'
import { createProviderApp, type ProviderApp } from '#server/app.ts'
import type { Clock } from '#server/clock.ts'
import { loadConfig, type ProviderConfig } from '#server/config.ts'
import { findMigrationsDir, openDatabase, rowsOf, type Database, type DatabaseHandle } from '#server/db/client.ts'
import { authSessions, professionalProfiles, users } from '#server/db/schema.ts'
import { seedDatabase } from '#server/seed/seed.ts'
import { generateFakeSecrets, withFakeSecrets } from '#server/fakes/secrets.ts'
import { DEMO_PASSWORD } from '#server/seed/data.ts'
import { type Logger, silentLogger } from '#server/log.ts'

export const PUBLIC_URL = 'http://provider.test'
export const APP_URL = 'http://app.test'

/** The app's proof that its X-Forwarded-For may be trusted (PROVIDER_FORWARDING_SECRET). */
export const FORWARDING_SECRET = 'test-forwarding-secret-0123456789abcdef'

/**
 * The fakes' secrets of this test process, made as a fresh install makes them (decision 0073):
 * a test that needs one reads it from its app's configuration (app.services.config), never a constant.
 */
const TEST_FAKE_SECRETS = generateFakeSecrets()

/** A configuration for tests: throttling off, fixed public URLs, the fakes' secrets resolved, everything else default. */
export function testConfig(env: Record<string, string> = {}): ProviderConfig {
  const config = loadConfig({
    THROTTLE_DISABLED: '1',
    PROVIDER_PUBLIC_URL: PUBLIC_URL,
    APP_PUBLIC_URL: APP_URL,
    PROVIDER_FORWARDING_SECRET: FORWARDING_SECRET,
    ...env,
  })
  // As main.ts does from the database, without one: the process's own, unless env gave them.
  return withFakeSecrets(config, TEST_FAKE_SECRETS)
}

/**
 * A fresh in-memory PGlite, migrated and seeded. An empty PGlite cluster takes ~3 s of CPU to
 * create, so the first test file to need one saves a snapshot of it in the temp folder and the
 * others start from that (~0.5 s). The snapshot's name hashes the migrations and the seed, so
 * any change to them makes a new one.
 */
export async function createMemoryDatabase(): Promise<DatabaseHandle> {
  const snapshotPath = join(tmpdir(), `innera-provider-pglite-${await schemaFingerprint()}.tar`)
  if (existsSync(snapshotPath)) {
    try {
      const handle = await openDatabase({ memory: true, snapshot: new Blob([readFileSync(snapshotPath)]) })
      await handle.migrate(findMigrationsDir())
      return handle
    } catch {
      rmSync(snapshotPath, { force: true })
    }
  }
  const handle = await createFreshMemoryDatabase()
  const snapshot = await handle.snapshot!()
  // Written aside and renamed, so a parallel worker never reads half a file.
  const partial = `${snapshotPath}.${process.pid}.partial`
  writeFileSync(partial, Buffer.from(await snapshot.arrayBuffer()))
  renameSync(partial, snapshotPath)
  // Snapshots of older schemas are of no further use.
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name)
    if (/^innera-provider-pglite-[0-9a-f]{16}\.tar$/.test(name) && path !== snapshotPath) rmSync(path, { force: true })
  }
  return handle
}

/** An empty PGlite, migrated and seeded from scratch (no snapshot): for tests of those steps. */
export async function createFreshMemoryDatabase(): Promise<DatabaseHandle> {
  const handle = await openDatabase({ memory: true })
  await handle.migrate(findMigrationsDir())
  await seedDatabase(handle.db)
  return handle
}

async function schemaFingerprint(): Promise<string> {
  const hash = createHash('sha256')
  const migrations = findMigrationsDir()
  for (const file of readdirSync(migrations).filter((name) => name.endsWith('.sql')).sort()) hash.update(readFileSync(join(migrations, file)))
  hash.update(readFileSync(fileURLToPath(new URL('../db/schema.ts', import.meta.url))))
  const seedDir = fileURLToPath(new URL('../seed/', import.meta.url))
  for (const file of readdirSync(seedDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).sort()) hash.update(readFileSync(join(seedDir, file)))
  // The courses' seed: their text, and the lessons' manifest beside the videos.
  // The live classes' seed (their patterns; the dates follow the day the snapshot is made).
  // A new profile's starting week, which the demo professionals' profiles are seeded with.
  for (const file of ['../courses/content.ts', '../courses/seed.ts', '../media/lessons/manifest.json', '../live-classes/seed.ts', '../professionals/accreditation.ts']) {
    const path = fileURLToPath(new URL(file, import.meta.url))
    if (existsSync(path)) hash.update(readFileSync(path))
  }
  return hash.digest('hex').slice(0, 16)
}

/** This test process's schemas: the pid keeps parallel workers and runs apart. */
const SCHEMA_PREFIX = `provider_test_${process.pid}_`

export type PostgresTestDatabase = {
  handle: DatabaseHandle
  /** Another connection pool on the same schema: a second provider process. The caller closes it. */
  openAnother(): Promise<DatabaseHandle>
  drop(): Promise<void>
}

/**
 * A fresh schema on the PostgreSQL at TEST_DATABASE_URL, migrated and seeded, or the reason it
 * is unavailable. Each call uses its own schema; drop() removes it.
 */
export async function createPostgresDatabase(): Promise<PostgresTestDatabase | { unavailable: string }> {
  const url = process.env.TEST_DATABASE_URL
  if (!url) return { unavailable: 'TEST_DATABASE_URL is not set' }
  const { default: pg } = await import('pg')
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await admin.connect()
  } catch (error) {
    return { unavailable: `TEST_DATABASE_URL does not answer (${error instanceof Error ? error.message : String(error)})` }
  }
  const schema = `${SCHEMA_PREFIX}${randomBytes(4).toString('hex')}`
  await admin.query(`CREATE SCHEMA ${schema}`)
  const handle = await openDatabase({ url, schema })
  await handle.migrate(findMigrationsDir())
  await seedDatabase(handle.db)
  return {
    handle,
    openAnother: () => openDatabase({ url, schema }),
    async drop() {
      await handle.close()
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    },
  }
}

/**
 * Watches, from a connection of its own, how many of this test process's database sessions wait
 * for a lock while running a statement like one of `patterns` (SQL LIKE). Only this process's
 * pools count (their schemas carry its pid, and the pools name themselves after their schema), so
 * other test files and other runs on the same PostgreSQL never add to the count.
 */
export async function watchLockWaits(patterns: string[]) {
  const { default: pg } = await import('pg')
  const watcher = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await watcher.connect()
  return {
    async count(): Promise<number> {
      const { rows } = await watcher.query<{ waiting: string }>(
        `select count(*) as waiting from pg_stat_activity where wait_event_type = 'Lock' and application_name like $1 and query like any($2)`,
        [`innera ${SCHEMA_PREFIX}%`, patterns],
      )
      return Number(rows[0]!.waiting)
    },
    /** The count once it reaches `count`, or after 90 s: a bound against a hang, never a budget. */
    async until(count: number): Promise<number> {
      const deadline = Date.now() + 90_000
      let waiting = await this.count()
      while (waiting < count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        waiting = await this.count()
      }
      return waiting
    },
    end: () => watcher.end(),
  }
}

/** Two provider processes on one database: two handles, and how to end them. */
export type TwoProcesses = { first: DatabaseHandle; second: DatabaseHandle; dispose(): Promise<void> }

/**
 * Declares `suite` on the PostgreSQL at TEST_DATABASE_URL, as two provider processes (two
 * connection pools on one fresh schema), or a skipped block that says why it could not run.
 */
export async function describeOnPostgres(title: string, suite: (open: () => Promise<TwoProcesses>) => void): Promise<void> {
  const postgres = await createPostgresDatabase()
  if ('unavailable' in postgres) {
    console.warn(`[provider] ${title}: skipped, ${postgres.unavailable}. Set TEST_DATABASE_URL to run it.`)
    describe.skip(`${title} (skipped: ${postgres.unavailable})`, () => {
      it('needs TEST_DATABASE_URL', () => undefined)
    })
    return
  }
  describe(title, () => {
    suite(async () => {
      const second = await postgres.openAnother()
      return {
        first: postgres.handle,
        second,
        async dispose() {
          await second.close()
          await postgres.drop()
        },
      }
    })
  })
}

// Everything except the fake Google's signing key: regenerating it would only make jose's
// JWKS cache refetch, and a stable key keeps tests fast.
const RESETTABLE_TABLES = [
  'audit_log',
  'content_drafts',
  'auth_sessions',
  'password_reset_tokens',
  'user_groups',
  'professional_patients',
  'users',
  'photos',
  // A version an admin published in a test must not stay the current one for the next test.
  'questionnaire_versions',
  'groups',
  'pillars',
  'outbox',
  'fake_google_codes',
  'contact_messages',
  'professional_profiles',
  'schedule_exceptions',
  'appointments',
  'scheduled_messages',
  'calendar_feeds',
  'calendar_connections',
  'calendar_events',
  'calendar_event_notes',
  'fake_google_grants',
  'fake_google_calendars',
  'fake_google_events',
  'fake_google_sync_tokens',
  'habits',
  'habit_entries',
  'habit_reminders',
  'products',
  'carts',
  'fake_stripe_objects',
  'fake_stripe_idempotency_keys',
  'fake_stripe_deliveries',
  'purchases',
  'purchase_items',
  'purchase_transitions',
  'stripe_webhook_events',
  'purchase_grants',
  'consultation_credits',
  'purchase_refunds',
  'subscriptions',
  'live_classes',
  'live_class_seats',
  'fake_zoom_meetings',
  'fake_push_subscriptions',
  'consent_records',
  'account_deletions',
  'retention_runs',
]

/** What a database held right after its first seeding: each table's rows and each sequence's place. */
type SeededState = {
  /** The resettable tables and every table that references them (what TRUNCATE … CASCADE empties), parents first. */
  tables: { name: string; rows: string }[]
  sequences: { name: string; lastValue: string; isCalled: boolean }[]
}
const seededStates = new WeakMap<Database, SeededState>()

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * Back to the freshly seeded state. The seeded users' sign-in sessions are kept (un-revoked), so
 * test files can log the demo users in once in beforeAll: the seed gives them the same ids again.
 *
 * The first reset of a database empties the tables and seeds them, then remembers what the seed
 * wrote; later ones put those rows back in one transaction, with triggers off while it runs (the
 * foreign keys' and the append-only tables'; PostgreSQL allows that to a superuser, as the
 * TEST_DATABASE_URL of the README is). That takes about a fifth of the time of emptying and
 * seeding again, which most provider tests do before each test.
 */
export async function resetDatabase(db: Database): Promise<void> {
  const sessions = await db.select().from(authSessions)
  const state = seededStates.get(db)
  if (state) {
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'))
      for (const { name } of [...state.tables].reverse()) await tx.execute(sql.raw(`DELETE FROM ${quoteIdent(name)}`))
      for (const { name, rows } of state.tables) {
        if (rows === '[]') continue
        await tx.execute(sql`INSERT INTO ${sql.raw(quoteIdent(name))} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(null::${sql.raw(quoteIdent(name))}, ${rows}::json)`)
      }
      if (state.sequences.length > 0) {
        await tx.execute(sql.join([sql.raw('SELECT '), sql.join(state.sequences.map(({ name, lastValue, isCalled }) => sql`setval(${name}::regclass, ${lastValue}::bigint, ${isCalled})`), sql.raw(', '))]))
      }
    })
  } else {
    await db.execute(sql.raw(`TRUNCATE ${RESETTABLE_TABLES.map((table) => `"${table}"`).join(', ')} RESTART IDENTITY CASCADE`))
    await seedDatabase(db)
    seededStates.set(db, await readSeededState(db))
  }
  const seeded = new Set((await db.select({ id: users.id }).from(users)).map((row) => row.id))
  const kept = sessions.filter((session) => seeded.has(session.userId)).map((session) => ({ ...session, revokedAt: null }))
  if (kept.length > 0) await db.insert(authSessions).values(kept)
}

/** The resettable tables with every table that references them, parents first, with their rows and sequences. */
async function readSeededState(db: Database): Promise<SeededState> {
  // Foreign keys between the tables of the current schema: child -> parent.
  const links = await rowsOf<{ child: string; parent: string }>(db.execute(sql`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
    WHERE c.contype = 'f' AND r.relnamespace = current_schema()::regnamespace`))
  const unquote = (name: string) => name.replace(/^"|"$/g, '')
  const included = new Set(RESETTABLE_TABLES)
  for (let grown = true; grown; ) {
    grown = false
    for (const { child, parent } of links) {
      if (included.has(unquote(parent)) && !included.has(unquote(child))) {
        included.add(unquote(child))
        grown = true
      }
    }
  }
  // Parents before children (a table referencing itself does not wait for itself).
  const ordered: string[] = []
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return
    path.add(table)
    for (const { child, parent } of links) if (unquote(child) === table && included.has(unquote(parent))) visit(unquote(parent), path)
    ordered.push(table)
  }
  for (const table of included) visit(table, new Set())
  const tables = []
  for (const name of ordered) {
    const [row] = await rowsOf<{ rows: string }>(db.execute(sql`SELECT coalesce(json_agg(t), '[]')::text AS rows FROM ${sql.raw(quoteIdent(name))} t`))
    tables.push({ name, rows: row!.rows })
  }
  const sequences = []
  const owned = await rowsOf<{ name: string }>(db.execute(sql`
    SELECT s.oid::regclass::text AS name FROM pg_class s JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')
    JOIN pg_class t ON t.oid = d.refobjid
    WHERE s.relkind = 'S' AND t.relnamespace = current_schema()::regnamespace AND t.relname IN (${sql.join(ordered.map((name) => sql`${name}`), sql.raw(', '))})`))
  for (const { name } of owned) {
    const [state] = await rowsOf<{ last_value: string; is_called: boolean }>(db.execute(sql`SELECT last_value::text, is_called FROM ${sql.raw(name)}`))
    sequences.push({ name, lastValue: state!.last_value, isCalled: state!.is_called })
  }
  return { tables, sequences }
}

/**
 * Every seeded professional's consultation made free: for tests of booking itself (times, limits,
 * reminders, calendars), where a price would add a payment to every booking (decision 0051; paid
 * bookings have their own tests in server/routes/paid-consultations.test.ts).
 */
export async function freeConsultations(db: Database): Promise<void> {
  await db.update(professionalProfiles).set({ priceCents: 0 })
}

export function fakeClock(start = Date.UTC(2025, 2, 18, 12, 0, 0)) {
  let now = start
  const clock: Clock = () => now
  return { clock, advance: (seconds: number) => (now += seconds * 1000), set: (time: number) => (now = time) }
}

/** `log`: to read what the app logged (a test that fails on a 500 can then say why). */
export function testApp(db: Database, { clock, env, log = silentLogger }: { clock?: Clock; env?: Record<string, string>; log?: Logger } = {}): ProviderApp {
  return createProviderApp({ db, config: testConfig(env), clock, log })
}

type JsonRequest = { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> }

/** Small helpers for driving the app in tests. */
export function client(app: ProviderApp) {
  async function call(method: string, path: string, { body, rawBody, token, headers = {} }: JsonRequest = {}) {
    // The client plays the app: a visitor's address it forwards comes with the forwarding secret.
    const forwarding: Record<string, string> = Object.keys(headers).some((name) => name.toLowerCase() === 'x-forwarded-for')
      ? { 'x-forwarding-secret': FORWARDING_SECRET }
      : {}
    const init: RequestInit = { method, headers: { ...forwarding, ...headers }, body: rawBody }
    if (body !== undefined) {
      init.body = body instanceof FormData ? body : JSON.stringify(body)
      if (!(body instanceof FormData)) (init.headers as Record<string, string>)['content-type'] = 'application/json'
    }
    if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`
    const response = await app.request(`${PUBLIC_URL}${path}`, init)
    const text = await response.text()
    // What a request left to the background (mail, accounts) is done before the test goes on.
    await app.services.background.idle()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary response bodies
    let json: any
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, json, text }
  }

  return {
    call,
    get: (path: string, options?: JsonRequest) => call('GET', path, options),
    post: (path: string, body?: unknown, options?: JsonRequest) => call('POST', path, { ...options, body }),
    patch: (path: string, body?: unknown, options?: JsonRequest) => call('PATCH', path, { ...options, body }),
    async login(email: string, password = DEMO_PASSWORD): Promise<{ access: string; refresh: string; user_id: number }> {
      const response = await call('POST', '/authentication/custom-login/', { body: { email, password } })
      if (response.status !== 200) throw new Error(`login of ${email} failed: ${response.status} ${response.text}`)
      return response.json
    },
    async mailTo(email: string): Promise<{ subject: string; text: string }[]> {
      return (await call('GET', `/dev/mailbox/messages/?to=${encodeURIComponent(email)}`)).json.results
    },
  }
}

/** The first link in a text that starts with the given prefix. */
export function linkIn(text: string, prefix: string): string {
  const match = text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s]+`))
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${text}`)
  return match[0]
}

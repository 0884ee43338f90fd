import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { findMigrationsDir, openDatabase, type DatabaseHandle } from '#server/db/client.ts'
import { users } from '#server/db/schema.ts'
import { seedDatabase } from '#server/seed/seed.ts'
import { client, testApp } from '#server/testing/harness.ts'

/**
 * The restore check on PostgreSQL (decision 0090): the pg_dump and pg_restore lines of
 * docs/operations.md, run as written, on a database of its own laid out as the product lays one
 * out (the tables in public, drizzle's journal in "drizzle", pg_trgm): data written through the
 * API, dumped, the database dropped, restored into a new empty one, and read back the same.
 */
const operations = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8')
const documented = (command: string) => {
  const line = operations.split('\n').find((candidate) => candidate.startsWith(`${command} `))
  if (!line) throw new Error(`docs/operations.md has no line starting with "${command} "`)
  return line
}
const DUMP = documented('pg_dump')
const RESTORE = documented('pg_restore')

const major = (text: string) => Number(/(\d+)(?:\.\d+)?/.exec(text)?.[1])

async function unavailable(): Promise<string | undefined> {
  const url = process.env.TEST_DATABASE_URL
  if (!url) return 'TEST_DATABASE_URL is not set'
  for (const tool of ['pg_dump', 'pg_restore']) {
    if (spawnSync(tool, ['--version']).status !== 0) return `${tool} is not on PATH`
  }
  const { default: pg } = await import('pg')
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await admin.connect()
    const { rows } = await admin.query<{ server_version: string }>('SHOW server_version')
    // pg_dump refuses a server newer than itself: the check needs the server's major version or later.
    const tools = major(spawnSync('pg_dump', ['--version'], { encoding: 'utf8' }).stdout.replace(/^\D+/, ''))
    if (tools < major(rows[0]!.server_version)) return `pg_dump ${tools} is older than the server (${rows[0]!.server_version})`
  } catch (error) {
    return `TEST_DATABASE_URL does not answer (${error instanceof Error ? error.message : String(error)})`
  } finally {
    await admin.end().catch(() => undefined)
  }
  return undefined
}

const reason = await unavailable()
if (reason) console.warn(`[provider] the PostgreSQL restore check: skipped, ${reason}.`)

describe.skipIf(reason !== undefined)(`pg_dump and pg_restore as docs/operations.md gives them${reason ? ` (skipped: ${reason})` : ''}`, () => {
  it('bring back a dropped database exactly', async () => {
    const { default: pg } = await import('pg')
    const base = process.env.TEST_DATABASE_URL!
    const admin = new pg.Client({ connectionString: base })
    await admin.connect()
    const name = `innera_restore_check_${process.pid}_${randomBytes(3).toString('hex')}`
    const urlOf = (database: string) => Object.assign(new URL(base), { pathname: `/${database}` }).href
    const folder = mkdtempSync(join(tmpdir(), 'innera-pg-restore-'))
    const run = (line: string, env: Record<string, string>) => {
      const result = spawnSync('sh', ['-c', line], { cwd: folder, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 })
      expect(result.status, `${line}\n${result.stderr}`).toBe(0)
    }
    let handle: DatabaseHandle | undefined
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`)
      handle = await openDatabase({ url: urlOf(name) })
      await handle.migrate(findMigrationsDir())
      await seedDatabase(handle.db)
      let api = client(testApp(handle.db))
      expect((await api.post('/users/register/', { email: 'ana.pg@example.com', password: 'caminhada-ao-sol-7', name: 'Ana Postgres' })).status).toBe(201)
      const pedro = (await api.login('paciente@innera.local')).access
      expect((await api.post('/habits/', { name: 'Meditar', pillar: 'sono', frequency: 'daily' }, { token: pedro })).status).toBe(201)
      const paula = (await handle.db.select({ id: users.id }).from(users).where(eq(users.email, 'profissional@innera.local')))[0]!.id
      const conversation = (await api.post('/messages/conversations/', { with: paula }, { token: pedro })).json.id as number
      expect((await api.post(`/messages/conversations/${conversation}/messages/`, { text: 'Antes do backup' }, { token: pedro })).status).toBe(201)
      const read = async () => {
        const ana = await api.login('ana.pg@example.com', 'caminhada-ao-sol-7')
        const token = (await api.login('paciente@innera.local')).access
        return {
          ana: (await api.get('/users/me/', { token: ana.access })).json,
          habits: (await api.get('/habits/', { token })).json,
          thread: (await api.get(`/messages/conversations/${conversation}/`, { token })).json,
        }
      }
      const before = await read()
      await handle.close()
      handle = undefined

      run(DUMP, { DATABASE_URL: urlOf(name) })
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`)
      run(RESTORE, { RESTORE_URL: urlOf(name) })

      handle = await openDatabase({ url: urlOf(name) })
      // A provider's start on the restored database: nothing to migrate, the seed finds its rows.
      await handle.migrate(findMigrationsDir())
      await seedDatabase(handle.db)
      api = client(testApp(handle.db))
      expect(await read()).toEqual(before)
    } finally {
      await handle?.close()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

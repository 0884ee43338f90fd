import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProviderApp, type ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { silentLogger } from '#server/log.ts'
import { answerConsent } from '#server/testing/google-flow.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, PUBLIC_URL, resetDatabase, testConfig } from '#server/testing/harness.ts'
import { syncCalendar } from '#server/calendar/sync.ts'

const NOW = Date.parse('2026-03-02T12:00:00Z')
const REDIRECT_URI = 'http://app.test/auth/google/calendar-callback'
const PAULA = 2

/**
 * Two provider processes on one database (on PostgreSQL, two connection pools): while one
 * syncs a calendar, the other's sync of it is refused (409), whichever process asks; once the
 * first is done, the next goes ahead.
 */
function leaseSuite(open: () => Promise<{ first: Database; second: Database; dispose: () => Promise<void> }>) {
  let databases: Awaited<ReturnType<typeof open>>
  const time = fakeClock(NOW)
  let release: (() => void) | undefined
  let blocked: Promise<void> = Promise.resolve()
  let arrived: (() => void) | undefined

  /** Process A: its calls to Google's events.list wait until the test lets them go. */
  let first: ProviderApp
  let second: ProviderApp
  const inProcess = (app: () => ProviderApp, gate: boolean): typeof fetch => async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (gate && url.includes('/calendar/v3/calendars/') && url.includes('/events?')) {
      arrived?.()
      await blocked
    }
    return url.startsWith(`${PUBLIC_URL}/`) ? app().request(url, init) : fetch(input, init)
  }

  beforeAll(async () => {
    databases = await open()
    await resetDatabase(databases.first)
    first = createProviderApp({ db: databases.first, config: testConfig(), clock: time.clock, log: silentLogger, fetch: inProcess(() => first, true) })
    second = createProviderApp({ db: databases.second, config: testConfig(), clock: time.clock, log: silentLogger, fetch: inProcess(() => second, false) })
    const api = client(second)
    const { access } = await api.login('profissional@innera.local')
    const { json } = await api.post('/auth/google/calendar/', { redirect_uri: REDIRECT_URI, state: 'lease-state-0123456789' }, { token: access })
    const code = (await answerConsent(second, json.authorization_url)).searchParams.get('code')!
    expect((await api.post('/calendar/', { auth_code: code, integration_type: 'enable', redirect_uri: REDIRECT_URI }, { token: access })).status).toBe(200)
  })
  afterAll(() => databases.dispose())

  it('refuses a second sync of a calendar while another process syncs it', async () => {
    blocked = new Promise((resolve) => (release = resolve))
    const listing = new Promise<void>((resolve) => (arrived = resolve))
    const running = syncCalendar(first.services, PAULA, { full: true })
    // Process A holds the lease once its events.list is under way.
    await listing
    await expect(syncCalendar(second.services, PAULA)).rejects.toMatchObject({ status: 409, body: { code: 'sync_in_progress' } })
    await expect(syncCalendar(first.services, PAULA)).rejects.toMatchObject({ status: 409 })
    release!()
    await expect(running).resolves.toMatchObject({ full: true })
    await expect(syncCalendar(second.services, PAULA)).resolves.toMatchObject({ full: false })
  })
}

describe('calendar sync lease: PGlite', () => {
  leaseSuite(async () => {
    const handle = await createMemoryDatabase()
    return { first: handle.db, second: handle.db, dispose: () => handle.close() }
  })
})

await describeOnPostgres('calendar sync lease: PostgreSQL, two connection pools', (open) =>
  leaseSuite(async () => {
    const { first, second, dispose } = await open()
    return { first: first.db, second: second.db, dispose }
  }),
)

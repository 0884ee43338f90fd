import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createProviderApp, type ProviderApp } from '#server/app.ts'
import { syncCalendar } from '#server/calendar/sync.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { appointments, calendarConnections, calendarEventNotes, calendarEvents, fakeGoogleGrants } from '#server/db/schema.ts'
import { calendarSyncTick } from '#server/jobs.ts'
import type { LogEntry } from '#server/log.ts'
import { answerConsent, FAKE_GOOGLE, fakeCalendarTokens } from '#server/testing/google-flow.ts'
import { client, createMemoryDatabase, fakeClock, resetDatabase, testConfig, freeConsultations } from '#server/testing/harness.ts'

// Monday 2026-03-02, 09:00 in São Paulo (UTC-3 all year).
const NOW = Date.parse('2026-03-02T12:00:00Z')
const MINUTE = 60
const DAY = 24 * 60 * MINUTE
const ENV = { ACCESS_TOKEN_LIFETIME: String(365 * DAY), REFRESH_TOKEN_LIFETIME: String(365 * DAY) }
const REDIRECT_URI = 'http://app.test/auth/google/calendar-callback'
const STATE = 'state-0123456789abcdef'

const EMAILS = { admin: 'admin@innera.local', paula: 'profissional@innera.local', rafael: 'nutricionista@innera.local', pedro: 'paciente@innera.local' } as const
type Person = keyof typeof EMAILS
const ID: Record<Person, number> = { admin: 1, paula: 2, rafael: 3, pedro: 4 }
const PAULA_GOOGLE = EMAILS.paula

const FORBIDDEN = { detail: 'You do not have permission to perform this action.' }
const NOT_CONNECTED = { detail: 'Calendar não está conectado', code: 'calendar_not_connected' }

/** A wall time in São Paulo as a UTC instant string. */
const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()
const TUE = '2026-03-03'
const WED = '2026-03-04'

let database: DatabaseHandle
const time = fakeClock(NOW)
const logged: LogEntry[] = []
let app: ProviderApp
let api: ReturnType<typeof client>
const tokens = {} as Record<Person, string>

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = createProviderApp({ db: database.db, config: testConfig(ENV), clock: time.clock, log: (entry) => logged.push(entry) })
  api = client(app)
  for (const person of Object.keys(EMAILS) as Person[]) tokens[person] = (await api.login(EMAILS[person])).access
})
afterAll(() => database.close())
beforeEach(async () => {
  time.set(NOW)
  logged.length = 0
  await resetDatabase(database.db)
  await freeConsultations(database.db)
})

const as = (who: Person | undefined) => (who ? { token: tokens[who] } : {})
const get = (path: string, who?: Person) => api.get(path, as(who))
const post = (path: string, body: unknown, who?: Person) => api.post(path, body, as(who))
const put = (path: string, body: unknown, who?: Person) => api.call('PUT', path, { body, ...as(who) })
const del = (path: string, who?: Person) => api.call('DELETE', path, as(who))
const advanceMinutes = (minutes: number) => time.advance(minutes * MINUTE)

/** The code the fake Google sends back after consent, for the URL the provider built. */
async function consentCode(who: Person = 'paula'): Promise<string> {
  const { json } = await post('/auth/google/calendar/', { redirect_uri: REDIRECT_URI, state: STATE }, who)
  return (await answerConsent(app, json.authorization_url)).searchParams.get('code')!
}

/** Paula connects her calendar (the fake's account with her e-mail), and the first sync runs. */
async function connect(who: Person = 'paula') {
  const response = await post('/calendar/', { auth_code: await consentCode(who), integration_type: 'enable', redirect_uri: REDIRECT_URI }, who)
  expect(response.status).toBe(200)
  return response
}

/** An event someone put in Paula's Google calendar (the dev helper). */
async function external(fields: Record<string, unknown>, email = PAULA_GOOGLE): Promise<{ id: string }> {
  const response = await post('/fake-google/dev/calendar/events/', { email, summary: 'Externo', ...fields })
  expect(response.status).toBe(201)
  return response.json
}

async function fakeCalendar(email = PAULA_GOOGLE): Promise<{ id: string; status: string; summary: string; description?: string; start: { dateTime: string } }[]> {
  return (await get(`/fake-google/dev/calendar/events/?email=${encodeURIComponent(email)}`)).json.items
}

const sync = (body: unknown = {}, who: Person = 'paula') => post('/calendar/sync/', body, who)
const week = (query = '', who: Person = 'paula') => get(`/calendar/?start_date=2026-03-02&end_date=2026-03-08${query}`, who)
const summaries = (events: { summary: string }[]) => events.map((event) => event.summary)

describe('POST /auth/google/calendar/', () => {
  it("answers Google's consent URL for the calendar scope, offline, with the app's state", async () => {
    const response = await post('/auth/google/calendar/', { redirect_uri: REDIRECT_URI, state: STATE }, 'paula')
    expect(response.status).toBe(200)
    const url = new URL(response.json.authorization_url)
    expect(`${url.origin}${url.pathname}`).toBe(`${FAKE_GOOGLE}/authorize`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'innera-dev-client',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/calendar',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: STATE,
      login_hint: EMAILS.paula,
    })
  })

  it('checks the state and the redirect URI', async () => {
    const errors = async (body: unknown) => (await post('/auth/google/calendar/', body, 'paula')).json
    expect(await errors({})).toEqual({ redirect_uri: ['This field is required.'], state: ['This field is required.'] })
    expect(await errors({ redirect_uri: 'javascript:alert(1)', state: 'short' })).toEqual({
      redirect_uri: ['Enter a valid URL.'],
      state: ['Enter 16 to 200 letters, digits, "-" or "_".'],
    })
    expect((await errors({ redirect_uri: REDIRECT_URI, state: `${'a'.repeat(16)}!` })).state).toBeDefined()
    expect((await errors({ redirect_uri: REDIRECT_URI, state: 'a'.repeat(201) })).state).toBeDefined()
  })
})

describe('permissions', () => {
  const calendarCalls: [string, (who?: Person) => Promise<{ status: number; json: unknown }>][] = [
    ['POST /auth/google/calendar/', (who) => post('/auth/google/calendar/', { redirect_uri: REDIRECT_URI, state: STATE }, who)],
    ['GET /calendar/', (who) => get('/calendar/', who)],
    ['GET /calendar/?dates', (who) => get('/calendar/?start_date=2026-03-02&end_date=2026-03-08', who)],
    ['POST /calendar/ (connect)', (who) => post('/calendar/', { auth_code: 'x', integration_type: 'enable', redirect_uri: REDIRECT_URI }, who)],
    ['POST /calendar/ (event)', (who) => post('/calendar/', { start_time: sp(TUE, '10:00'), end_time: sp(TUE, '11:00') }, who)],
    ['PUT /calendar/{id}/', (who) => put('/calendar/abcdef12345/', { start_time: sp(TUE, '10:00'), end_time: sp(TUE, '11:00') }, who)],
    ['DELETE /calendar/{id}/', (who) => del('/calendar/abcdef12345/', who)],
    ['DELETE /calendar/', (who) => del('/calendar/', who)],
    ['POST /calendar/sync/', (who) => post('/calendar/sync/', {}, who)],
    ['GET /calendar/integration-status/', (who) => get('/calendar/integration-status/', who)],
  ]

  it('is for professionals: patients and admins get 403, anonymous callers 401', async () => {
    for (const [name, call] of calendarCalls) {
      for (const who of ['pedro', 'admin'] as const) expect({ name, who, ...(await call(who)) }).toMatchObject({ name, who, status: 403, json: FORBIDDEN })
      expect({ name, ...(await call(undefined)) }).toMatchObject({ name, status: 401 })
    }
  })

  it('lets anyone signed in ask about availability', async () => {
    const body = { start_time: sp(TUE, '08:00'), end_time: sp(TUE, '08:50'), professional_id: ID.paula }
    for (const who of ['pedro', 'paula', 'rafael', 'admin'] as const) expect(await post('/calendar/availability/', body, who)).toMatchObject({ status: 200 })
    expect((await post('/calendar/availability/', body)).status).toBe(401)
  })
})

describe('without a connected calendar', () => {
  it('answers the status as not connected', async () => {
    expect(await get('/calendar/', 'paula')).toMatchObject({
      status: 200,
      json: { calendar_enabled: false, token_valid: false, primary_calendar_id: null, last_sync: null },
    })
    expect((await get('/calendar/integration-status/', 'paula')).json).toEqual({
      calendar_enabled: false,
      token_valid: false,
      primary_calendar_id: null,
      last_sync: null,
      connected: false,
      needs_reconnect: false,
      sync_in_progress: false,
      google_email: null,
    })
    expect((await get('/appointments/dashboard/', 'paula')).json.calendar).toEqual({ calendar_enabled: false, token_valid: false })
  })

  it('refuses every calendar action with "Calendar não está conectado"', async () => {
    const event = { start_time: sp(TUE, '10:00'), end_time: sp(TUE, '11:00') }
    for (const response of [
      await week(),
      await post('/calendar/', event, 'paula'),
      await put('/calendar/abcdef12345/', event, 'paula'),
      await del('/calendar/abcdef12345/', 'paula'),
      await del('/calendar/', 'paula'),
      await sync(),
    ]) {
      expect(response).toMatchObject({ status: 400, json: NOT_CONNECTED })
    }
  })

  it('counts the professional as available', async () => {
    for (const [who, end] of [['pedro', '08:50'], ['paula', '18:00']] as const) {
      const response = await post('/calendar/availability/', { start_time: sp(TUE, '08:00'), end_time: sp(TUE, end), professional_id: ID.paula }, who)
      expect(response.json).toEqual({ available: true, conflicts: [], warnings: [] })
    }
  })
})

describe('connecting (POST /calendar/ with auth_code)', () => {
  it('exchanges the code, stores the tokens sealed, and syncs once after answering', async () => {
    await external({ summary: 'Dentista', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    expect((await connect()).json).toEqual({ success: true, calendar_enabled: true })
    expect((await get('/calendar/', 'paula')).json).toEqual({
      calendar_enabled: true,
      token_valid: true,
      primary_calendar_id: PAULA_GOOGLE,
      last_sync: new Date(NOW).toISOString(),
    })
    expect((await get('/calendar/integration-status/', 'paula')).json).toMatchObject({ connected: true, needs_reconnect: false, google_email: PAULA_GOOGLE })
    const [row] = await database.db.select().from(calendarConnections).where(eq(calendarConnections.userId, ID.paula))
    expect(row!.refreshTokenSealed).toMatch(/^v1\./)
    expect(app.services.tokenSealer.open(row!.refreshTokenSealed)).toMatch(/^1\/\//)
    expect(row!.refreshTokenSealed).not.toContain('1//')
    // The first sync brought the calendar in.
    expect(summaries((await week()).json.events)).toEqual(['Dentista'])
  })

  it('answers 400 invalid_grant for a bad or used code, 502 google_error for any other refusal', async () => {
    const code = await consentCode()
    const exchange = (auth_code: string, redirect_uri = REDIRECT_URI) => post('/calendar/', { auth_code, integration_type: 'enable', redirect_uri }, 'paula')
    expect(await exchange('4/not-a-code')).toMatchObject({ status: 400, json: { detail: 'Código de autorização inválido ou expirado', code: 'invalid_grant' } })
    // Google refuses a redirect URI other than the consent's.
    expect(await exchange(await consentCode(), 'http://app.test/elsewhere')).toMatchObject({
      status: 502,
      json: { detail: 'Não foi possível conectar ao Google Calendar', code: 'google_error' },
    })
    expect((await exchange(code)).status).toBe(200)
    expect(await exchange(code)).toMatchObject({ status: 400, json: { code: 'invalid_grant' } })
  })

  it('checks the fields of the exchange', async () => {
    expect(await post('/calendar/', { integration_type: 'disable' }, 'paula')).toMatchObject({
      status: 400,
      json: { auth_code: ['This field is required.'], integration_type: ['"disable" is not a valid choice.'], redirect_uri: ['This field is required.'] },
    })
    expect((await post('/calendar/', { auth_code: 'x'.repeat(2049), integration_type: 'enable', redirect_uri: REDIRECT_URI }, 'paula')).json).toEqual({
      auth_code: ['Ensure this field has no more than 2048 characters.'],
    })
  })

  it('connects again over an existing connection, with the new tokens', async () => {
    await connect()
    const [before] = await database.db.select().from(calendarConnections)
    await connect()
    const [after] = await database.db.select().from(calendarConnections)
    expect(app.services.tokenSealer.open(after!.refreshTokenSealed)).not.toBe(app.services.tokenSealer.open(before!.refreshTokenSealed))
    expect((await sync()).status).toBe(200)
  })
})

describe('events (GET /calendar/?start_date&end_date)', () => {
  it('reads the stored events within 5 minutes of the last sync, and syncs first after that', async () => {
    await connect()
    await external({ summary: 'Dentista', start: sp(TUE, '10:00'), end: sp(TUE, '11:00'), description: 'Levar exames' })
    const cached = await week()
    expect(cached.json).toEqual({ events: [], last_sync: new Date(NOW).toISOString(), from_cache: true, sync_error: false })

    advanceMinutes(5)
    const fresh = await week()
    expect(fresh.json).toMatchObject({ last_sync: new Date(NOW + 5 * MINUTE * 1000).toISOString(), from_cache: false, sync_error: false })
    expect(fresh.json.events).toEqual([
      {
        id: expect.any(String),
        summary: 'Dentista',
        start: { dateTime: sp(TUE, '10:00') },
        end: { dateTime: sp(TUE, '11:00') },
        description: 'Levar exames',
        location: '',
        attendees: [],
        status: 'confirmed',
        htmlLink: expect.stringContaining('/fake-google/calendar/event?eid='),
        colorId: null,
        transparency: 'opaque',
        innera_appointment_id: null,
        notes: '',
      },
    ])
  })

  it('reads local dates of the professional, all-day events included, and can leave out the product’s own', async () => {
    await connect()
    await external({ summary: 'Domingo à noite', start: sp('2026-03-08', '23:00'), end: sp('2026-03-08', '23:30') })
    await external({ summary: 'Segunda seguinte', start: sp('2026-03-09', '00:00'), end: sp('2026-03-09', '01:00') })
    await external({ summary: 'Congresso', date: WED, days: 2 })
    await post('/calendar/', { start_time: sp(TUE, '15:00'), end_time: sp(TUE, '16:00'), event_type: 'class' }, 'paula')
    advanceMinutes(5)
    expect(summaries((await week()).json.events)).toEqual(['Aula Innera', 'Congresso', 'Domingo à noite'])
    expect(summaries((await week('&include_innera_events=false')).json.events)).toEqual(['Congresso', 'Domingo à noite'])
    expect((await week()).json.events[1]).toMatchObject({ start: { date: WED }, end: { date: '2026-03-06' } })
  })

  it('checks the dates', async () => {
    await connect()
    const errors = async (query: string) => (await get(`/calendar/?${query}`, 'paula')).json
    expect(await errors('start_date=2026-03-02')).toEqual({ end_date: ['This field is required.'] })
    expect(await errors('start_date=2026-02-30&end_date=soon')).toEqual({
      start_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
      end_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    })
    expect(await errors('start_date=2026-03-08&end_date=2026-03-02')).toEqual({ end_date: ['The end date must not be before the start date.'] })
    expect(await errors('start_date=2026-03-01&end_date=2026-05-02')).toEqual({ end_date: ['The window can span at most 62 days.'] })
    expect((await get('/calendar/?start_date=2026-03-01&end_date=2026-05-01', 'paula')).status).toBe(200)
    expect(await errors('start_date=2026-03-01&end_date=2026-03-01&include_innera_events=maybe')).toEqual({ include_innera_events: ['Must be a valid boolean.'] })
  })

  it('answers 400, not 500, for dates beyond the years 2000-2100', async () => {
    await connect()
    expect(await get('/calendar/?start_date=0999-01-01&end_date=0999-01-07', 'paula')).toMatchObject({
      status: 400,
      json: { start_date: ['Ensure this value is greater than or equal to 2000-01-01.'], end_date: ['Ensure this value is greater than or equal to 2000-01-01.'] },
    })
    expect(await get('/calendar/?start_date=9999-12-27&end_date=9999-12-31', 'paula')).toMatchObject({
      status: 400,
      json: { start_date: ['Ensure this value is less than or equal to 2100-12-31.'], end_date: ['Ensure this value is less than or equal to 2100-12-31.'] },
    })
  })

  it('answers the stored events with sync_error when the sync fails', async () => {
    await connect()
    await external({ summary: 'Dentista', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    advanceMinutes(5)
    await week()
    // Google's calendar API goes away (its URL answers 404 from now on).
    await database.db.update(calendarConnections).set({ primaryCalendarId: 'gone@calendar.test' }).where(eq(calendarConnections.userId, ID.paula))
    advanceMinutes(5)
    const response = await week()
    expect(response.json).toMatchObject({ from_cache: true, sync_error: true, last_sync: new Date(NOW + 5 * MINUTE * 1000).toISOString() })
    expect(summaries(response.json.events)).toEqual(['Dentista'])
    expect(await sync()).toMatchObject({ status: 502, json: { detail: 'Não foi possível sincronizar com Google Calendar', code: 'sync_failed' } })
  })
})

describe('sync (POST /calendar/sync/)', () => {
  it('is incremental with the sync token: only the changes, deletions included', async () => {
    await connect()
    const kept = await external({ summary: 'Fica', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    const dropped = await external({ summary: 'Sai', start: sp(TUE, '14:00'), end: sp(TUE, '15:00') })
    expect((await sync()).json).toEqual({ synced: 2, last_sync: new Date(NOW).toISOString(), full: false, events_not_kept: 0 })
    expect((await sync()).json).toMatchObject({ synced: 0, full: false })

    // Deleted and changed at Google (in Google's own app: another grant of the same account).
    const google = (await fakeCalendarTokens(app, PAULA_GOOGLE)).access_token
    const eventUrl = (id: string) => `${FAKE_GOOGLE}/calendar/v3/calendars/primary/events/${id}`
    await app.request(eventUrl(dropped.id), { method: 'DELETE', headers: { authorization: `Bearer ${google}` } })
    await app.request(eventUrl(kept.id), { method: 'PATCH', headers: { authorization: `Bearer ${google}`, 'content-type': 'application/json' }, body: JSON.stringify({ summary: 'Fica (mudou)' }) })
    expect((await sync()).json).toMatchObject({ synced: 2, full: false })
    expect(summaries((await week()).json.events)).toEqual(['Fica (mudou)'])
  })

  it('falls back to a full sync when Google answers 410 for an expired sync token, and on request', async () => {
    await connect()
    await external({ summary: 'Antes', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    await sync()
    expect((await post('/fake-google/dev/calendar/expire-sync-tokens/', { email: PAULA_GOOGLE })).json.expired).toBeGreaterThan(0)
    await external({ summary: 'Depois', start: sp(WED, '10:00'), end: sp(WED, '11:00') })
    expect((await sync()).json).toMatchObject({ synced: 2, full: true })
    expect(summaries((await week()).json.events)).toEqual(['Antes', 'Depois'])
    expect((await sync({ full: true })).json).toMatchObject({ synced: 2, full: true })
    expect((await sync({ full: 'maybe' })).json).toEqual({ full: ['Must be a valid boolean.'] })
  })

  it('runs one sync of a calendar at a time across processes (the lease): 409 sync_in_progress', async () => {
    await connect()
    // Another process holds the lease.
    await database.db
      .update(calendarConnections)
      .set({ syncLeaseId: 'another-process', syncLeaseUntil: new Date(NOW + 10 * 60_000) })
      .where(eq(calendarConnections.userId, ID.paula))
    expect(await sync()).toMatchObject({ status: 409, json: { detail: 'Sync already in progress', code: 'sync_in_progress' } })
    expect((await get('/calendar/integration-status/', 'paula')).json.sync_in_progress).toBe(true)
    // A read with a stale cache answers the stored events meanwhile.
    advanceMinutes(6)
    expect((await week()).json).toMatchObject({ from_cache: true, sync_error: false })
    // A lease nobody gave back runs out (its process died): the next sync goes ahead.
    advanceMinutes(5)
    expect((await sync()).status).toBe(200)
    expect((await get('/calendar/integration-status/', 'paula')).json.sync_in_progress).toBe(false)

    // Two at once in this process: one runs, the other is refused.
    const statuses = (await Promise.all([syncCalendar(app.services, ID.paula), syncCalendar(app.services, ID.paula)].map((run) => run.then(() => 200, (error) => error.status)))).sort()
    expect(statuses).toEqual([200, 409])
  })

  it('marks a revoked grant token_valid: false and asks to reconnect', async () => {
    await connect()
    await post('/fake-google/dev/calendar/revoke/', { email: PAULA_GOOGLE })
    const reconnect = { status: 400, json: { code: 'calendar_reconnect' } }
    expect(await sync()).toMatchObject(reconnect)
    expect((await get('/calendar/', 'paula')).json).toMatchObject({ calendar_enabled: true, token_valid: false })
    expect((await get('/calendar/integration-status/', 'paula')).json).toMatchObject({ connected: true, needs_reconnect: true })
    // Her home's agenda says so too, without a second call.
    expect((await get('/appointments/dashboard/', 'paula')).json.calendar).toEqual({ calendar_enabled: true, token_valid: false })
    advanceMinutes(5)
    expect(await week()).toMatchObject(reconnect)
    expect(await post('/calendar/', { start_time: sp(TUE, '10:00'), end_time: sp(TUE, '11:00') }, 'paula')).toMatchObject(reconnect)
    // Connecting again makes it usable.
    await connect()
    expect((await get('/calendar/', 'paula')).json.token_valid).toBe(true)
    expect((await sync()).status).toBe(200)
  })

  it('runs in the periodic job for calendars last synced 15 minutes ago or more', async () => {
    await connect()
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 0, failed: 0 })
    advanceMinutes(15)
    await external({ summary: 'Novo', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 1, failed: 0 })
    const [row] = await database.db.select().from(calendarEvents).where(eq(calendarEvents.userId, ID.paula))
    expect(row!.summary).toBe('Novo')
    // A failing calendar is tried again 15 minutes later, not at every tick.
    await database.db.update(calendarConnections).set({ primaryCalendarId: 'gone@calendar.test' }).where(eq(calendarConnections.userId, ID.paula))
    advanceMinutes(15)
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 0, failed: 1 })
    advanceMinutes(14)
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 0, failed: 0 })
    advanceMinutes(1)
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 0, failed: 1 })
    // A revoked grant waits for the professional to connect again.
    await post('/fake-google/dev/calendar/revoke/', { email: PAULA_GOOGLE })
    await database.db.update(calendarConnections).set({ primaryCalendarId: PAULA_GOOGLE }).where(eq(calendarConnections.userId, ID.paula))
    advanceMinutes(15)
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 0, failed: 1 })
    advanceMinutes(15)
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 0, failed: 0 })
  })
})

describe('disconnecting (DELETE /calendar/)', () => {
  it('revokes at Google and clears the events, tokens and sync state', async () => {
    await connect()
    await external({ summary: 'Dentista', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    await sync()
    expect(await database.db.select().from(calendarEvents)).toHaveLength(1)
    expect((await del('/calendar/', 'paula')).status).toBe(204)
    expect(await database.db.select().from(calendarEvents)).toHaveLength(0)
    expect(await database.db.select().from(calendarConnections)).toHaveLength(0)
    expect((await get('/calendar/', 'paula')).json).toEqual({ calendar_enabled: false, token_valid: false, primary_calendar_id: null, last_sync: null })
    const grants = await database.db.select().from(fakeGoogleGrants).where(eq(fakeGoogleGrants.email, PAULA_GOOGLE))
    expect(grants.every((grant) => grant.revokedAt !== null)).toBe(true)
    expect(await week()).toMatchObject({ status: 400, json: NOT_CONNECTED })
  })

  it('works after a revoked grant too', async () => {
    await connect()
    await post('/fake-google/dev/calendar/revoke/', { email: PAULA_GOOGLE })
    await sync()
    expect((await del('/calendar/', 'paula')).status).toBe(204)
  })
})

describe('the product’s events (POST /calendar/, PUT and DELETE /calendar/{id}/)', () => {
  const consultation = {
    start_time: sp(TUE, '10:00'),
    end_time: sp(TUE, '10:50'),
    event_type: 'consultation',
    patient_name: 'Pedro Santos Silva',
    professional_name: 'Paula Ribeiro',
    notes: 'Trazer o diário alimentar.',
    meeting_link: 'https://meet.jit.si/innera-abc',
    attendees: ['Pedro@Example.com'],
  }

  it('creates the event in the primary calendar with a title of the patient’s first name only', async () => {
    await connect()
    const created = await post('/calendar/', consultation, 'paula')
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      summary: 'Consulta Innera com Pedro',
      // The notes are the provider's only (decision 0029): the description has the meeting link alone.
      description: 'Sala da consulta: https://meet.jit.si/innera-abc',
      notes: 'Trazer o diário alimentar.',
      start: { dateTime: sp(TUE, '10:00'), timeZone: 'America/Sao_Paulo' },
      attendees: [{ email: 'pedro@example.com', responseStatus: 'needsAction' }],
      status: 'confirmed',
      transparency: 'opaque',
      innera_appointment_id: null,
    })
    const [stored] = await fakeCalendar()
    expect(stored).toMatchObject({ id: created.json.id, summary: 'Consulta Innera com Pedro', description: 'Sala da consulta: https://meet.jit.si/innera-abc' })
    expect(JSON.stringify(stored)).not.toMatch(/Santos|diário alimentar/)
    // Read at once, without waiting for a sync.
    expect(summaries((await week()).json.events)).toEqual(['Consulta Innera com Pedro'])
    for (const [type, title] of [['class', 'Aula Innera'], ['personal', 'Compromisso pessoal'], ['other', 'Evento Innera']]) {
      expect((await post('/calendar/', { ...consultation, event_type: type }, 'paula')).json.summary).toBe(title)
    }
  })

  it('updates and deletes events; unknown ids are 404', async () => {
    await connect()
    const { json: event } = await post('/calendar/', consultation, 'paula')
    const moved = await put(`/calendar/${event.id}/`, { ...consultation, start_time: sp(WED, '14:00'), end_time: sp(WED, '15:00'), notes: '' }, 'paula')
    expect(moved.status).toBe(200)
    expect(moved.json).toMatchObject({ id: event.id, start: { dateTime: sp(WED, '14:00') }, description: 'Sala da consulta: https://meet.jit.si/innera-abc', notes: '' })
    expect((await fakeCalendar())[0]!.start.dateTime).toBe(sp(WED, '14:00'))
    expect((await put('/calendar/unknownevent1/', consultation, 'paula')).status).toBe(404)

    expect((await del(`/calendar/${event.id}/`, 'paula')).status).toBe(204)
    expect((await fakeCalendar())[0]!.status).toBe('cancelled')
    expect((await week()).json.events).toEqual([])
    expect((await del(`/calendar/${event.id}/`, 'paula')).status).toBe(404)
  })

  it('edits an external event without losing what the payload does not cover', async () => {
    await connect()
    await external({ summary: 'Externo', start: sp(TUE, '10:00'), end: sp(TUE, '11:00'), transparency: 'transparent', description: 'Pauta: orçamento' })
    await sync()
    const [stored] = (await week()).json.events
    const edited = await put(`/calendar/${stored.id}/`, { start_time: sp(TUE, '11:00'), end_time: sp(TUE, '12:00'), event_type: 'personal' }, 'paula')
    expect(edited.json).toMatchObject({ summary: 'Compromisso pessoal', transparency: 'transparent', description: 'Pauta: orçamento', notes: '' })
    // The owner's text stays in Google's description, Innera's lines are written anew, the notes stay here.
    const body = { start_time: sp(TUE, '11:00'), end_time: sp(TUE, '12:00'), event_type: 'personal', notes: 'Sigiloso', meeting_link: 'https://meet.jit.si/a' }
    expect((await put(`/calendar/${stored.id}/`, body, 'paula')).json).toMatchObject({ description: 'Pauta: orçamento\n\nSala da consulta: https://meet.jit.si/a', notes: 'Sigiloso' })
    expect((await put(`/calendar/${stored.id}/`, { ...body, meeting_link: 'https://meet.jit.si/b' }, 'paula')).json.description).toBe('Pauta: orçamento\n\nSala da consulta: https://meet.jit.si/b')
    expect((await fakeCalendar())[0]).toMatchObject({ description: 'Pauta: orçamento\n\nSala da consulta: https://meet.jit.si/b' })
    expect(JSON.stringify(await fakeCalendar())).not.toContain('Sigiloso')
  })

  it('checks the payload', async () => {
    await connect()
    const errors = async (body: unknown) => (await post('/calendar/', body, 'paula')).json
    expect(await errors({})).toEqual({ start_time: ['This field is required.'], end_time: ['This field is required.'] })
    expect(
      await errors({
        start_time: 'tomorrow',
        end_time: sp(TUE, '11:00'),
        event_type: 'party',
        attendees: ['not-an-email'],
        meeting_link: 'http://meet.example.com/x',
        related_object_id: 'abc',
        notes: 'x'.repeat(5001),
        patient_name: 'x'.repeat(201),
      }),
    ).toEqual({
      start_time: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]](+HH:MM|-HH:MM|Z).'],
      event_type: ['"party" is not a valid choice.'],
      attendees: ['Enter a valid email address.'],
      meeting_link: ['Enter a valid https URL.'],
      related_object_id: ['A valid integer is required.'],
      notes: ['Ensure this field has no more than 5000 characters.'],
      patient_name: ['Ensure this field has no more than 200 characters.'],
    })
    expect(await errors({ start_time: sp(TUE, '11:00'), end_time: sp(TUE, '11:00') })).toEqual({ end_time: ['The end must be after the start.'] })
    expect(await errors({ start_time: sp(TUE, '11:00'), end_time: sp('2026-04-10', '11:00') })).toEqual({ end_time: ['An event can last at most 31 days.'] })
    expect(await errors({ ...consultation, attendees: Array.from({ length: 51 }, (_, index) => `p${index}@example.com`) })).toEqual({
      attendees: ['Ensure this field has no more than 50 elements.'],
    })
    // A consultation's related object is one of the professional's appointments.
    expect(await errors({ ...consultation, related_object_id: 999 })).toEqual({ related_object_id: ['Invalid pk "999" - object does not exist.'] })
  })
})

describe('the professional’s notes on events (decision 0029: never at Google)', () => {
  const NOTES = 'Crise de ansiedade; rever a medicação.'
  const withNotes = {
    start_time: sp(TUE, '10:00'),
    end_time: sp(TUE, '10:50'),
    event_type: 'consultation',
    patient_name: 'Pedro Santos',
    notes: NOTES,
    meeting_link: 'https://meet.jit.si/innera-abc',
  }
  const storedNotes = async () => (await database.db.select().from(calendarEventNotes)).map((row) => ({ id: row.googleEventId, notes: row.notes }))
  const notesOfWeek = async () => (await week()).json.events.map((event: { id: string; notes: string }) => ({ id: event.id, notes: event.notes }))
  const atGoogle = async () => {
    const google = (await fakeCalendarTokens(app, PAULA_GOOGLE)).access_token
    return (method: string, id: string, body?: unknown) =>
      app.request(`${FAKE_GOOGLE}/calendar/v3/calendars/primary/events/${id}`, {
        method,
        headers: { authorization: `Bearer ${google}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      })
  }

  it('are answered by the provider and never written to Google’s event', async () => {
    await connect()
    const created = await post('/calendar/', withNotes, 'paula')
    expect(created.json).toMatchObject({ notes: NOTES, description: 'Sala da consulta: https://meet.jit.si/innera-abc' })
    expect(await notesOfWeek()).toEqual([{ id: created.json.id, notes: NOTES }])

    const replaced = await put(`/calendar/${created.json.id}/`, { ...withNotes, notes: 'Retorno em 15 dias; pressão alta.' }, 'paula')
    expect(replaced.json).toMatchObject({ notes: 'Retorno em 15 dias; pressão alta.', description: 'Sala da consulta: https://meet.jit.si/innera-abc' })
    // An update that leaves the notes out keeps them; empty notes remove them.
    const { notes: _left, ...withoutNotes } = withNotes
    expect((await put(`/calendar/${created.json.id}/`, withoutNotes, 'paula')).json.notes).toBe('Retorno em 15 dias; pressão alta.')
    expect((await put(`/calendar/${created.json.id}/`, { ...withNotes, notes: '  ' }, 'paula')).json.notes).toBe('')
    expect(await storedNotes()).toEqual([])

    const google = JSON.stringify(await fakeCalendar())
    expect(google).not.toMatch(/ansiedade|medicação|pressão alta|Retorno/)
  })

  it('survive incremental syncs (the event changed at Google too), full syncs and the 410 fallback', async () => {
    await connect()
    const { json: event } = await post('/calendar/', withNotes, 'paula')
    const google = await atGoogle()
    await google('PATCH', event.id, { location: 'Sala 2' })
    expect((await sync()).json).toMatchObject({ synced: 1, full: false })
    advanceMinutes(5)
    expect((await week()).json.events).toMatchObject([{ id: event.id, location: 'Sala 2', notes: NOTES }])

    expect((await sync({ full: true })).json).toMatchObject({ full: true })
    expect(await notesOfWeek()).toEqual([{ id: event.id, notes: NOTES }])

    await post('/fake-google/dev/calendar/expire-sync-tokens/', { email: PAULA_GOOGLE })
    expect((await sync()).json).toMatchObject({ full: true })
    advanceMinutes(15)
    expect(await calendarSyncTick(app.services)).toEqual({ synced: 1, failed: 0 })
    expect(await notesOfWeek()).toEqual([{ id: event.id, notes: NOTES }])
    expect(await storedNotes()).toEqual([{ id: event.id, notes: NOTES }])
  })

  it('go with their event: deleted here, deleted at Google (incremental and full sync), and at disconnecting', async () => {
    await connect()
    const ids: string[] = []
    for (const hour of ['08:00', '10:00', '14:00', '16:00']) ids.push((await post('/calendar/', { ...withNotes, start_time: sp(WED, hour), end_time: sp(WED, hour.replace(':00', ':50')) }, 'paula')).json.id)
    const [here, incremental, full, last] = ids as [string, string, string, string]
    expect(await storedNotes()).toHaveLength(4)

    expect((await del(`/calendar/${here}/`, 'paula')).status).toBe(204)
    const google = await atGoogle()
    await google('DELETE', incremental)
    expect((await sync()).json).toMatchObject({ full: false })
    await google('DELETE', full)
    await sync({ full: true })
    expect(await storedNotes()).toEqual([{ id: last, notes: NOTES }])

    expect((await del('/calendar/', 'paula')).status).toBe(204)
    expect(await storedNotes()).toEqual([])
  })

  it('stay when the same calendar connects again, not when another one does', async () => {
    await connect()
    const { json: event } = await post('/calendar/', withNotes, 'paula')
    await post('/fake-google/dev/calendar/revoke/', { email: PAULA_GOOGLE })
    expect(await sync()).toMatchObject({ status: 400, json: { code: 'calendar_reconnect' } })
    await connect()
    expect(await notesOfWeek()).toEqual([{ id: event.id, notes: NOTES }])

    // Another Google calendar was connected before this one: nothing of its notes is kept.
    await database.db.update(calendarConnections).set({ primaryCalendarId: 'outra@gmail.test' }).where(eq(calendarConnections.userId, ID.paula))
    await connect()
    expect(await storedNotes()).toEqual([])
    expect(await notesOfWeek()).toEqual([{ id: event.id, notes: '' }])
  })
})

describe('POST /calendar/availability/', () => {
  const check = (who: Person, start = sp(TUE, '08:00'), end = sp(TUE, '18:00')) => post('/calendar/availability/', { start_time: start, end_time: end, professional_id: ID.paula }, who)

  it('asks Google’s freeBusy live: the professional and admins get the busy periods, with their titles', async () => {
    await connect()
    await external({ summary: 'Reunião', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    await external({ summary: 'Livre', start: sp(TUE, '13:00'), end: sp(TUE, '14:00'), transparency: 'transparent' })
    await sync()
    for (const who of ['paula', 'admin'] as const) {
      expect((await check(who)).json).toEqual({ available: false, conflicts: [{ start: sp(TUE, '10:00'), end: sp(TUE, '11:00'), summary: 'Reunião' }], warnings: [] })
    }
    expect((await check('paula', sp(TUE, '11:00'), sp(TUE, '12:00'))).json).toEqual({ available: true, conflicts: [], warnings: [] })
    // Their window may span up to 62 days.
    expect((await check('paula', sp(TUE, '00:00'), sp('2026-05-03', '00:00'))).status).toBe(200)
  })

  // Issue 22, finding 8: a patient read a professional's personal evening over 61 days.
  it('tells anyone else only whether one consultation’s time is free: no periods, no titles, no longer window', async () => {
    await connect()
    await external({ summary: 'Reunião', start: sp(TUE, '10:00'), end: sp(TUE, '11:00') })
    await external({ summary: 'Jantar pessoal', start: sp(TUE, '20:00'), end: sp(TUE, '21:00') })
    await sync()
    for (const who of ['pedro', 'rafael'] as const) {
      expect((await check(who, sp(TUE, '10:30'), sp(TUE, '11:20'))).json).toEqual({ available: false, conflicts: [], warnings: [] })
      expect((await check(who, sp(TUE, '11:00'), sp(TUE, '11:50'))).json).toEqual({ available: true, conflicts: [], warnings: [] })
      // Paula's consultations last 50 minutes: a longer window (the 61 days of the finding) is refused.
      expect(await check(who, sp(TUE, '08:00'), sp(TUE, '08:51'))).toMatchObject({ status: 400, json: { end_time: ['The window can span at most 50 minutes.'] } })
      const wide = await check(who, sp(TUE, '00:00'), sp('2026-05-03', '00:00'))
      expect(wide).toMatchObject({ status: 400, json: { end_time: ['The window can span at most 50 minutes.'] } })
      expect(wide.text).not.toContain('Jantar')
    }
  })

  it('counts live events as the stored copy does: an unanswered invitation leaves the time free, an accepted one takes it (decision 0036)', async () => {
    await connect()
    await external({ summary: 'Convite sem resposta', start: sp(TUE, '10:00'), end: sp(TUE, '11:00'), response_status: 'needsAction' })
    await external({ summary: 'Convite aceito', start: sp(TUE, '14:00'), end: sp(TUE, '15:00'), response_status: 'accepted' })
    // Live: not even synced yet.
    expect((await check('pedro', sp(TUE, '10:00'), sp(TUE, '10:50'))).json).toEqual({ available: true, conflicts: [], warnings: [] })
    expect((await check('pedro', sp(TUE, '14:00'), sp(TUE, '14:50'))).json).toEqual({ available: false, conflicts: [], warnings: [] })
    // The professional's own answer is Google's freeBusy, which shows the invitation.
    expect((await check('paula', sp(TUE, '10:00'), sp(TUE, '10:50'))).json.available).toBe(false)
  })

  it('rescheduling: the product’s appointment events are the appointments, which the booking itself checks', async () => {
    await connect()
    const response = await post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '10:30') }, 'pedro')
    expect(response.status).toBe(201)
    await app.services.background.idle()
    expect((await fakeCalendar()).map((event) => event.summary)).toEqual(['Consulta Innera com Pedro'])
    // Its event is no conflict for the check (for anyone); the booking rules keep the time taken for others.
    expect((await check('pedro', sp(TUE, '10:30'), sp(TUE, '11:20'))).json.available).toBe(true)
    expect(await get(`/appointments/calendar/availability/?professional_id=${ID.paula}&start=${TUE}&end=${TUE}`, 'rafael')).toMatchObject({
      json: { slots: expect.not.arrayContaining([expect.objectContaining({ start: sp(TUE, '10:30') })]) },
    })
  })

  it('throttles the check per user for everyone but the professional and admins (429 with Retry-After)', async () => {
    const throttled = client(createProviderApp({ db: database.db, config: testConfig({ ...ENV, THROTTLE_DISABLED: '0', THROTTLE_CALENDAR_CHECK_PER_USER: '3/h' }), clock: time.clock }))
    const ask = (who: Person, end = sp(TUE, '08:50')) => throttled.post('/calendar/availability/', { start_time: sp(TUE, '08:00'), end_time: end, professional_id: ID.paula }, { token: tokens[who] })
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask('pedro')))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429, 429])
    expect(answers.find((answer) => answer.status === 429)!.headers.get('retry-after')).toMatch(/^\d+$/)
    // Per user: another patient still has theirs; the professional and admins are not counted.
    expect((await ask('rafael')).status).toBe(200)
    for (let round = 0; round < 4; round += 1) for (const who of ['paula', 'admin'] as const) expect((await ask(who, sp(TUE, '18:00'))).status).toBe(200)
  })

  it('answers 502 google_error when Google cannot be asked', async () => {
    await connect()
    await post('/fake-google/dev/calendar/revoke/', { email: PAULA_GOOGLE })
    const failed = { status: 502, json: { detail: 'Não foi possível verificar conflitos no Google Calendar', code: 'google_error' } }
    expect(await check('pedro', sp(TUE, '08:00'), sp(TUE, '08:50'))).toMatchObject(failed)
    expect(await check('paula')).toMatchObject(failed)
  })

  it('checks its fields', async () => {
    const errors = async (body: unknown, who: Person = 'pedro') => (await post('/calendar/availability/', body, who)).json
    expect(await errors({})).toEqual({ start_time: ['This field is required.'], end_time: ['This field is required.'], professional_id: ['This field is required.'] })
    expect(await errors({ start_time: sp(TUE, '10:00'), end_time: sp(TUE, '09:00'), professional_id: ID.paula })).toEqual({ end_time: ['The end must be after the start.'] })
    expect(await errors({ start_time: sp(TUE, '10:00'), end_time: sp('2026-06-01', '09:00'), professional_id: ID.paula }, 'paula')).toEqual({ end_time: ['The window can span at most 62 days.'] })
    expect(await errors({ start_time: sp(TUE, '10:00'), end_time: sp(TUE, '10:50'), professional_id: ID.pedro })).toEqual({ professional_id: [`Invalid pk "${ID.pedro}" - object does not exist.`] })
    expect(await errors({ start_time: sp(TUE, '10:00'), end_time: sp(TUE, '11:00'), professional_id: ID.pedro }, 'admin')).toEqual({ professional_id: [`Invalid pk "${ID.pedro}" - object does not exist.`] })
  })
})

describe('busy Google time in free times (decision 0026)', () => {
  const slots = async (date = TUE) =>
    (await get(`/appointments/calendar/availability/?professional_id=${ID.paula}&start=${date}&end=${date}`, 'pedro')).json.slots.map((slot: { start: string }) => slot.start)
  // Paula's Tuesday: 08:00, 08:50, 09:40, 10:30 and 13:00 … 17:10 (50 minutes, no buffer).
  const at = (...times: string[]) => times.map((clock) => sp(TUE, clock))

  it('leaves out the time of a busy external event; a transparent one, a declined invitation and a cancelled event do not block', async () => {
    await connect()
    await external({ summary: 'Dentista', start: sp(TUE, '09:00'), end: sp(TUE, '10:00') })
    await external({ summary: 'Talvez', start: sp(TUE, '13:00'), end: sp(TUE, '13:30'), status: 'tentative' })
    await external({ summary: 'Livre', start: sp(TUE, '14:40'), end: sp(TUE, '16:00'), transparency: 'transparent' })
    await external({ summary: 'Recusado', start: sp(TUE, '16:20'), end: sp(TUE, '18:00'), response_status: 'declined' })
    await sync()
    const free = await slots()
    expect(free).not.toEqual(expect.arrayContaining(at('08:50', '09:40', '13:00')))
    expect(free).toEqual(expect.arrayContaining(at('08:00', '10:30', '13:50', '14:40', '15:30', '16:20', '17:10')))
    // The directory's next free time and booking follow the same rule.
    expect(await post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '09:40') }, 'pedro')).toMatchObject({
      status: 409,
      json: { code: 'slot_taken', nearest: [sp(TUE, '10:30'), sp(TUE, '08:00'), sp(TUE, '13:50')] },
    })
    expect((await post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '14:40') }, 'pedro')).status).toBe(201)
  })

  it('blocks the whole day for a busy all-day event, and not for a free one', async () => {
    await connect()
    await external({ summary: 'Congresso', date: TUE })
    await external({ summary: 'Aniversário', date: WED, transparency: 'transparent' })
    await sync()
    expect(await slots()).toEqual([])
    expect(await slots(WED)).toHaveLength(10)
    const directory = await get('/appointments/professionals/', 'pedro')
    expect(directory.json.find((entry: { id: number }) => entry.id === ID.paula).next_free_time).toBe(sp(WED, '08:00'))
  })

  // Issue 22 (info), decision 0036: anyone who knows a professional's address could empty their free times by inviting them.
  it('counts an invitation only once the professional accepted it (or tentatively): unanswered ones do not block', async () => {
    await connect()
    await external({ summary: 'Convite sem resposta', start: sp(TUE, '08:00'), end: sp(TUE, '10:00'), response_status: 'needsAction' })
    await external({ summary: 'Convite aceito', start: sp(TUE, '13:00'), end: sp(TUE, '13:30'), response_status: 'accepted' })
    await external({ summary: 'Convite talvez', start: sp(TUE, '15:30'), end: sp(TUE, '16:00'), response_status: 'tentative' })
    await sync()
    const free = await slots()
    expect(free).toEqual(expect.arrayContaining(at('08:00', '08:50', '09:40')))
    expect(free).not.toEqual(expect.arrayContaining(at('13:00')))
    expect(free).not.toEqual(expect.arrayContaining(at('15:30')))
    expect((await post('/appointments/create/', { professional_id: ID.paula, start_time: sp(TUE, '08:00') }, 'pedro')).status).toBe(201)
    // The invitation is still on the professional's own calendar page.
    expect(summaries((await week()).json.events)).toContain('Convite sem resposta')
  })

  it('keeps at most the limit of one calendar’s events, the nearest to now, and says so', async () => {
    for (let day = 0; day < 6; day += 1) {
      const date = new Date(Date.UTC(2026, 2, 3 + day)).toISOString().slice(0, 10)
      await external({ summary: `Convite ${date}`, start: sp(date, '20:00'), end: sp(date, '21:00'), response_status: 'needsAction' })
    }
    await external({ summary: 'Daqui a dois anos', start: sp('2028-03-03', '10:00'), end: sp('2028-03-03', '11:00') })
    await connect()
    await app.services.background.idle()
    const report = await syncCalendar(app.services, ID.paula, { full: true, maxStoredEvents: 4 })
    expect(report.notKept).toBe(2)
    const stored = await database.db.select({ summary: calendarEvents.summary }).from(calendarEvents).where(eq(calendarEvents.userId, ID.paula))
    expect(stored.map((row) => row.summary).sort()).toEqual(['Convite 2026-03-03', 'Convite 2026-03-04', 'Convite 2026-03-05', 'Convite 2026-03-06'])
    expect(logged).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'calendar holds more events than are kept', user_id: ID.paula, kept: 4, not_kept: 2 }))
    // An incremental sync that brings more is held to the limit too: the farthest go.
    await external({ summary: 'Hoje à noite', start: sp('2026-03-02', '20:00'), end: sp('2026-03-02', '21:00') })
    expect((await syncCalendar(app.services, ID.paula, { maxStoredEvents: 4 })).notKept).toBe(1)
    const after = await database.db.select({ summary: calendarEvents.summary }).from(calendarEvents).where(eq(calendarEvents.userId, ID.paula))
    expect(after.map((row) => row.summary).sort()).toEqual(['Convite 2026-03-03', 'Convite 2026-03-04', 'Convite 2026-03-05', 'Hoje à noite'])
  })

  it('counts the stored events only while connected', async () => {
    await connect()
    await external({ summary: 'Congresso', date: TUE })
    await sync()
    expect(await slots()).toEqual([])
    await del('/calendar/', 'paula')
    expect(await slots()).toHaveLength(10)
  })
})

describe('appointment events in the professional’s calendar', () => {
  const book = (start: string) => post('/appointments/create/', { professional_id: ID.paula, start_time: start, notes: 'Dor de cabeça frequente' }, 'pedro')

  it('creates "Consulta Innera com {first name}" after booking, moves it with the appointment and deletes it on cancel', async () => {
    await connect()
    const booked = await book(sp(TUE, '10:30'))
    expect(booked.status).toBe(201)
    const [event] = await fakeCalendar()
    expect(event).toMatchObject({ summary: 'Consulta Innera com Pedro', status: 'confirmed', start: { dateTime: sp(TUE, '10:30') } })
    expect(event!.description).toContain(`http://app.test/consultas/${booked.json.id}`)
    expect(event!.description).toContain('https://meet.jit.si/innera-')
    // Nothing of the surname or of the notes.
    expect(JSON.stringify(event)).not.toMatch(/Santos|Dor de cabeça/)
    const [row] = await database.db.select().from(appointments).where(eq(appointments.id, booked.json.id))
    expect(row!.googleEventId).toBe(event!.id)
    // The product's own event is not busy time on top of the appointment.
    const stored = (await week()).json.events
    expect(stored).toEqual([expect.objectContaining({ id: event!.id, innera_appointment_id: booked.json.id })])

    expect((await api.patch(`/appointments/${booked.json.id}/update/`, { start_time: sp(TUE, '13:00') }, { token: tokens.pedro })).status).toBe(200)
    expect(await fakeCalendar()).toMatchObject([{ id: event!.id, status: 'confirmed', start: { dateTime: sp(TUE, '13:00') } }])

    expect((await post(`/appointments/${booked.json.id}/cancel/`, {}, 'pedro')).status).toBe(200)
    expect(await fakeCalendar()).toEqual([expect.objectContaining({ id: event!.id, status: 'cancelled' })])
    const [cancelled] = await database.db.select().from(appointments).where(eq(appointments.id, booked.json.id))
    expect(cancelled!.googleEventId).toBeNull()
    expect((await week()).json.events).toEqual([])
  })

  it('deletes the event when an admin deletes the appointment', async () => {
    await connect()
    const booked = await book(sp(TUE, '10:30'))
    expect((await del(`/appointments/${booked.json.id}/delete/`, 'admin')).status).toBe(204)
    expect((await fakeCalendar())[0]!.status).toBe('cancelled')
  })

  it('writes nothing for a professional without a connected calendar, and never fails the booking', async () => {
    expect((await book(sp(TUE, '10:30'))).status).toBe(201)
    await connect()
    await post('/fake-google/dev/calendar/revoke/', { email: PAULA_GOOGLE })
    const booked = await book(sp(TUE, '13:00'))
    expect(booked.status).toBe(201)
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', msg: 'calendar event of an appointment failed', appointment_id: booked.json.id }))
    expect((await get('/calendar/', 'paula')).json.token_valid).toBe(false)
    expect(await fakeCalendar()).toEqual([])
    // No token or code in any log line.
    expect(JSON.stringify(logged)).not.toMatch(/1\/\/|4\/|Bearer/)
  })

  it('brings the event back when it was deleted in Google meanwhile', async () => {
    await connect()
    const booked = await book(sp(TUE, '10:30'))
    const [first] = await fakeCalendar()
    const google = (await fakeCalendarTokens(app, PAULA_GOOGLE)).access_token
    await app.request(`${FAKE_GOOGLE}/calendar/v3/calendars/primary/events/${first!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${google}` } })
    expect((await api.patch(`/appointments/${booked.json.id}/update/`, { start_time: sp(TUE, '13:00') }, { token: tokens.pedro })).status).toBe(200)
    const live = (await fakeCalendar()).filter((event) => event.status === 'confirmed')
    expect(live).toMatchObject([{ summary: 'Consulta Innera com Pedro', start: { dateTime: sp(TUE, '13:00') } }])
    const [row] = await database.db.select().from(appointments).where(eq(appointments.id, booked.json.id))
    expect(row!.googleEventId).toBe(live[0]!.id)
  })
})

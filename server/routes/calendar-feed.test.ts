import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createProviderApp, type ProviderApp } from '#server/app.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { encodeUid } from '#server/auth/one-time-links.ts'
import { issueResetToken } from '#server/auth/reset-tokens.ts'
import { calendarFeeds, users } from '#server/db/schema.ts'
import type { LogEntry } from '#server/log.ts'
import { client, createMemoryDatabase, fakeClock, PUBLIC_URL, resetDatabase, testConfig, freeConsultations } from '#server/testing/harness.ts'

/**
 * The private calendar feed (issue 12): every role may create, read and revoke its own; the token
 * is shown once and only its SHA-256 is stored; the feed answers with no Bearer token, only the
 * caller's own appointments (an admin's feed is not everyone's), with nothing but the calendar's
 * fields; replaced and revoked tokens are dead; the token never reaches the log.
 */

// Monday 2026-03-02, 09:00 in São Paulo (UTC-3).
const NOW = Date.parse('2026-03-02T12:00:00Z')
const DAY = 24 * 3600
const ENV = { ACCESS_TOKEN_LIFETIME: String(365 * DAY), REFRESH_TOKEN_LIFETIME: String(365 * DAY) }
const EMAILS = {
  admin: 'admin@innera.local',
  paula: 'profissional@innera.local',
  rafael: 'nutricionista@innera.local',
  pedro: 'paciente@innera.local',
  mariana: 'paciente2@innera.local',
} as const
type Person = keyof typeof EMAILS
const ID: Record<Person, number> = { admin: 1, paula: 2, rafael: 3, pedro: 4, mariana: 5 }
const FEED = '/appointments/calendar-feed/'
const FEED_KEYS = ['end_time', 'id', 'other_first_name', 'start_time', 'status']

const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()

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

const as = (who: Person) => ({ token: tokens[who] })
async function createFeed(who: Person): Promise<string> {
  const response = await api.post(FEED, undefined, as(who))
  expect(response.status).toBe(201)
  return response.json.token
}
const feed = (token: string, headers: Record<string, string> = {}) => api.get(`${FEED}${token}/`, { headers })

async function book(patient: Person, professional: Person, start: string, notes = ''): Promise<number> {
  const response = await api.post('/appointments/create/', { professional_id: ID[professional], start_time: start, notes }, as(patient))
  if (response.status !== 201) throw new Error(`booking failed: ${response.status} ${response.text}`)
  return response.json.id
}

describe('creating, reading and revoking one’s feed', () => {
  it.each(['pedro', 'paula', 'admin'] as const)('works for %s (any role), and the token is shown only at creation', async (who) => {
    expect((await api.get(FEED, as(who))).json).toEqual({ active: false, created_at: null })
    const created = await api.post(FEED, undefined, as(who))
    expect(created.status).toBe(201)
    expect(Object.keys(created.json)).toEqual(['token'])
    expect(created.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(created.headers.get('cache-control')).toBe('no-store')
    const status = await api.get(FEED, as(who))
    expect(status.json).toEqual({ active: true, created_at: new Date(NOW).toISOString() })
    expect(status.text).not.toContain(created.json.token)
    expect((await feed(created.json.token)).status).toBe(200)
  })

  it('needs a signed-in user to create, read or revoke', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) expect((await api.call(method, FEED)).status).toBe(401)
  })

  it('stores only the SHA-256 of the token', async () => {
    const token = await createFeed('pedro')
    const rows = await database.db.select().from(calendarFeeds)
    expect(rows).toEqual([{ userId: ID.pedro, tokenHash: createHash('sha256').update(token).digest('hex'), createdAt: new Date(NOW) }])
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  it('creating again replaces the token: the old one stops working at once', async () => {
    const old = await createFeed('pedro')
    time.set(NOW + 3600_000)
    const replacement = await createFeed('pedro')
    expect(replacement).not.toBe(old)
    expect((await feed(old)).status).toBe(404)
    expect((await feed(replacement)).status).toBe(200)
    expect((await api.get(FEED, as('pedro'))).json).toEqual({ active: true, created_at: new Date(NOW + 3600_000).toISOString() })
    expect(await database.db.select().from(calendarFeeds)).toHaveLength(1)
  })

  it('revoking kills the token (404, like one that never existed); revoking again is fine', async () => {
    const token = await createFeed('paula')
    const other = await createFeed('pedro')
    expect((await api.call('DELETE', FEED, as('paula'))).status).toBe(204)
    expect(await feed(token)).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect((await api.get(FEED, as('paula'))).json).toEqual({ active: false, created_at: null })
    expect((await api.call('DELETE', FEED, as('paula'))).status).toBe(204)
    // Only one's own: Pedro's feed lives on.
    expect((await feed(other)).status).toBe(200)
  })
})

describe('reading a feed with its token', () => {
  it("answers the owner's own appointments, both as patient and as professional, with the calendar's fields only", async () => {
    const withPaula = await book('pedro', 'paula', sp('2026-03-04', '08:00'), 'Insônia e ansiedade')
    const withRafael = await book('pedro', 'rafael', sp('2026-03-05', '09:40'), 'Dieta para diabetes')
    const mariana = await book('mariana', 'paula', sp('2026-03-06', '10:30'))
    await api.post(`/appointments/${withRafael}/cancel/`, {}, as('pedro'))

    const pedro = await feed(await createFeed('pedro'))
    expect(pedro.status).toBe(200)
    expect(pedro.headers.get('cache-control')).toBe('no-store')
    expect(pedro.json).toEqual({
      time_zone: 'America/Sao_Paulo',
      appointments: [
        { id: withPaula, status: 'scheduled', start_time: '2026-03-04T11:00:00.000Z', end_time: '2026-03-04T11:50:00.000Z', other_first_name: 'Paula' },
        { id: withRafael, status: 'cancelled', start_time: '2026-03-05T12:40:00.000Z', end_time: '2026-03-05T13:30:00.000Z', other_first_name: 'Rafael' },
      ],
    })

    const paula = await feed(await createFeed('paula'))
    expect(paula.json.appointments.map((item: { id: number; other_first_name: string }) => [item.id, item.other_first_name])).toEqual([
      [withPaula, 'Pedro'],
      [mariana, 'Mariana'],
    ])
    for (const item of [...pedro.json.appointments, ...paula.json.appointments]) expect(Object.keys(item).sort()).toEqual(FEED_KEYS)
    // No health details: no notes, surnames, professions or meeting rooms.
    for (const text of [pedro.text, paula.text]) {
      for (const detail of ['Insônia', 'diabetes', 'Santos', 'Ribeiro', 'Alves', 'Costa', 'Nutri', 'Medicina', 'meet.jit.si', 'notes', 'email']) expect(text).not.toContain(detail)
    }
  })

  it("an admin's feed holds the admin's own appointments only, not everyone's", async () => {
    await book('pedro', 'paula', sp('2026-03-04', '08:00'))
    expect((await feed(await createFeed('admin'))).json).toEqual({ time_zone: 'America/Sao_Paulo', appointments: [] })
  })

  it("gives the owner's time zone, and only the window from 30 days back", async () => {
    await database.db.update(users).set({ timeZone: 'Europe/Lisbon' }).where(eq(users.id, ID.pedro))
    const id = await book('pedro', 'paula', sp('2026-03-04', '08:00'))
    const token = await createFeed('pedro')
    expect((await feed(token)).json).toMatchObject({ time_zone: 'Europe/Lisbon', appointments: [{ id }] })
    time.set(Date.parse('2026-04-03T10:59:00Z'))
    expect((await feed(token)).json.appointments).toHaveLength(1)
    time.set(Date.parse('2026-04-03T11:00:01Z'))
    expect((await feed(token)).json.appointments).toHaveLength(0)
  })

  it('needs no Bearer token, and another user’s Bearer token changes nothing', async () => {
    const id = await book('pedro', 'paula', sp('2026-03-04', '08:00'))
    const token = await createFeed('pedro')
    const withOther = await api.get(`${FEED}${token}/`, as('mariana'))
    expect(withOther.json.appointments.map((item: { id: number }) => item.id)).toEqual([id])
  })

  it('answers 404 for unknown, malformed and deactivated owners’ tokens', async () => {
    const token = await createFeed('pedro')
    for (const bad of ['A'.repeat(43), token.slice(0, 42), `${token}x`, 'short']) expect((await feed(bad)).status).toBe(404)
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, ID.pedro))
    expect((await feed(token)).status).toBe(404)
    // A write to the feed's URL is not a thing.
    expect((await api.post(`${FEED}${token}/`)).status).toBe(405)
  })

  it('never writes the token to the log', async () => {
    const token = await createFeed('pedro')
    await feed(token)
    await feed('B'.repeat(43))
    const paths = logged.filter((entry) => entry.msg === 'request').map((entry) => entry.path)
    expect(paths).toContain('/appointments/calendar-feed/[redacted]/')
    expect(JSON.stringify(logged)).not.toContain(token)
    // Its 301 (no trailing slash) is logged redacted too.
    const redirect = await app.request(`${PUBLIC_URL}${FEED}${token}`)
    expect(redirect.status).toBe(301)
    expect(JSON.stringify(logged)).not.toContain(token)
  })
})

describe('the feed and the password (issue 22, finding 7)', () => {
  const DEMO_PASSWORD = 'innera-demo-2025'
  const NEW_PASSWORD = 'caminhada-matinal-8'

  it('a reset by e-mail revokes it: the account may have been in other hands, which may have copied the link', async () => {
    const token = await createFeed('mariana')
    const other = await createFeed('pedro')
    const resetToken = await issueResetToken(database.db, ID.mariana, NOW)
    const reset = await api.post(`/users/password-reset-confirm/${encodeUid(ID.mariana)}/${resetToken}/`, { new_password: NEW_PASSWORD })
    expect(reset.status).toBe(200)
    expect(await feed(token)).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    // Signed in again, the owner sees it gone and makes a new one; nobody else's feed is touched.
    const { access } = await api.login(EMAILS.mariana, NEW_PASSWORD)
    expect((await api.get(FEED, { token: access })).json).toEqual({ active: false, created_at: null })
    const renewed = await api.post(FEED, undefined, { token: access })
    expect((await feed(renewed.json.token)).status).toBe(200)
    expect((await feed(other)).status).toBe(200)
  })

  it('a refused reset (a weak password) leaves it working', async () => {
    const token = await createFeed('mariana')
    const resetToken = await issueResetToken(database.db, ID.mariana, NOW)
    expect((await api.post(`/users/password-reset-confirm/${encodeUid(ID.mariana)}/${resetToken}/`, { new_password: 'senha123' })).status).toBe(400)
    expect((await feed(token)).status).toBe(200)
  })

  it('a change revokes it unless the user keeps it (keep_calendar_feed); a refused change leaves it', async () => {
    const change = (access: string, body: Record<string, unknown>) => api.post('/users/change-password/', { old_password: DEMO_PASSWORD, new_password: NEW_PASSWORD, ...body }, { token: access })
    const kept = await createFeed('mariana')
    expect((await change((await api.login(EMAILS.mariana)).access, { keep_calendar_feed: true })).status).toBe(200)
    expect((await feed(kept)).status).toBe(200)

    await resetDatabase(database.db)

    await freeConsultations(database.db)
    const dropped = await createFeed('mariana')
    expect((await change((await api.login(EMAILS.mariana)).access, { old_password: 'wrong-password' })).status).toBe(400)
    expect((await feed(dropped)).status).toBe(200)
    expect((await change((await api.login(EMAILS.mariana)).access, {})).status).toBe(200)
    expect((await feed(dropped)).status).toBe(404)

    await resetDatabase(database.db)

    await freeConsultations(database.db)
    const unchecked = await createFeed('mariana')
    // What an unticked box of a form sends, spelled as DRF reads it.
    expect((await change((await api.login(EMAILS.mariana)).access, { keep_calendar_feed: 'false' })).status).toBe(200)
    expect((await feed(unchecked)).status).toBe(404)
    expect((await change((await api.login(EMAILS.mariana, NEW_PASSWORD)).access, { old_password: NEW_PASSWORD, new_password: 'caminhada-noturna-9', keep_calendar_feed: 'maybe' })).json).toEqual({
      keep_calendar_feed: ['Must be a valid boolean.'],
    })
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { count, eq, sql } from 'drizzle-orm'
import type { DatabaseHandle } from '#server/db/client.ts'
import { fakeZoomMeetings, groups, liveClasses, liveClassSeats, products, subscriptions, userGroups, users } from '#server/db/schema.ts'
import { liveClassTick } from '#server/jobs.ts'
import { reserveSeat } from '#server/live-classes/repository.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, testApp } from '#server/testing/harness.ts'

const NOW = Date.parse('2026-11-27T12:00:00Z')
const MINUTE = 60_000
const HOUR = 60 * MINUTE
// The clock moves by days here: the sign-ins made once must outlive it.
const LONG_TOKENS = { ACCESS_TOKEN_LIFETIME: '31536000', REFRESH_TOKEN_LIFETIME: '31536000' }

let database: DatabaseHandle
let app: ReturnType<typeof testApp>
let api: ReturnType<typeof client>
const clock = fakeClock(NOW)
const tokens = { pedro: '', ana: '', paula: '', nutri: '', admin: '' }
const ids = { pedro: 0, ana: 0, paula: 0, nutri: 0 }

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: clock.clock, env: LONG_TOKENS })
  api = client(app)
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.ana = (await api.login('paciente2@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.nutri = (await api.login('nutricionista@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
  const idOf = async (email: string) => (await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id
  ids.pedro = await idOf('paciente@innera.local')
  ids.ana = await idOf('paciente2@innera.local')
  ids.paula = await idOf('profissional@innera.local')
  ids.nutri = await idOf('nutricionista@innera.local')
})
afterAll(() => database.close())
beforeEach(async () => {
  clock.set(NOW)
  // The seeded classes follow the real date; these tests make their own.
  await database.db.execute(sql`TRUNCATE "live_classes", "live_class_seats", "fake_zoom_meetings", "outbox" RESTART IDENTITY CASCADE`)
  await database.db.delete(subscriptions)
})

const get = (path: string, token: string) => api.get(path, { token })
const post = (path: string, token: string, body: unknown = {}) => api.call('POST', path, { body, token })

const classBody = (over: Record<string, unknown> = {}) => ({
  pillar: 'sono',
  title: { pt: 'Yoga para dormir melhor', en: 'Yoga for better sleep', es: 'Yoga para dormir mejor' },
  description: { pt: 'Posturas suaves.', en: 'Gentle postures.', es: 'Posturas suaves.' },
  teacher_id: ids.paula,
  starts_at: new Date(NOW + 2 * 24 * HOUR).toISOString(),
  duration_minutes: 45,
  seats: 20,
  access: 'free',
  ...over,
})

async function createClass(over: Record<string, unknown> = {}) {
  const created = await post('/products/zoom/sessions/', tokens.admin, classBody(over))
  if (created.status !== 201) throw new Error(`class not created: ${created.status} ${created.text}`)
  return created.json
}

async function subscribe(userId: number) {
  const [plan] = await database.db.select().from(products).where(eq(products.slug, 'plano-mensal'))
  const now = new Date(clock.clock())
  await database.db.insert(subscriptions).values({ userId, productId: plan!.id, method: 'pix', status: 'active', priceCents: plan!.priceCents, idempotencyKey: `live-class-${userId}`, currentPeriodStart: now, currentPeriodEnd: new Date(now.getTime() + 30 * 24 * HOUR) })
}

describe('reading the sessions', () => {
  it('lists upcoming and ongoing sessions by start to every role signed in, privately, and nobody else', async () => {
    const later = await createClass({ starts_at: new Date(NOW + 3 * 24 * HOUR).toISOString(), pillar: 'estresse', teacher_id: ids.nutri })
    const sooner = await createClass()
    for (const token of Object.values(tokens)) {
      const listed = await get('/products/zoom/sessions/', token)
      expect(listed.status).toBe(200)
      expect(listed.headers.get('cache-control')).toBe('private, no-store')
      expect(listed.json.results.map((row: { id: number }) => row.id)).toEqual([sooner.id, later.id])
    }
    expect((await api.get('/products/zoom/sessions/')).status).toBe(401)
    const shown = (await get(`/products/zoom/sessions/${sooner.id}/`, tokens.pedro)).json
    expect(shown).toMatchObject({
      id: sooner.id,
      pillar: 'sono',
      pillar_id: expect.any(Number),
      title: { en: 'Yoga for better sleep' },
      teacher: { id: ids.paula, first_name: expect.any(String), last_name: expect.any(String), photo: null, profession: expect.any(String) },
      starts_at: '2026-11-29T12:00:00.000Z',
      ends_at: '2026-11-29T12:45:00.000Z',
      duration_minutes: 45,
      seats: 20,
      seats_left: 20,
      access: 'free',
      can_join_now: false,
      join_opens_at: '2026-11-29T11:50:00.000Z',
      reserved: false,
      locked: false,
    })
    expect(JSON.stringify(shown)).not.toMatch(/zoom|join_url|start_url/i)
    expect((await get('/products/zoom/sessions/?pillar=estresse', tokens.pedro)).json.count).toBe(1)
    expect((await get(`/products/zoom/sessions/?from=${encodeURIComponent('2026-11-30T00:00:00Z')}`, tokens.pedro)).json.count).toBe(1)
    expect((await get('/products/zoom/sessions/?to=2026-11-30T00:00:00Z', tokens.pedro)).json.count).toBe(1)
    expect((await get('/products/zoom/sessions/?pillar=nada', tokens.pedro)).status).toBe(400)
    expect((await get('/products/zoom/sessions/?from=amanha', tokens.pedro)).status).toBe(400)
    expect((await get('/products/zoom/sessions/99999/', tokens.pedro)).status).toBe(404)
    // Ended classes leave the list.
    clock.set(NOW + 2 * 24 * HOUR + 45 * MINUTE)
    expect((await get('/products/zoom/sessions/', tokens.pedro)).json.results.map((row: { id: number }) => row.id)).toEqual([later.id])
  })

  it('lets only an admin create a class, within bounds', async () => {
    expect((await post('/products/zoom/sessions/', tokens.pedro, classBody())).status).toBe(403)
    expect((await post('/products/zoom/sessions/', tokens.paula, classBody())).status).toBe(403)
    const refused = async (over: Record<string, unknown>) => {
      const answer = await post('/products/zoom/sessions/', tokens.admin, classBody(over))
      expect(answer.status).toBe(400)
      return Object.keys(answer.json)
    }
    expect(await refused({ starts_at: new Date(NOW - MINUTE).toISOString() })).toEqual(['starts_at'])
    expect(await refused({ starts_at: new Date(NOW + 366 * 24 * HOUR).toISOString() })).toEqual(['starts_at'])
    expect(await refused({ duration_minutes: 10 })).toEqual(['duration_minutes'])
    expect(await refused({ duration_minutes: 241 })).toEqual(['duration_minutes'])
    expect(await refused({ seats: 0 })).toEqual(['seats'])
    expect(await refused({ seats: 1001 })).toEqual(['seats'])
    expect(await refused({ access: 'vip' })).toEqual(['access'])
    expect(await refused({ teacher_id: ids.pedro })).toEqual(['teacher_id'])
    expect(await refused({ pillar: 'nada' })).toEqual(['pillar'])
    expect((await post('/products/zoom/sessions/', tokens.admin, classBody({ title: { pt: 'x'.repeat(121), en: 'a', es: 'a' } }))).status).toBe(400)
    expect((await post('/products/zoom/sessions/', tokens.admin, classBody({ title: undefined }))).status).toBe(400)
    const created = await post('/products/zoom/sessions/', tokens.admin, classBody({ access: 'members', seats: 5 }))
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ access: 'members', seats: 5, seats_left: 5, slug: expect.stringMatching(/^yoga-para-dormir-melhor-2026-11-29-[0-9a-f]{6}$/) })
  })
})

describe('access and seats', () => {
  it("refuses a members' class to a patient without a plan, and takes a seat once with one", async () => {
    const cls = await createClass({ access: 'members', seats: 2 })
    expect((await get(`/products/zoom/sessions/${cls.id}/`, tokens.pedro)).json).toMatchObject({ locked: true, reserved: false })
    expect(await post('/products/sessions/join/', tokens.pedro, { session_id: cls.id })).toMatchObject({ status: 403, json: { code: 'locked' } })
    await subscribe(ids.pedro)
    const joined = await post('/products/sessions/join/', tokens.pedro, { session_id: cls.id })
    expect(joined.status).toBe(201)
    expect(joined.json).toMatchObject({ reserved: true, locked: false, seats_left: 1 })
    const again = await post('/products/sessions/join/', tokens.pedro, { session_id: cls.id })
    expect(again.status).toBe(200)
    expect(again.json.seats_left).toBe(1)
    // Staff see it unlocked, but seats are the patients'.
    expect((await get(`/products/zoom/sessions/${cls.id}/`, tokens.nutri)).json.locked).toBe(false)
    expect(await post('/products/sessions/join/', tokens.nutri, { session_id: cls.id })).toMatchObject({ status: 403, json: { code: 'patients_only' } })
    expect((await post('/products/sessions/join/', tokens.pedro, { session_id: 99999 })).status).toBe(404)
    expect((await post('/products/sessions/join/', tokens.pedro, {})).status).toBe(400)
    // "My next class".
    const upcoming = await get('/products/sessions/upcoming/', tokens.pedro)
    expect(upcoming.json.results.map((row: { id: number }) => row.id)).toEqual([cls.id])
    expect((await get('/products/sessions/upcoming/', tokens.ana)).json.count).toBe(0)
    clock.set(NOW + 2 * 24 * HOUR + 45 * MINUTE)
    expect((await get('/products/sessions/upcoming/', tokens.pedro)).json.count).toBe(0)
    expect(await post('/products/sessions/join/', tokens.ana, { session_id: cls.id })).toMatchObject({ status: 403 })
    await subscribe(ids.ana)
    expect(await post('/products/sessions/join/', tokens.ana, { session_id: cls.id })).toMatchObject({ status: 409, json: { code: 'ended' } })
  })

  it('never oversells: 3 seats, 10 patients joining at once', async () => {
    const cls = await createClass({ seats: 3 })
    const [pedro] = await database.db.select().from(users).where(eq(users.id, ids.pedro))
    const [patientGroup] = await database.db.select().from(groups).where(eq(groups.name, 'paciente'))
    const logins: string[] = []
    for (let index = 0; index < 10; index++) {
      const email = `corrida${index}@innera.test`
      const [user] = await database.db
        .insert(users)
        .values({ email, username: `corrida${index}`, password: pedro!.password, firstName: 'Corrida', lastName: 'Teste', emailVerified: true })
        .returning()
      await database.db.insert(userGroups).values({ userId: user!.id, groupId: patientGroup!.id }).onConflictDoNothing()
      logins.push((await api.login(email)).access)
    }
    const answers = await Promise.all(logins.map((token) => post('/products/sessions/join/', token, { session_id: cls.id })))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3)
    expect(answers.filter((answer) => answer.status === 409 && answer.json.code === 'full')).toHaveLength(7)
    const [row] = await database.db.select().from(liveClasses).where(eq(liveClasses.id, cls.id))
    expect(row!.seatsTaken).toBe(3)
    expect((await database.db.select({ n: count() }).from(liveClassSeats).where(eq(liveClassSeats.classId, cls.id)))[0]!.n).toBe(3)
    // Even a wrong count could not pass the seats: the CHECK refuses it.
    await expect(database.db.update(liveClasses).set({ seatsTaken: 4 }).where(eq(liveClasses.id, cls.id))).rejects.toThrow()
  })
})

describe('joining the meeting', () => {
  it('hands out the link only inside the window, to those with access, the same meeting for everyone', async () => {
    const cls = await createClass({ starts_at: new Date(NOW + HOUR).toISOString(), teacher_id: ids.paula })
    const join = (token: string) => post(`/products/zoom/join-class/${cls.id}/`, token)
    expect(await join(tokens.pedro)).toMatchObject({ status: 409, json: { code: 'not_open_yet', opens_at: '2026-11-27T12:50:00.000Z' } })
    clock.set(NOW + 50 * MINUTE - 1)
    expect((await join(tokens.pedro)).json.code).toBe('not_open_yet')
    clock.set(NOW + 50 * MINUTE)
    const pedro = await join(tokens.pedro)
    expect(pedro.status).toBe(200)
    expect(pedro.headers.get('cache-control')).toBe('private, no-store')
    expect(pedro.json).toEqual({ join_url: expect.stringMatching(/^http:\/\/provider\.test\/fake-zoom\/j\/\d+\?pwd=\d+$/), opens_at: '2026-11-27T12:50:00.000Z', closes_at: '2026-11-27T13:45:00.000Z' })
    // Joining took a seat; the session says so and may be joined now.
    expect((await get(`/products/zoom/sessions/${cls.id}/`, tokens.pedro)).json).toMatchObject({ reserved: true, can_join_now: true, seats_left: 19 })
    const ana = await join(tokens.ana)
    expect(ana.json.join_url).toBe(pedro.json.join_url)
    expect((await database.db.select({ n: count() }).from(fakeZoomMeetings))[0]!.n).toBe(1)
    const teacher = await join(tokens.paula)
    expect(teacher.json).toMatchObject({ join_url: pedro.json.join_url, start_url: expect.stringContaining('/fake-zoom/s/') })
    const admin = await join(tokens.admin)
    expect(admin.json.join_url).toBe(pedro.json.join_url)
    expect(admin.json.start_url).toBeUndefined()
    expect((await join(tokens.nutri)).status).toBe(403)
    clock.set(NOW + HOUR + 45 * MINUTE)
    expect(await join(tokens.pedro)).toMatchObject({ status: 409, json: { code: 'ended' } })
  })

  it("refuses a members' class's link to a patient without a plan, and a full class's to one without a seat", async () => {
    const cls = await createClass({ starts_at: new Date(NOW + 5 * MINUTE).toISOString(), access: 'members', seats: 1 })
    expect(await post(`/products/zoom/join-class/${cls.id}/`, tokens.pedro)).toMatchObject({ status: 403, json: { code: 'locked' } })
    await subscribe(ids.pedro)
    await subscribe(ids.ana)
    expect((await post(`/products/zoom/join-class/${cls.id}/`, tokens.pedro)).status).toBe(200)
    expect(await post(`/products/zoom/join-class/${cls.id}/`, tokens.ana)).toMatchObject({ status: 409, json: { code: 'full' } })
  })

  it('creates the meetings of classes within 48 hours at the tick, once, even when joins race', async () => {
    const soon = await createClass({ starts_at: new Date(NOW + 47 * HOUR).toISOString() })
    const far = await createClass({ starts_at: new Date(NOW + 49 * HOUR).toISOString() })
    expect((await liveClassTick(app.services)).meetings).toEqual({ created: 1, failed: 0 })
    expect((await liveClassTick(app.services)).meetings).toEqual({ created: 0, failed: 0 })
    const [row] = await database.db.select().from(liveClasses).where(eq(liveClasses.id, soon.id))
    expect(row!.joinUrl).toContain('/fake-zoom/j/')
    // Two joins racing on a class without a meeting: one meeting stays, the loser's is deleted.
    clock.set(NOW + 49 * HOUR - 5 * MINUTE)
    const [a, b] = await Promise.all([post(`/products/zoom/join-class/${far.id}/`, tokens.pedro), post(`/products/zoom/join-class/${far.id}/`, tokens.ana)])
    expect(a.json.join_url).toBe(b.json.join_url)
    expect((await database.db.select({ n: count() }).from(fakeZoomMeetings))[0]!.n).toBe(2)
  })

  it('answers 503 meeting_unavailable when Zoom is away', async () => {
    const cls = await createClass({ starts_at: new Date(NOW + 5 * MINUTE).toISOString() })
    const noZoom = client(testApp(database.db, { clock: clock.clock, env: { ...LONG_TOKENS, FAKE_ZOOM: '0' } }))
    expect(await noZoom.call('POST', `/products/zoom/join-class/${cls.id}/`, { token: tokens.pedro })).toMatchObject({ status: 503, json: { code: 'meeting_unavailable' } })
  })
})

describe('reminders and the calendar file', () => {
  it('sends the 24-hour and 15-minute reminders once each, in each person’s zone, without the link', async () => {
    const cls = await createClass({ starts_at: '2026-11-28T22:00:00Z' })
    await database.db.update(users).set({ timeZone: 'Europe/Lisbon' }).where(eq(users.id, ids.ana))
    try {
      expect((await post('/products/sessions/join/', tokens.pedro, { session_id: cls.id })).status).toBe(201)
      expect((await post('/products/sessions/join/', tokens.ana, { session_id: cls.id })).status).toBe(201)
      expect((await liveClassTick(app.services)).sent).toBe(0)
      clock.set(Date.parse('2026-11-27T22:00:00Z'))
      expect((await liveClassTick(app.services)).sent).toBe(2)
      expect((await liveClassTick(app.services)).sent).toBe(0)
      const [pedroMail] = await api.mailTo('paciente@innera.local')
      expect(pedroMail!.subject).toContain('Yoga para dormir melhor')
      expect(pedroMail!.text).toContain('19:00')
      const [anaMail] = await api.mailTo('paciente2@innera.local')
      expect(anaMail!.text).toContain('22:00')
      clock.set(Date.parse('2026-11-28T21:45:00Z'))
      const [first, second] = await Promise.all([liveClassTick(app.services), liveClassTick(app.services)])
      expect(first.sent + second.sent).toBe(2)
      expect((await liveClassTick(app.services)).sent).toBe(0)
      const all = [...(await api.mailTo('paciente@innera.local')), ...(await api.mailTo('paciente2@innera.local'))]
      expect(all).toHaveLength(4)
      for (const mail of all) expect(mail.text).not.toMatch(/fake-zoom|zoom\.us|pwd=/)
    } finally {
      await database.db.update(users).set({ timeZone: 'America/Sao_Paulo' }).where(eq(users.id, ids.ana))
    }
  })

  it('skips a reminder already due when the seat was taken', async () => {
    const cls = await createClass({ starts_at: new Date(NOW + 2 * HOUR).toISOString() })
    await post('/products/sessions/join/', tokens.pedro, { session_id: cls.id })
    expect((await liveClassTick(app.services)).sent).toBe(0)
    clock.set(NOW + 2 * HOUR - 15 * MINUTE)
    expect((await liveClassTick(app.services)).sent).toBe(1)
  })

  it('gives an .ics in UTC, in the language asked, without the meeting link', async () => {
    const cls = await createClass({ starts_at: new Date(NOW + 5 * MINUTE).toISOString() })
    await post(`/products/zoom/join-class/${cls.id}/`, tokens.pedro)
    const ics = await get(`/products/zoom/sessions/${cls.id}/ics/?lang=en`, tokens.pedro)
    expect(ics.status).toBe(200)
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(ics.headers.get('cache-control')).toBe('private, no-store')
    expect(ics.text).toContain('SUMMARY:Yoga for better sleep')
    expect(ics.text).toContain('DTSTART:20261127T120500Z')
    expect(ics.text).toContain('DTEND:20261127T125000Z')
    expect(ics.text).not.toMatch(/fake-zoom|pwd=/)
    expect((await get(`/products/zoom/sessions/${cls.id}/ics/?lang=fr`, tokens.pedro)).status).toBe(400)
    expect((await api.get(`/products/zoom/sessions/${cls.id}/ics/`)).status).toBe(401)
  })
})

await describeOnPostgres('PostgreSQL: seats from two provider processes never oversold', (open) => {
  it('3 seats, 10 patients through two pools', async () => {
    const { first, second, dispose } = await open()
    try {
      const [teacher] = await first.db.select({ id: users.id }).from(users).where(eq(users.email, 'profissional@innera.local'))
      const [cls] = await first.db
        .insert(liveClasses)
        .values({ slug: 'corrida-pg', pillarSlug: 'sono', title: { pt: 'a', en: 'a', es: 'a' }, description: { pt: 'a', en: 'a', es: 'a' }, teacherId: teacher!.id, startsAt: new Date(Date.now() + 24 * HOUR), durationMinutes: 30, seats: 3, access: 'free' })
        .returning()
      const patients = await first.db
        .insert(users)
        .values(Array.from({ length: 10 }, (_, index) => ({ email: `pg${index}@innera.test`, username: `pg${index}`, password: 'x', firstName: 'P', lastName: 'G' })))
        .returning({ id: users.id })
      const outcomes = await Promise.all(patients.map((patient, index) => reserveSeat(index % 2 === 0 ? first.db : second.db, cls!, patient.id, Date.now())))
      expect(outcomes.filter((outcome) => outcome === 'reserved')).toHaveLength(3)
      expect(outcomes.filter((outcome) => outcome === 'full')).toHaveLength(7)
      expect((await first.db.select().from(liveClasses).where(eq(liveClasses.id, cls!.id)))[0]!.seatsTaken).toBe(3)
    } finally {
      await dispose()
    }
  })
})

import { and, asc, count, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { auditLog, contentDrafts, fakeZoomMeetings, liveClasses, liveClassSeats, users } from '#server/db/schema.ts'
import { liveClassTick } from '#server/jobs.ts'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'

/** The admin's live classes (decisions 0064 and 0067): drafts, publishing, moving and cancelling. */

const NOW = Date.parse('2026-11-27T12:00:00Z')
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const LONG_TOKENS = { ACCESS_TOKEN_LIFETIME: '31536000', REFRESH_TOKEN_LIFETIME: '31536000' }
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' }
const BASE = '/admin/content/live-classes'

let database: DatabaseHandle
let app: ReturnType<typeof testApp>
let api: ReturnType<typeof client>
const clock = fakeClock(NOW)
const tokens = { pedro: '', ana: '', paula: '', admin: '' }
let paulaId = 0

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: clock.clock, env: LONG_TOKENS })
  api = client(app)
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.ana = (await api.login('paciente2@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
  paulaId = (await database.db.select({ id: users.id }).from(users).where(eq(users.email, 'profissional@innera.local')))[0]!.id
})
afterAll(() => database.close())
beforeEach(async () => {
  clock.set(NOW)
  await database.db.execute(sql`TRUNCATE "live_classes", "live_class_seats", "fake_zoom_meetings", "outbox", "content_drafts", "audit_log" RESTART IDENTITY CASCADE`)
})

const as = (token: string) => ({
  get: (path: string) => api.call('GET', path, { token }),
  put: (path: string, body: unknown) => api.call('PUT', path, { body, token }),
  post: (path: string, body: unknown = {}) => api.call('POST', path, { body, token }),
  delete: (path: string) => api.call('DELETE', path, { token }),
})
const admin = () => as(tokens.admin)

const form = (over: Record<string, unknown> = {}) => ({
  title: { pt: 'Yoga para dormir melhor', en: 'Yoga for better sleep', es: 'Yoga para dormir mejor' },
  description: { pt: 'Posturas suaves.', en: 'Gentle postures.', es: 'Posturas suaves.' },
  pillar: 'sono',
  teacher_id: paulaId,
  starts_at: new Date(NOW + 2 * DAY).toISOString(),
  duration_minutes: 45,
  seats: 20,
  access: 'free',
  ...over,
})

async function published(slug: string, over: Record<string, unknown> = {}) {
  const answer = await admin().post(`${BASE}/${slug}/publish/`, form(over))
  if (answer.status !== 201) throw new Error(`not published: ${answer.status} ${answer.text}`)
  return answer.json
}

const join = (token: string, id: number) => api.call('POST', '/products/sessions/join/', { body: { session_id: id }, token })
const audits = (action: string) => database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id))
const stored = async (slug: string) => (await database.db.select().from(liveClasses).where(eq(liveClasses.slug, slug)))[0]!
const memberTitles = async () => ((await api.get('/products/zoom/sessions/', { token: tokens.pedro })).json.results as { title: { pt: string } }[]).map((row) => row.title.pt)

describe('who may call the admin live-class endpoints', () => {
  it('anonymous 401, patients and professionals 403, admins through: on every endpoint', async () => {
    await published('aula-permissoes')
    const calls: [string, string, unknown?][] = [
      ['GET', `${BASE}/`],
      ['GET', `${BASE}/aula-permissoes/`],
      ['PUT', `${BASE}/aula-permissoes/draft/`, { title: { pt: 'Outro' } }],
      ['DELETE', `${BASE}/aula-permissoes/draft/`],
      ['POST', `${BASE}/aula-nova/publish/`, form()],
      ['POST', `${BASE}/aula-permissoes/schedule/`, { starts_at: new Date(NOW + 3 * DAY).toISOString(), duration_minutes: 45, seats: 20 }],
      ['POST', `${BASE}/aula-permissoes/cancel/`, { reason: 'Professora doente' }],
    ]
    for (const [method, path, body] of calls) {
      expect((await api.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
      for (const who of ['pedro', 'paula'] as const) {
        const answer = await api.call(method, path, { body, token: tokens[who] })
        expect(answer.status, `${method} ${path} ${who}`).toBe(403)
        expect(answer.json).toEqual(FORBIDDEN)
      }
    }
    const expected = [200, 200, 200, 204, 201, 200, 200]
    for (const [index, [method, path, body]] of calls.entries()) {
      const answer = await api.call(method, path, { body, token: tokens.admin })
      expect(answer.status, `${method} ${path} admin`).toBe(expected[index])
      expect(answer.headers.get('cache-control')).toBe('private, no-store')
    }
  })
})

describe('a new class through a draft', () => {
  it('saves a draft with a language missing, refuses to publish it (the draft kept), then publishes it with its Zoom meeting, audited', async () => {
    const slug = 'yoga-para-dormir'
    const incomplete = form({ title: { pt: 'Yoga para dormir melhor', en: '', es: 'Yoga para dormir mejor' }, seats: undefined })
    const saved = await admin().put(`${BASE}/${slug}/draft/`, incomplete)
    expect(saved.status).toBe(200)
    expect(saved.json).toMatchObject({ title: { en: '' }, seats: null, pillar: 'sono', updated_at: expect.any(String) })
    expect((await admin().get(`${BASE}/`)).json).toMatchObject({ count: 0, results: [], new_drafts: [{ key: slug, title: { pt: 'Yoga para dormir melhor' } }] })
    expect((await admin().get(`${BASE}/${slug}/`)).json).toMatchObject({ published: null, draft: { starts_at: new Date(NOW + 2 * DAY).toISOString() } })

    const refused = await admin().post(`${BASE}/${slug}/publish/`, incomplete)
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({ 'title.en': ['This language is missing: fill it in before publishing.'] })
    expect(await memberTitles()).toEqual([])
    expect((await admin().get(`${BASE}/${slug}/`)).json.draft).toMatchObject({ title: { en: '' } })
    // Every language there, the seats still missing.
    expect(await admin().post(`${BASE}/${slug}/publish/`, form({ seats: undefined }))).toMatchObject({ status: 400, json: { seats: ['This field is required.'] } })
    expect(await admin().post(`${BASE}/${slug}/publish/`, form({ teacher_id: 1, pillar: 'nada' }))).toMatchObject({ status: 400, json: { teacher_id: ['Select an active professional.'], pillar: [expect.any(String)] } })
    expect((await admin().post(`${BASE}/${slug}/publish/`, form({ starts_at: new Date(NOW - MINUTE).toISOString() }))).json).toEqual({ starts_at: ['The class must start in the future.'] })

    const done = await admin().post(`${BASE}/${slug}/publish/`, form())
    expect(done.status).toBe(201)
    expect(done.json).toMatchObject({ slug, state: 'scheduled', seats: 20, seats_taken: 0, has_meeting: true, starts_at: '2026-11-29T12:00:00.000Z' })
    expect(JSON.stringify(done.json)).not.toMatch(/join_url|start_url|fake-zoom/)
    expect((await database.db.select({ n: count() }).from(fakeZoomMeetings))[0]!.n).toBe(1)
    expect(await database.db.select().from(contentDrafts)).toEqual([])
    expect(await memberTitles()).toEqual(['Yoga para dormir melhor'])
    const [entry] = await audits('live_class.create')
    expect(entry).toMatchObject({ targetType: 'live_class', targetId: slug, before: null, after: { slug, title: { en: 'Yoga for better sleep' }, seats: 20 } })
    // The same slug again is that class: its texts only.
    expect((await admin().get(`${BASE}/`)).json).toMatchObject({ count: 1, results: [{ slug, draft: null }], new_drafts: [] })
  })

  it('bounds every field of a draft and its key', async () => {
    const put = (slug: string, body: unknown) => admin().put(`${BASE}/${slug}/draft/`, body)
    expect((await put('aula', { title: { pt: 'x'.repeat(121) } })).status).toBe(400)
    expect((await put('aula', { description: { pt: 'a\u0000b' } })).status).toBe(400)
    expect((await put('aula', { seats: 1001 })).json).toMatchObject({ seats: [expect.any(String)] })
    expect((await put('aula', { duration_minutes: 10 })).json).toMatchObject({ duration_minutes: [expect.any(String)] })
    expect((await put('aula', { access: 'vip' })).json).toMatchObject({ access: [expect.any(String)] })
    expect((await put('aula--dupla', {})).json).toMatchObject({ slug: [expect.any(String)] })
    expect((await put('a'.repeat(121), {})).status).toBe(400)
    expect((await put('aula', {})).status).toBe(200)
    expect((await admin().get(`${BASE}/nenhuma/`)).status).toBe(404)
    expect((await admin().delete(`${BASE}/nenhuma/draft/`)).status).toBe(404)
    expect((await admin().get(`${BASE}/?when=ontem`)).status).toBe(400)
  })
})

describe('a published class', () => {
  it('changes its texts only on publish, audited with what changed; a draft discarded is audited', async () => {
    const slug = 'respiracao'
    await published(slug)
    const texts = { title: { pt: 'Respiração e pausa', en: 'Breathing and pause', es: 'Respiración y pausa' }, description: form().description }
    expect((await admin().put(`${BASE}/${slug}/draft/`, texts)).status).toBe(200)
    expect(await memberTitles()).toEqual(['Yoga para dormir melhor'])
    expect((await admin().get(`${BASE}/`)).json.results[0].draft).toEqual({ updated_at: expect.any(String) })
    expect((await admin().post(`${BASE}/${slug}/publish/`, { ...texts, title: { ...texts.title, es: ' ' } })).json).toEqual({ 'title.es': [expect.any(String)] })
    const done = await admin().post(`${BASE}/${slug}/publish/`, texts)
    expect(done.status).toBe(200)
    expect(await memberTitles()).toEqual(['Respiração e pausa'])
    expect((await audits('live_class.publish'))[0]).toMatchObject({ before: { title: form().title }, after: { title: texts.title } })
    expect(Object.keys((await audits('live_class.publish'))[0]!.after!)).toEqual(['title'])

    expect((await admin().put(`${BASE}/${slug}/draft/`, { title: { pt: 'Rascunho' } })).status).toBe(200)
    expect((await admin().delete(`${BASE}/${slug}/draft/`)).status).toBe(204)
    expect(await audits('live_class.discard')).toHaveLength(1)
    expect((await admin().get(`${BASE}/${slug}/`)).json.draft).toBeNull()
  })

  it('never takes fewer seats than are taken: the CHECK decides, said on the seats field', async () => {
    const cls = await published('poucas-vagas')
    expect((await join(tokens.pedro, cls.id)).status).toBe(201)
    expect((await join(tokens.ana, cls.id)).status).toBe(201)
    const schedule = { starts_at: cls.starts_at, duration_minutes: 45 }
    const refused = await admin().post(`${BASE}/poucas-vagas/schedule/`, { ...schedule, seats: 1 })
    expect(refused).toMatchObject({ status: 400, json: { seats: ['2 seats are already taken: the class cannot have fewer.'] } })
    expect((await stored('poucas-vagas')).seats).toBe(20)
    const fewer = await admin().post(`${BASE}/poucas-vagas/schedule/`, { ...schedule, seats: 2 })
    expect(fewer.json).toMatchObject({ seats: 2, seats_taken: 2, notified: 0 })
    // Seats alone tell nobody.
    expect(await api.mailTo('paciente@innera.local')).toEqual([])
    expect((await audits('live_class.schedule'))[0]).toMatchObject({ before: { seats: 20 }, after: { seats: 2 } })
  })

  it('moved: tells every seat holder, moves the Zoom meeting and re-arms the reminders for the new time', async () => {
    const cls = await published('mudou-de-hora', { starts_at: '2026-11-28T22:00:00Z' })
    await join(tokens.pedro, cls.id)
    await join(tokens.ana, cls.id)
    clock.set(Date.parse('2026-11-27T22:00:00Z'))
    expect((await liveClassTick(app.services)).sent).toBe(2)
    const seatsOf = () => database.db.select().from(liveClassSeats).where(eq(liveClassSeats.classId, cls.id))
    expect((await seatsOf()).every((seat) => seat.reminded24hAt !== null)).toBe(true)

    const moved = await admin().post(`${BASE}/mudou-de-hora/schedule/`, { starts_at: '2026-12-01T22:00:00Z', duration_minutes: 60, seats: 20 })
    expect(moved.status).toBe(200)
    expect(moved.json).toMatchObject({ starts_at: '2026-12-01T22:00:00.000Z', duration_minutes: 60, notified: 2, meeting_updated: true })
    const [mail] = await api.mailTo('paciente@innera.local')
    expect(mail!.subject).toBe('Aula ao vivo "Yoga para dormir melhor": novo horário')
    expect(mail!.text).toContain('19:00')
    expect(mail!.text).toContain('/aulas-ao-vivo/')
    expect(mail!.text).not.toMatch(/fake-zoom|pwd=/)
    expect((await api.mailTo('paciente2@innera.local'))[0]!.subject).toContain('novo horário')
    const [meeting] = await database.db.select().from(fakeZoomMeetings)
    expect(meeting).toMatchObject({ startTime: new Date('2026-12-01T22:00:00Z'), duration: 60 })
    expect((await seatsOf()).every((seat) => seat.reminded24hAt === null && seat.reminded15mAt === null)).toBe(true)
    expect((await liveClassTick(app.services)).sent).toBe(0)
    clock.set(Date.parse('2026-11-30T22:00:00Z'))
    expect((await liveClassTick(app.services)).sent).toBe(2)
    expect((await audits('live_class.schedule'))[0]).toMatchObject({ before: { starts_at: '2026-11-28T22:00:00.000Z', duration_minutes: 45 }, after: { starts_at: '2026-12-01T22:00:00.000Z', duration_minutes: 60 } })
  })

  it('cancelled exactly once by two admins at once: seats released, each holder told once, the meeting deleted, the reason audited', async () => {
    const cls = await published('cancelada')
    await join(tokens.pedro, cls.id)
    await join(tokens.ana, cls.id)
    const [first, second] = await Promise.all([admin().post(`${BASE}/cancelada/cancel/`, { reason: 'Professora doente' }), admin().post(`${BASE}/cancelada/cancel/`, { reason: 'Professora doente' })])
    expect([first.status, second.status].sort()).toEqual([200, 409])
    const done = first.status === 200 ? first : second
    const refused = first.status === 200 ? second : first
    expect(done.json).toMatchObject({ state: 'cancelled', seats_taken: 0, notified: 2, meeting_deleted: true, has_meeting: false })
    expect(refused.json).toMatchObject({ code: 'cancelled', detail: 'This class was cancelled: it can no longer be changed.' })
    const mails = [...(await api.mailTo('paciente@innera.local')), ...(await api.mailTo('paciente2@innera.local'))]
    expect(mails.map((mail) => mail.subject)).toEqual(['Aula ao vivo "Yoga para dormir melhor" cancelada', 'Aula ao vivo "Yoga para dormir melhor" cancelada'])
    expect(mails[0]!.text).not.toContain('Professora doente')
    expect((await database.db.select({ n: count() }).from(liveClassSeats).where(eq(liveClassSeats.classId, cls.id)))[0]!.n).toBe(0)
    expect((await database.db.select({ n: count() }).from(fakeZoomMeetings))[0]!.n).toBe(0)
    expect(await audits('live_class.cancel')).toMatchObject([{ reason: 'Professora doente', before: { cancelled_at: null, seats_taken: 2 }, after: { seats_taken: 0 } }])
    expect(await memberTitles()).toEqual([])
    expect((await api.get(`/products/zoom/sessions/${cls.id}/`, { token: tokens.pedro })).json.cancelled).toBe(true)
    // Nothing more changes it.
    expect((await admin().post(`${BASE}/cancelada/schedule/`, { starts_at: cls.starts_at, duration_minutes: 45, seats: 20 })).json.code).toBe('cancelled')
    expect((await admin().put(`${BASE}/cancelada/draft/`, { title: { pt: 'Outra' } })).status).toBe(409)
    expect((await admin().post(`${BASE}/cancelada/publish/`, form())).status).toBe(409)
    expect((await admin().post(`${BASE}/cancelada/cancel/`, { reason: '' })).status).toBe(400)
  })

  it('refuses to change or cancel a class that has started', async () => {
    const cls = await published('comecou', { starts_at: new Date(NOW + HOUR).toISOString() })
    clock.set(NOW + HOUR)
    const started = { status: 409, json: { code: 'started', detail: 'This class has already started: it can no longer be changed.' } }
    expect(await admin().post(`${BASE}/comecou/cancel/`, { reason: 'Tarde demais' })).toMatchObject(started)
    expect(await admin().post(`${BASE}/comecou/schedule/`, { starts_at: new Date(NOW + DAY).toISOString(), duration_minutes: 45, seats: 20 })).toMatchObject(started)
    expect(await admin().put(`${BASE}/comecou/draft/`, { title: { pt: 'Outra' } })).toMatchObject(started)
    expect((await admin().get(`${BASE}/?when=past`)).json.results).toMatchObject([{ id: cls.id, state: 'started' }])
    expect((await admin().get(`${BASE}/`)).json.count).toBe(0)
    expect(await database.db.select().from(auditLog).where(and(eq(auditLog.targetId, 'comecou'), eq(auditLog.action, 'live_class.cancel')))).toEqual([])
  })
})

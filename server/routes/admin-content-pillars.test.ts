import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { auditLog, contentDrafts, pillars } from '#server/db/schema.ts'
import { client, createMemoryDatabase, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'

/** The pillars' texts in the admin content editor (decisions 0064, 0065): drafts, the languages' check, publishing. */

const NOW = Date.parse('2026-03-10T15:00:00Z')
const time = fakeClock(NOW)
const EMAILS = { admin: 'admin@innera.local', professional: 'profissional@innera.local', patient: 'paciente@innera.local' } as const
type Who = keyof typeof EMAILS

let database: DatabaseHandle
let db: Database
let api: ReturnType<typeof client>
const tokens = {} as Record<Who, string>

beforeAll(async () => {
  database = await createMemoryDatabase()
  db = database.db
  api = client(testApp(db, { clock: time.clock, env: { ACCESS_TOKEN_LIFETIME: String(86_400) } }))
  for (const who of Object.keys(EMAILS) as Who[]) tokens[who] = (await api.login(EMAILS[who])).access
})
afterAll(() => database.close())
beforeEach(async () => {
  time.set(NOW)
  await resetDatabase(db)
})

const as = (who: Who = 'admin') => ({ token: tokens[who] })
const SONO = '/admin/content/pillars/sono/'
const name = { pt: 'Sono reparador', en: 'Restful sleep', es: 'Sueño reparador' }
const description = { pt: 'Dormir bem muda o dia.', en: 'Sleeping well changes the day.', es: 'Dormir bien cambia el día.' }
const drafts = () => db.select().from(contentDrafts)
const audits = () => db.select().from(auditLog).orderBy(asc(auditLog.id))
const publicSono = async () => (await api.get('/pillars/sono/')).json

describe('who may call the pillar editor endpoints', () => {
  it('anonymous 401, patients and professionals 403, admins through: on every endpoint', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin/content/pillars/'],
      ['GET', SONO],
      ['PUT', `${SONO}draft/`, { name, description }],
      ['DELETE', `${SONO}draft/`],
      ['POST', `${SONO}publish/`, { name, description }],
    ]
    for (const [method, path, body] of calls) {
      expect((await api.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
      for (const who of ['patient', 'professional'] as const) expect((await api.call(method, path, { body, ...as(who) })).status, `${method} ${path} ${who}`).toBe(403)
    }
    const statuses = []
    for (const [method, path, body] of calls) {
      const answer = await api.call(method, path, { body, ...as() })
      statuses.push(answer.status)
      expect(answer.headers.get('cache-control'), `${method} ${path}`).toBe('private, no-store')
    }
    expect(statuses).toEqual([200, 200, 200, 204, 200])
    expect(await drafts()).toEqual([])
  })
})

describe('a pillar’s draft', () => {
  it('is saved with a language missing, shown in the list and the item, and changes nothing the public sees', async () => {
    const before = await publicSono()
    const saved = await api.call('PUT', `${SONO}draft/`, { body: { name, description: { pt: description.pt } }, ...as() })
    expect(saved.status).toBe(200)
    expect(saved.json).toEqual({ name, description: { pt: description.pt, en: '', es: '' }, updated_at: new Date(NOW).toISOString() })
    expect(await publicSono()).toEqual(before)
    const list = (await api.get('/admin/content/pillars/', as())).json
    expect(list.results.map((pillar: { slug: string }) => pillar.slug)).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    expect(list.results.find((pillar: { slug: string }) => pillar.slug === 'sono').draft).toEqual({ updated_at: new Date(NOW).toISOString() })
    expect(list.results.find((pillar: { slug: string }) => pillar.slug === 'alimento').draft).toBeNull()
    expect(list.new_drafts).toEqual([])
    const item = (await api.get(SONO, as())).json
    expect(item.published.name.pt).toBe('Sono')
    expect(item.draft.description).toEqual({ pt: description.pt, en: '', es: '' })
    // A later save replaces it.
    await api.call('PUT', `${SONO}draft/`, { body: { name, description }, ...as() })
    expect((await drafts()).map((draft) => draft.body)).toEqual([{ name, description }])
  })

  it('is bounded: a long text, a non-text; a NUL is refused before anything; an unknown pillar is a 404', async () => {
    const long = await api.call('PUT', `${SONO}draft/`, { body: { name: { pt: 'x'.repeat(61) }, description: { es: 'y'.repeat(2001) } }, ...as() })
    expect(long.status).toBe(400)
    expect(Object.keys(long.json).sort()).toEqual(['description.es', 'name.pt'])
    expect((await api.call('PUT', `${SONO}draft/`, { body: { name: 'Sono' }, ...as() })).status).toBe(400)
    expect((await api.call('PUT', `${SONO}draft/`, { body: { name: { pt: 'So\u0000no' } }, ...as() })).status).toBe(400)
    expect((await api.call('PUT', '/admin/content/pillars/lua/draft/', { body: { name }, ...as() })).status).toBe(404)
    expect((await api.call('POST', '/admin/content/pillars/lua/publish/', { body: { name, description }, ...as() })).status).toBe(404)
    expect((await api.get('/admin/content/pillars/lua/', as())).status).toBe(404)
    expect(await drafts()).toEqual([])
  })

  it('is discarded, audited; a second discard is a 404', async () => {
    expect((await api.call('PUT', `${SONO}draft/`, { body: { name }, ...as() })).status).toBe(200)
    expect((await api.call('DELETE', `${SONO}draft/`, as())).status).toBe(204)
    expect(await drafts()).toEqual([])
    expect((await audits()).map((entry) => [entry.action, entry.targetType, entry.targetId])).toEqual([['pillar.discard', 'pillar', 'sono']])
    expect((await api.call('DELETE', `${SONO}draft/`, as())).status).toBe(404)
  })
})

describe('publishing a pillar', () => {
  it('is refused while a language is missing, each on its field; the draft keeps what was typed', async () => {
    const before = await publicSono()
    const refused = await api.post(`${SONO}publish/`, { name, description: { pt: description.pt, en: '  ' } }, as())
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.json).sort()).toEqual(['description.en', 'description.es'])
    expect(refused.json['description.en'][0]).toMatch(/^This language is missing/)
    expect((await drafts()).map((draft) => draft.body)).toEqual([{ name, description: { pt: description.pt, en: '', es: '' } }])
    expect(await publicSono()).toEqual(before)
    expect(await audits()).toEqual([])
  })

  it('writes the texts, removes the draft and records what changed, before and after', async () => {
    await api.call('PUT', `${SONO}draft/`, { body: { name: { pt: 'rascunho' } }, ...as() })
    const published = await api.post(`${SONO}publish/`, { name: { pt: 'Sono', en: 'Sleep', es: 'Sueño' }, description }, as())
    expect(published.status).toBe(200)
    expect(published.json).toMatchObject({ slug: 'sono', description })
    expect((await publicSono()).description).toEqual(description)
    expect(await drafts()).toEqual([])
    const [entry] = await audits()
    expect(entry).toMatchObject({ action: 'pillar.publish', targetType: 'pillar', targetId: 'sono', actorRole: 'admin' })
    // The name did not change: only the description is recorded.
    expect(Object.keys(entry!.before!)).toEqual(['description'])
    expect(entry!.after).toEqual({ description })
    const [row] = await db.select().from(pillars).where(eq(pillars.slug, 'sono'))
    expect(row!.description).toEqual(description)
  })
})

import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { auditLog, questionnaireVersions } from '#server/db/schema.ts'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'
import { MISSING_LANGUAGE_MESSAGE } from '#server/content/languages.ts'
import { SUPERSEDED_VERSION_GRACE_MS, VERSION_PUBLISHED, VERSION_TAKEN } from '#server/questionnaire/versions.ts'

/** The question bank in the admin content editor (decisions 0064, 0068): versions, drafts, publishing. */

let database: DatabaseHandle
const time = fakeClock(Date.UTC(2026, 2, 10, 15, 0, 0))
let api: ReturnType<typeof client>
const tokens = { admin: '', professional: '', patient: '' }
const BASE = '/admin/content/questionnaire/'

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: time.clock, env: { ACCESS_TOKEN_LIFETIME: String(365 * 86400) } }))
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.professional = (await api.login('profissional@innera.local')).access
  tokens.patient = (await api.login('paciente@innera.local')).access
  // The seed publishes at the real time; this file's clock is fixed: the seeded version came first.
  await database.db.update(questionnaireVersions).set({ publishedAt: new Date(Date.UTC(2025, 0, 2)) })
})
afterAll(() => database.close())

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a draft as the editor sends it
type Draft = any
const put = (version: string, body: unknown, token = tokens.admin) => api.call('PUT', `${BASE}${version}/draft/`, { body, token })
const publish = (version: string, body: unknown, token = tokens.admin) => api.post(`${BASE}${version}/publish/`, body, { token })
const startDraft = async (version: string): Promise<Draft> => {
  const response = await api.post(BASE, { version }, { token: tokens.admin })
  expect(response.status).toBe(201)
  const { updated_at: _, ...draft } = response.json.draft
  return draft
}
const answersFor = (definition: { pillars: { questions: { code: string }[] }[] }) => Object.fromEntries(definition.pillars.flatMap((pillar) => pillar.questions.map((question) => [question.code, 2])))

describe('the question bank editor', () => {
  it('is for admins only: 401 anonymous, 403 patient and professional, on every endpoint', async () => {
    await startDraft('perm.1')
    const calls = [
      ['GET', BASE, undefined],
      ['POST', BASE, { version: 'perm.2' }],
      ['GET', `${BASE}2025.1/`, undefined],
      ['PUT', `${BASE}perm.1/draft/`, {}],
      ['DELETE', `${BASE}perm.1/draft/`, undefined],
      ['POST', `${BASE}perm.1/publish/`, {}],
    ] as const
    for (const [method, path, body] of calls) {
      expect((await api.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
      for (const who of ['patient', 'professional'] as const) expect((await api.call(method, path, { body, token: tokens[who] })).status, `${method} ${path} ${who}`).toBe(403)
    }
    const list = await api.get(BASE, { token: tokens.admin })
    expect(list.status).toBe(200)
    expect(list.headers.get('cache-control')).toBe('private, no-store')
    expect(list.json.items).toEqual([expect.objectContaining({ version: '2025.1', current: true, question_count: 36, result_count: 0, draft: null })])
    expect(list.json.new_drafts).toEqual([expect.objectContaining({ version: 'perm.1', question_count: 36 })])
    expect((await api.call('DELETE', `${BASE}perm.1/draft/`, { token: tokens.admin })).status).toBe(204)
  })

  it('starts a new version as a copy of the current one; a taken or malformed version is refused', async () => {
    const draft = await startDraft('2026.1')
    const current = (await api.get(`${BASE}2025.1/`, { token: tokens.admin })).json
    expect(current.draft).toBeNull()
    expect(current.pillars).toHaveLength(6)
    const { version: _v, current: _c, published_at: _p, ...texts } = current.published
    expect(draft).toEqual({ ...texts, questions: current.published.questions.map(({ order: _, ...question }: Draft) => question) })
    expect((await api.post(BASE, { version: '2025.1' }, { token: tokens.admin })).json).toEqual({ version: [VERSION_TAKEN] })
    expect((await api.post(BASE, { version: '2026.1' }, { token: tokens.admin })).json).toEqual({ version: [VERSION_TAKEN] })
    expect((await api.post(BASE, { version: '2026 1' }, { token: tokens.admin })).status).toBe(400)
    expect((await api.post(BASE, { version: 'x'.repeat(21) }, { token: tokens.admin })).status).toBe(400)
    expect((await api.get(`${BASE}nada/`, { token: tokens.admin })).status).toBe(404)
    // A published version is read-only.
    expect((await put('2025.1', draft)).json).toEqual({ version: [VERSION_PUBLISHED] })
    expect((await api.call('DELETE', `${BASE}2026.1/draft/`, { token: tokens.admin })).status).toBe(204)
  })

  it('saves and discards drafts, within bounds', async () => {
    const draft = await startDraft('bounds.1')
    draft.questions[0].text.es = ''
    const saved = await put('bounds.1', draft)
    expect(saved.status).toBe(200)
    expect(saved.json.questions[0].text.es).toBe('')
    expect((await api.get(`${BASE}bounds.1/`, { token: tokens.admin })).json.draft.questions[0].text.es).toBe('')

    const tooLong = structuredClone(draft)
    tooLong.questions[2].text.pt = 'x'.repeat(501)
    expect(Object.keys((await put('bounds.1', tooLong)).json)).toEqual(['questions[2].text.pt'])
    const nul = structuredClone(draft)
    nul.title.pt = 'a\u0000b'
    expect((await put('bounds.1', nul)).status).toBe(400)
    const many = structuredClone(draft)
    many.questions = Array.from({ length: 121 }, (_, index) => ({ ...draft.questions[0], code: `q${index}` }))
    expect((await put('bounds.1', many)).json).toEqual({ questions: ['Ensure this field has no more than 120 elements.'] })
    const repeated = structuredClone(draft)
    repeated.questions[5].code = repeated.questions[4].code
    expect(Object.keys((await put('bounds.1', repeated)).json)).toEqual(['questions[5].code'])

    expect((await api.call('DELETE', `${BASE}bounds.1/draft/`, { token: tokens.admin })).status).toBe(204)
    expect((await api.call('DELETE', `${BASE}bounds.1/draft/`, { token: tokens.admin })).status).toBe(404)
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'questionnaire.discard')).orderBy(desc(auditLog.id)).limit(1)
    expect(entry).toMatchObject({ targetType: 'questionnaire_version', targetId: 'bounds.1', actorRole: 'admin' })
  })

  it('publishes a complete draft as the current version; results keep their own version', async () => {
    // A patient's result under 2025.1, before the new version.
    const oldDefinition = (await api.get('/questionnaire/')).json
    const old = await api.post('/questionnaire/submit/', { version: '2025.1', answers: answersFor(oldDefinition) }, { token: tokens.patient })
    expect(old.status).toBe(201)
    const oldRead = (await api.get(`/questionnaire/${old.json.id}/`, { token: tokens.patient })).json

    const draft = await startDraft('2026.2')
    draft.questions[3].text.pt = 'Pergunta reescrita para a versão nova?'
    draft.questions[3].text.es = ''
    // Refused on the exact input, the draft kept with what was typed; members still see 2025.1.
    const refused = await publish('2026.2', draft)
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({ 'questions[3].text.es': [MISSING_LANGUAGE_MESSAGE] })
    expect((await api.get(`${BASE}2026.2/`, { token: tokens.admin })).json.draft.questions[3].text.pt).toBe('Pergunta reescrita para a versão nova?')
    expect((await api.get('/questionnaire/')).json).toEqual(oldDefinition)

    // A pillar left without questions is refused too.
    const emptied = structuredClone(draft)
    emptied.questions[3].text.es = '¿Pregunta reescrita?'
    emptied.questions = emptied.questions.filter((question: Draft) => question.pillar !== 'sono')
    expect((await publish('2026.2', emptied)).json.questions[0]).toContain('(sono)')

    draft.questions[3].text.es = '¿Pregunta reescrita para la nueva versión?'
    draft.questions.push({ ...draft.questions[0], code: 'sono_new_item', text: { pt: 'Nova?', en: 'New?', es: '¿Nueva?' } })
    time.advance(60)
    const published = await publish('2026.2', draft)
    expect(published.status).toBe(201)
    expect(published.json).toMatchObject({ version: '2026.2', current: true })
    expect(published.json.questions).toHaveLength(37)

    const versions = await database.db.select().from(questionnaireVersions)
    expect(versions.filter((row) => row.isCurrent).map((row) => row.version)).toEqual(['2026.2'])
    expect((await api.get(`${BASE}2026.2/`, { token: tokens.admin })).json.draft).toBeNull()
    const list = (await api.get(BASE, { token: tokens.admin })).json
    expect(list.new_drafts).toEqual([])
    expect(list.items.map((item: Draft) => [item.version, item.current, item.question_count, item.result_count])).toEqual([
      ['2026.2', true, 37, 0],
      ['2025.1', false, 36, 1],
    ])
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'questionnaire.publish'), eq(auditLog.targetId, '2026.2')))
    expect(entry!.before).toMatchObject({ version: '2025.1', questions: { [draft.questions[3].code]: { text: { pt: oldDefinition.pillars[0].questions[3].text.pt } } } })
    expect(entry!.after).toMatchObject({ version: '2026.2', questions: { sono_new_item: { order: 37 } } })
    expect(Object.keys(entry!.after as object).sort()).toEqual(['questions', 'version'])

    // What members see changed; the old result reads the same, with its own version's questions.
    const definition = (await api.get('/questionnaire/')).json
    expect(definition.version).toBe('2026.2')
    expect(definition.pillars.flatMap((pillar: Draft) => pillar.questions.map((question: Draft) => question.text.pt))).toContain('Pergunta reescrita para a versão nova?')
    expect((await api.get('/questionnaire/get/?version=2025.1')).json.pillars).toEqual(oldDefinition.pillars.map((pillar: Draft) => ({ ...pillar })))
    expect((await api.get(`/questionnaire/${old.json.id}/`, { token: tokens.patient })).json).toEqual(oldRead)

    // A new submission answers the new version; one started under 2025.1 is still taken for a while.
    const fresh = await api.post('/questionnaire/submit/', { version: '2026.2', answers: answersFor(definition) }, { token: tokens.patient })
    expect(fresh.status).toBe(201)
    expect(fresh.json.version).toBe('2026.2')
    expect(Object.keys(fresh.json.answers)).toHaveLength(37)
    const late = await api.post('/questionnaire/submit/', { version: '2025.1', answers: answersFor(oldDefinition) }, { token: tokens.patient })
    expect(late.status).toBe(201)
    expect(late.json.version).toBe('2025.1')
    time.advance(SUPERSEDED_VERSION_GRACE_MS / 1000)
    const tooLate = await api.post('/questionnaire/submit/', { version: '2025.1', answers: answersFor(oldDefinition) }, { token: tokens.patient })
    expect(tooLate.json).toEqual({ version: ['"2025.1" is not the current questionnaire version ("2026.2").'] })

    // Published: read-only, and the version string is taken.
    expect((await publish('2026.2', draft)).json).toEqual({ version: [VERSION_PUBLISHED] })
    expect((await api.post(BASE, { version: '2026.2' }, { token: tokens.admin })).json).toEqual({ version: [VERSION_TAKEN] })
  })
})

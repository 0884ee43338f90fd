import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, asc, eq, like } from 'drizzle-orm'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import { findLessonsDir, type LessonManifest } from '#server/courses/seed.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { auditLog, contentDrafts, courses, lessonProgress, lessons, products, users } from '#server/db/schema.ts'
import { Api, type AppEnv } from '#server/http/api.ts'
import { ApiError, errorResponse } from '#server/http/errors.ts'
import { RouteTable } from '#server/http/route-table.ts'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'
import { registerAdminContentCourseRoutes } from '#server/routes/admin-content-courses.ts'

/**
 * The admin content editor's courses and lessons (issue 26, decisions 0064 and 0066): drafts,
 * publishing only with every language, new courses and new lessons from unused videos.
 */

const time = fakeClock(Date.parse('2026-03-10T15:00:00Z'))

// A media folder of the test's own: one new video with its manifest entry, one entry without its
// file, and a video a seeded lesson already uses.
const NEW_VIDEO = 'sono-reparador-4-sonecas'
const USED_VIDEO = 'sono-reparador-1-ritmo-circadiano'
const real = JSON.parse(readFileSync(join(findLessonsDir(), 'manifest.json'), 'utf8')) as LessonManifest
const directory = mkdtempSync(join(tmpdir(), 'innera-admin-lessons-'))
writeFileSync(
  join(directory, 'manifest.json'),
  JSON.stringify({ [NEW_VIDEO]: { ...real[USED_VIDEO], duration_seconds: 31.5, bytes: 4242 }, 'sem-arquivo': real[USED_VIDEO], [USED_VIDEO]: real[USED_VIDEO] }),
)
writeFileSync(join(directory, `${NEW_VIDEO}.mp4`), 'video')
writeFileSync(join(directory, `${USED_VIDEO}.mp4`), 'video')

let database: DatabaseHandle
let db: Database
let app: ProviderApp
/** The whole provider: sign-in and what members see. */
let api: ReturnType<typeof client>
/** These routes alone, on the test's media folder, with the services of `app`. */
let admin: ReturnType<typeof client>
const tokens = { patient: '', professional: '', admin: '' }

beforeAll(async () => {
  database = await createMemoryDatabase()
  db = database.db
  app = testApp(db, { clock: time.clock })
  api = client(app)
  const own = new Hono<AppEnv>()
  registerAdminContentCourseRoutes(new Api(own, new RouteTable()), app.services, { lessonsDir: directory })
  own.onError((error) => (error instanceof ApiError ? errorResponse(error) : Response.json({ detail: String(error) }, { status: 500 })))
  admin = client({ request: own.request.bind(own), services: app.services } as unknown as ProviderApp)
  tokens.patient = (await api.login('paciente@innera.local')).access
  tokens.professional = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
})
afterAll(async () => {
  await database.close()
  rmSync(directory, { recursive: true, force: true })
})

const as = (method: string, path: string, body?: unknown) => admin.call(method, path, { body, token: tokens.admin })
const text = (pt: string, en: string, es: string) => ({ pt, en, es })
const audits = (action: string) => db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id))
const membersCourse = async (slug: string) => {
  const listed = await api.get('/videos/courses/?page_size=50', { token: tokens.patient })
  return (listed.json.results as { slug: string; title: Record<string, string>; id: number }[]).find((course) => course.slug === slug)
}
const stress = async () => (await db.select().from(courses).where(eq(courses.slug, 'estresse-sob-controle')))[0]!
const courseForm = (overrides: Record<string, unknown> = {}) => ({
  title: text('Estresse sob controle', 'Stress under control', 'Estrés bajo control'),
  description: text('Descrição completa do curso.', 'The whole description.', 'La descripción completa.'),
  pillar: 'estresse',
  sort_order: 20,
  active: true,
  product_id: null as number | null,
  ...overrides,
})

describe('who may call the admin courses endpoints', () => {
  it('anonymous 401, patients and professionals 403, admins through: on every endpoint', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin/content/courses/'],
      ['GET', '/admin/content/courses/sono-reparador/'],
      ['PUT', '/admin/content/courses/sono-reparador/draft/', courseForm()],
      ['DELETE', '/admin/content/courses/sono-reparador/draft/'],
      ['POST', '/admin/content/courses/sono-reparador/publish/', courseForm()],
      ['GET', '/admin/content/lessons/?course=sono-reparador'],
      ['GET', `/admin/content/lessons/${USED_VIDEO}/`],
      ['PUT', `/admin/content/lessons/${USED_VIDEO}/draft/`, { course: 'sono-reparador' }],
      ['DELETE', `/admin/content/lessons/${USED_VIDEO}/draft/`],
      ['POST', `/admin/content/lessons/${USED_VIDEO}/publish/`, { course: 'sono-reparador' }],
    ]
    for (const [method, path, body] of calls) {
      expect((await admin.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
      for (const who of ['patient', 'professional'] as const) expect((await admin.call(method, path, { body, token: tokens[who] })).status, `${method} ${path} ${who}`).toBe(403)
    }
    // Admins: the reads answer privately; the writes are the other tests' subject (no draft to discard yet: 404).
    for (const [method, path] of calls.filter(([method]) => method === 'GET')) {
      const answer = await as(method, path)
      expect(answer.status, `${method} ${path} admin`).toBe(200)
      expect(answer.headers.get('cache-control')).toBe('private, no-store')
    }
    expect((await as('DELETE', '/admin/content/courses/sono-reparador/draft/')).status).toBe(404)
    expect((await as('GET', '/admin/content/courses/nenhum/')).status).toBe(404)
  })
})

describe('a course', () => {
  it('keeps a draft with a language missing, refuses to publish it (the draft kept), publishes it complete: members see it then', async () => {
    const form = courseForm({ title: text('Estresse na medida', 'Stress in measure', '') })
    const saved = await as('PUT', '/admin/content/courses/estresse-sob-controle/draft/', form)
    expect(saved.status).toBe(200)
    expect(saved.json).toMatchObject({ title: { pt: 'Estresse na medida', es: '' }, updated_at: expect.any(String) })
    const listed = await as('GET', '/admin/content/courses/')
    expect(listed.json.results.find((course: { slug: string }) => course.slug === 'estresse-sob-controle')).toMatchObject({ draft: { updated_at: expect.any(String) }, lessons_count: 3 })
    expect(listed.json.choices.pillars).toHaveLength(6)
    expect(listed.json.choices.products.map((product: { course: string | null }) => product.course).sort()).toEqual(['comida-de-verdade', 'estresse-sob-controle', 'sono-reparador'])
    expect((await membersCourse('estresse-sob-controle'))!.title.pt).toBe('Estresse sob controle')

    const refused = await as('POST', '/admin/content/courses/estresse-sob-controle/publish/', form)
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({ 'title.es': [expect.stringMatching(/^This language is missing/)] })
    const kept = await as('GET', '/admin/content/courses/estresse-sob-controle/')
    expect(kept.json.draft.title).toEqual({ pt: 'Estresse na medida', en: 'Stress in measure', es: '' })
    expect(kept.json.published.title.pt).toBe('Estresse sob controle')
    expect((await membersCourse('estresse-sob-controle'))!.title.pt).toBe('Estresse sob controle')

    const productId = (await stress()).productId
    const published = await as('POST', '/admin/content/courses/estresse-sob-controle/publish/', { ...form, title: text('Estresse na medida', 'Stress in measure', 'Estrés a la medida'), product_id: productId })
    expect(published.status).toBe(200)
    expect(published.json).toMatchObject({ slug: 'estresse-sob-controle', title: { es: 'Estrés a la medida' }, product_id: productId })
    expect((await as('GET', '/admin/content/courses/estresse-sob-controle/')).json.draft).toBeNull()
    expect(await db.select().from(contentDrafts)).toEqual([])
    expect((await membersCourse('estresse-sob-controle'))!.title.pt).toBe('Estresse na medida')
    const [entry] = await audits('course.publish')
    expect(entry).toMatchObject({ targetType: 'course', targetId: 'estresse-sob-controle', actorRole: 'admin' })
    expect(entry!.before).toEqual({ title: text('Estresse sob controle', 'Stress under control', 'Estrés bajo control'), description: expect.any(Object) })
    expect(entry!.after).toMatchObject({ title: text('Estresse na medida', 'Stress in measure', 'Estrés a la medida') })
  })

  it('names every missing text and other problems at once; a product is a course product selling no other course', async () => {
    const course = await stress()
    const answer = await as('POST', '/admin/content/courses/estresse-sob-controle/publish/', courseForm({ description: text('', '', 'Sólo español'), pillar: '' }))
    expect(answer.status).toBe(400)
    expect(Object.keys(answer.json).sort()).toEqual(['description.en', 'description.pt', 'pillar'])
    const [material] = await db.select({ id: products.id }).from(products).where(eq(products.slug, 'diario-do-sono'))
    expect((await as('POST', '/admin/content/courses/estresse-sob-controle/publish/', courseForm({ product_id: material!.id }))).json).toEqual({ product_id: ['Select a course product of the catalogue.'] })
    const [sleep] = await db.select({ productId: courses.productId }).from(courses).where(eq(courses.slug, 'sono-reparador'))
    // The unique index decides: one course per product.
    expect((await as('POST', '/admin/content/courses/estresse-sob-controle/publish/', courseForm({ product_id: sleep!.productId }))).json).toEqual({ product_id: ['This product already sells another course.'] })
    expect((await stress()).productId).toBe(course.productId)
    // Refusals keep the draft; discarding it is an audited admin change.
    expect((await as('DELETE', '/admin/content/courses/estresse-sob-controle/draft/')).status).toBe(204)
    expect(await audits('course.discard')).toEqual([expect.objectContaining({ targetId: 'estresse-sob-controle', before: expect.objectContaining({ product_id: sleep!.productId }) })])
  })

  it('refuses what is out of bounds: long texts, NUL, numbers, wrong types, a malformed key', async () => {
    const put = (body: unknown, slug = 'estresse-sob-controle') => as('PUT', `/admin/content/courses/${slug}/draft/`, body)
    expect((await put(courseForm({ title: text('x'.repeat(121), '', '') }))).json).toEqual({ title: [expect.stringMatching(/no more than 120/)] })
    expect((await put(courseForm({ description: text('x'.repeat(2001), '', '') }))).status).toBe(400)
    expect((await put(courseForm({ title: text('a\u0000b', '', '') }))).status).toBe(400)
    expect((await put(courseForm({ sort_order: 1_000_001 }))).json).toHaveProperty('sort_order')
    expect((await put(courseForm({ title: ['pt'] }))).json).toHaveProperty('title')
    expect((await put(courseForm({ pillar: 'p'.repeat(51) }))).json).toHaveProperty('pillar')
    expect((await put(courseForm({ product_id: 'um' }))).json).toHaveProperty('product_id')
    expect((await put(courseForm(), `${'a'.repeat(81)}`)).status).toBe(404)
    expect((await put(courseForm(), 'Maiusculas')).status).toBe(404)
    expect(await db.select().from(contentDrafts)).toEqual([])
  })

  it('is made from a draft named by its slug first; an inactive course leaves the members\u2019 list, its progress kept', async () => {
    const form = courseForm({ title: text('Sono leve', 'Light sleep', ''), pillar: 'sono', sort_order: 99 })
    expect((await as('PUT', '/admin/content/courses/sono-leve/draft/', { ...form, create: true })).status).toBe(200)
    // The new-course form never writes over a course: neither its draft nor, publishing, the course.
    expect((await as('PUT', '/admin/content/courses/sono-reparador/draft/', { ...form, create: true })).json).toEqual({ slug: [expect.stringMatching(/course with this address/)] })
    expect((await as('POST', '/admin/content/courses/sono-reparador/publish/', { ...courseForm(), create: true })).json).toEqual({ slug: [expect.stringMatching(/course with this address/)] })
    expect((await as('GET', '/admin/content/courses/sono-reparador/')).json.draft).toBeNull()
    const listed = await as('GET', '/admin/content/courses/')
    expect(listed.json.new_drafts).toEqual([{ key: 'sono-leve', title: form.title, updated_at: expect.any(String) }])
    expect((await as('GET', '/admin/content/courses/sono-leve/')).json).toMatchObject({ published: null, draft: { pillar: 'sono' } })
    const created = await as('POST', '/admin/content/courses/sono-leve/publish/', { ...form, title: text('Sono leve', 'Light sleep', 'Sueño ligero'), create: true })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ slug: 'sono-leve', product_id: null, lessons_count: 0, active: true })
    expect(await audits('course.create')).toEqual([expect.objectContaining({ targetId: 'sono-leve', before: {}, after: expect.objectContaining({ pillar: 'sono' }) })])
    expect(await membersCourse('sono-leve')).toBeDefined()

    // Off for members, with a patient's progress kept.
    const [pedro] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local'))
    const free = (await db.select().from(courses).where(eq(courses.slug, 'movimento-no-dia-a-dia')))[0]!
    const [first] = await db.select().from(lessons).where(and(eq(lessons.courseId, free.id), eq(lessons.number, 1)))
    await db.insert(lessonProgress).values({ userId: pedro!.id, lessonId: first!.id, positionMs: 5000 })
    const off = courseForm({ title: free.title, description: free.description, pillar: 'exercicio', sort_order: free.sortOrder, active: false })
    expect((await as('POST', '/admin/content/courses/movimento-no-dia-a-dia/publish/', off)).status).toBe(200)
    expect(await membersCourse('movimento-no-dia-a-dia')).toBeUndefined()
    expect((await api.get(`/videos/courses/${free.id}/`, { token: tokens.patient })).status).toBe(404)
    expect((await as('GET', '/admin/content/courses/')).json.results.find((course: { slug: string }) => course.slug === 'movimento-no-dia-a-dia')).toMatchObject({ active: false })
    expect((await as('POST', '/admin/content/courses/movimento-no-dia-a-dia/publish/', { ...off, active: true })).status).toBe(200)
    const progress = await api.get(`/videos/lessons/?course=${free.id}`, { token: tokens.patient })
    expect(progress.json[0].progress.position_seconds).toBe(5)
  })
})

describe('a lesson', () => {
  it('lists a course\u2019s lessons and the videos no lesson uses; a new lesson takes its length, size and cues from the media', async () => {
    const list = await as('GET', '/admin/content/lessons/?course=sono-reparador')
    expect(list.json.results.map((lesson: { number: number }) => lesson.number)).toEqual([1, 2, 3])
    expect(list.json.videos).toEqual([{ slug: NEW_VIDEO, duration_seconds: 31.5, bytes: 4242 }])
    expect((await as('GET', '/admin/content/lessons/?course=nenhum')).status).toBe(404)

    const form = { course: 'sono-reparador', title: text('Cochilos', 'Naps', ''), summary: text('Quando cochilar.', 'When to nap.', ''), number: 3, free: false }
    expect((await as('PUT', `/admin/content/lessons/sem-arquivo/draft/`, { ...form, create: true })).json).toEqual({ video: ['This video is not in the media folder.'] })
    expect((await as('PUT', `/admin/content/lessons/${USED_VIDEO}/draft/`, { ...form, create: true })).json).toEqual({ video: ['This video already belongs to a lesson.'] })
    expect((await as('PUT', `/admin/content/lessons/${NEW_VIDEO}/draft/`, { ...form, course: 'nenhum', create: true })).json).toEqual({ course: ['This course does not exist.'] })
    expect((await as('PUT', `/admin/content/lessons/${NEW_VIDEO}/draft/`, { ...form, create: true })).status).toBe(200)
    const withDraft = await as('GET', '/admin/content/lessons/?course=sono-reparador')
    expect(withDraft.json.videos).toEqual([])
    expect(withDraft.json.new_drafts).toEqual([{ key: NEW_VIDEO, title: form.title, number: 3, updated_at: expect.any(String) }])

    const complete = { ...form, title: text('Cochilos', 'Naps', 'Siestas'), summary: text('Quando cochilar.', 'When to nap.', 'Cuándo dormir la siesta.') }
    expect((await as('POST', `/admin/content/lessons/${NEW_VIDEO}/publish/`, form)).json).toEqual({ 'title.es': [expect.any(String)], 'summary.es': [expect.any(String)] })
    // Number 3 is taken: the unique index decides, on `number`; the draft is kept as typed.
    expect((await as('POST', `/admin/content/lessons/${NEW_VIDEO}/publish/`, complete)).json).toEqual({ number: ['Another lesson of this course has this number.'] })
    expect((await as('GET', `/admin/content/lessons/${NEW_VIDEO}/`)).json).toMatchObject({ published: null, draft: { number: 3, title: { es: 'Siestas' } } })
    const created = await as('POST', `/admin/content/lessons/${NEW_VIDEO}/publish/`, { ...complete, number: 4, create: true })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ slug: NEW_VIDEO, course: 'sono-reparador', number: 4, duration_seconds: 31.5, video_bytes: 4242 })
    const [row] = await db.select().from(lessons).where(eq(lessons.slug, NEW_VIDEO))
    expect(row!.cues).toEqual(real[USED_VIDEO]!.cues)
    expect(await audits('lesson.create')).toEqual([expect.objectContaining({ targetId: NEW_VIDEO, after: expect.objectContaining({ number: 4, course: 'sono-reparador' }) })])
    const sleep = (await db.select().from(courses).where(eq(courses.slug, 'sono-reparador')))[0]!
    const members = await api.get(`/videos/lessons/?course=${sleep.id}`, { token: tokens.patient })
    expect(members.json.map((lesson: { title: { pt: string } }) => lesson.title.pt).at(-1)).toBe('Cochilos')
  })

  it('is edited in place: the number moves when free, its course stays, members see it on publish', async () => {
    const found = await as('GET', `/admin/content/lessons/${USED_VIDEO}/`)
    const form = { ...found.json.published, course: 'comida-de-verdade', free: false }
    expect((await as('POST', `/admin/content/lessons/${USED_VIDEO}/publish/`, { ...form, number: 2 })).json).toEqual({ number: ['Another lesson of this course has this number.'] })
    const moved = await as('POST', `/admin/content/lessons/${USED_VIDEO}/publish/`, { ...form, number: 9 })
    expect(moved.json).toMatchObject({ course: 'sono-reparador', number: 9, free: false })
    const [entry] = await audits('lesson.publish')
    expect(entry).toMatchObject({ before: { number: 1, free: true }, after: { number: 9, free: false } })
    expect((await as('PUT', `/admin/content/lessons/${USED_VIDEO}/draft/`, { ...form, number: 201 })).json).toHaveProperty('number')
    expect((await as('PUT', `/admin/content/lessons/${USED_VIDEO}/draft/`, { ...form, summary: text('s'.repeat(2001), '', '') })).json).toHaveProperty('summary')
    expect(await db.select().from(contentDrafts).where(like(contentDrafts.key, 'sono%'))).toEqual([])
  })
})

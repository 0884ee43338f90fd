import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { auditLog, contentDrafts, courses, products } from '#server/db/schema.ts'
import { client, createMemoryDatabase, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'

/** The products in the admin content editor (decisions 0064, 0065): drafts, publishing, new products, the price's audit. */

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
const BASE = '/admin/content/products/'
const DIARY = `${BASE}diario-do-sono/`
const texts = (pt: string) => ({ pt, en: `${pt} (en)`, es: `${pt} (es)` })
const edit = { name: texts('Diário do sono'), description: texts('Duas semanas de anotações.'), category: 'conteudos', pillar: 'sono', sort_order: 5, active: true }
const drafts = () => db.select().from(contentDrafts)
const audits = () => db.select().from(auditLog).orderBy(asc(auditLog.id))
const row = async (slug: string) => (await db.select().from(products).where(eq(products.slug, slug)))[0]
const shop = async () => (await api.get('/products/?page_size=100')).json.results.map((product: { slug: string }) => product.slug) as string[]

describe('who may call the product editor endpoints', () => {
  it('anonymous 401, patients and professionals 403, admins through: on every endpoint', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', BASE],
      ['GET', DIARY],
      ['PUT', `${DIARY}draft/`, edit],
      ['DELETE', `${DIARY}draft/`],
      ['POST', `${DIARY}publish/`, edit],
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
    // The price keeps its own endpoint (decision 0053), admins only as before.
    expect((await api.patch('/products/1/', { price_cents: 19_000 }, as('patient'))).status).toBe(403)
  })
})

describe('an existing product', () => {
  it('saves a draft with a language missing: listed, shown, nothing changes in the shop; discarding is audited', async () => {
    const saved = await api.call('PUT', `${DIARY}draft/`, { body: { ...edit, name: { pt: 'Diário' }, product_type: undefined }, ...as() })
    expect(saved.status).toBe(200)
    expect(saved.json).toMatchObject({ name: { pt: 'Diário', en: '', es: '' }, category: 'conteudos', updated_at: new Date(NOW).toISOString() })
    const list = (await api.get(BASE, as())).json
    expect(list.results).toHaveLength(16)
    expect(list.results.find((product: { slug: string }) => product.slug === 'diario-do-sono')).toMatchObject({ active: true, draft: { updated_at: new Date(NOW).toISOString() } })
    expect(list.new_drafts).toEqual([])
    expect((await api.get(DIARY, as())).json).toMatchObject({ published: { slug: 'diario-do-sono', name: { pt: 'Diário do sono (PDF)' } }, draft: { name: { pt: 'Diário' } } })
    expect((await row('diario-do-sono'))!.name.pt).toBe('Diário do sono (PDF)')
    expect((await api.call('DELETE', `${DIARY}draft/`, as())).status).toBe(204)
    expect((await audits()).map((entry) => [entry.action, entry.targetId])).toEqual([['product.discard', 'diario-do-sono']])
    expect((await api.call('DELETE', `${DIARY}draft/`, as())).status).toBe(404)
  })

  it('refuses to publish while a language is missing, keeping the draft; then publishes, audited before and after', async () => {
    const refused = await api.post(`${DIARY}publish/`, { ...edit, description: { pt: 'Só em português' } }, as())
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.json).sort()).toEqual(['description.en', 'description.es'])
    expect((await drafts()).map((draft) => draft.body)).toEqual([{ ...edit, description: { pt: 'Só em português', en: '', es: '' } }])
    expect((await row('diario-do-sono'))!.description.pt).not.toBe('Só em português')

    const published = await api.post(`${DIARY}publish/`, { ...edit, active: false }, as())
    expect(published.status).toBe(200)
    expect(published.json).toMatchObject({ slug: 'diario-do-sono', name: edit.name, sort_order: 5, active: false, price_cents: 1990 })
    expect(await drafts()).toEqual([])
    // Off sale: it leaves the catalogue, the editor still lists it.
    expect(await shop()).not.toContain('diario-do-sono')
    expect((await api.get(BASE, as())).json.results.map((product: { slug: string }) => product.slug)).toContain('diario-do-sono')
    const [entry] = await audits()
    expect(entry).toMatchObject({ action: 'product.publish', targetType: 'product', actorRole: 'admin' })
    expect(entry!.before).toMatchObject({ sort_order: 110, active: true, name: { pt: 'Diário do sono (PDF)' } })
    expect(entry!.after).toMatchObject({ sort_order: 5, active: false, name: edit.name })
    expect(Object.keys(entry!.after!)).not.toContain('category')
  })

  it('refuses an unknown pillar, a bad category and a new product’s fields, each on its field', async () => {
    const pillar = await api.post(`${DIARY}publish/`, { ...edit, pillar: 'lua' }, as())
    expect(pillar.status).toBe(400)
    expect(Object.keys(pillar.json)).toEqual(['pillar'])
    expect((await api.post(`${DIARY}publish/`, { ...edit, category: 'Conteúdos' }, as())).json).toHaveProperty('category')
    expect((await api.call('PUT', `${DIARY}draft/`, { body: { ...edit, product_type: 'program' }, ...as() })).json).toEqual({ slug: ['A product with this slug already exists.'] })
  })

  it('bounds every field: texts, sort order; a NUL is refused; a key that is no slug names nothing', async () => {
    const long = await api.call('PUT', `${DIARY}draft/`, { body: { name: { en: 'x'.repeat(121) }, description: { pt: 'y'.repeat(2001) }, sort_order: 1_000_001, category: 'c'.repeat(41) }, ...as() })
    expect(long.status).toBe(400)
    expect(Object.keys(long.json).sort()).toEqual(['category', 'description.pt', 'name.en', 'sort_order'])
    expect((await api.call('PUT', `${DIARY}draft/`, { body: { name: { pt: '\u0000' } }, ...as() })).status).toBe(400)
    expect((await api.get(`${BASE}Diario/`, as())).status).toBe(404)
    expect((await api.get(`${BASE}nao-existe/`, as())).status).toBe(404)
    expect(await drafts()).toEqual([])
  })
})

describe('a new product', () => {
  const plan = { product_type: 'subscription', plan_interval: 'monthly', trial_days: 7, price_cents: 4990, category: 'assinaturas' }
  const NEW = `${BASE}plano-familia/`

  it('starts as a draft named by its slug, listed as new; publishing creates it in the shop, audited', async () => {
    expect((await api.call('PUT', `${NEW}draft/`, { body: plan, ...as() })).status).toBe(200)
    const list = (await api.get(BASE, as())).json
    expect(list.new_drafts).toEqual([expect.objectContaining({ key: 'plano-familia', product_type: 'subscription', price_cents: 4990 })])
    expect((await api.get(NEW, as())).json).toMatchObject({ published: null, draft: { plan_interval: 'monthly' } })
    const created = await api.post(`${NEW}publish/`, { ...plan, name: texts('Plano família'), description: texts('Para a casa toda.') }, as())
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ slug: 'plano-familia', product_type: 'subscription', plan_interval: 'monthly', trial_days: 7, weeks: null, active: true, sort_order: 170 })
    expect(await shop()).toContain('plano-familia')
    expect(await drafts()).toEqual([])
    const [entry] = await audits()
    expect(entry).toMatchObject({ action: 'product.create', targetType: 'product', targetId: String(created.json.id), before: null })
    expect(entry!.after).toMatchObject({ slug: 'plano-familia', price_cents: 4990 })
    // It can be subscribed to like any plan: the shop's plan endpoint finds it.
    expect((await api.get(`/products/${created.json.id}/`)).json.plan_interval).toBe('monthly')
  })

  it('refuses a taken slug on `slug`, a missing type field, a type it cannot make, a professional who is none', async () => {
    expect((await api.call('PUT', `${BASE}plano-mensal/draft/`, { body: plan, ...as() })).json).toEqual({ slug: ['A product with this slug already exists.'] })
    expect((await api.call('PUT', `${BASE}sem-tipo/draft/`, { body: { name: texts('x') }, ...as() })).json).toEqual({ product_type: ['This field is required.'] })
    const full = { name: texts('Novo'), description: texts('Descrição.'), category: 'programas', price_cents: 9990 }
    const missing = await api.post(`${BASE}programa-novo/publish/`, { ...full, product_type: 'program' }, as())
    expect(missing.json).toEqual({ weeks: ['This field is required.'] })
    expect((await drafts()).map((draft) => draft.key)).toEqual(['programa-novo'])
    expect((await api.post(`${BASE}programa-novo/publish/`, { ...full, product_type: 'program', weeks: 13 }, as())).json).toHaveProperty('weeks')
    expect((await api.post(`${BASE}material-novo/publish/`, { ...full, product_type: 'digital_material' }, as())).json).toHaveProperty('product_type')
    expect((await api.post(`${BASE}pacote-novo/publish/`, { ...full, product_type: 'consultation_package', consultations: 3 }, as())).json).toHaveProperty('consultations')
    expect((await api.post(`${BASE}pacote-novo/publish/`, { ...full, product_type: 'consultation_package', consultations: 4, professional_id: 4 }, as())).json).toHaveProperty('professional_id')
    expect((await api.post(`${BASE}teste-novo/publish/`, { ...full, product_type: 'subscription', plan_interval: 'trial', trial_days: 0 }, as())).json).toHaveProperty('trial_days')
    expect((await api.post(`${BASE}pacote-novo/publish/`, { ...full, product_type: 'consultation_package', consultations: 4, price_cents: 49 }, as())).json).toHaveProperty('price_cents')
    expect(await audits()).toEqual([])
    const made = await api.post(`${BASE}pacote-novo/publish/`, { ...full, product_type: 'consultation_package', consultations: 4, professional_id: 2, weeks: 9 }, as())
    expect(made.status).toBe(201)
    // Another type's fields are left out, as the CHECKs require.
    expect(made.json).toMatchObject({ consultations: 4, professional_id: 2, weeks: null, plan_interval: null })
  })

  it('a course’s product starts off sale, and goes on sale only once a course is linked to it', async () => {
    const course = { name: texts('Curso de respiração'), description: texts('Seis aulas.'), category: 'conteudos', product_type: 'course', price_cents: 12_900, active: true }
    const created = await api.post(`${BASE}curso-respiracao/publish/`, course, as())
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ product_type: 'course', active: false })
    expect(await shop()).not.toContain('curso-respiracao')
    const edit = { name: course.name, description: course.description, category: 'conteudos', active: true }
    const refused = await api.post(`${BASE}curso-respiracao/publish/`, edit, as())
    expect(refused).toMatchObject({ status: 400, json: { active: ['Link a course to this product (the course editor) before putting it on sale.'] } })
    expect((await row('curso-respiracao'))!.active).toBe(false)
    // The course editor links a course to it (decision 0066); then it goes on sale.
    await db.update(courses).set({ productId: created.json.id }).where(eq(courses.slug, 'movimento-no-dia-a-dia'))
    expect((await api.post(`${BASE}curso-respiracao/publish/`, edit, as())).json).toMatchObject({ active: true })
    expect(await shop()).toContain('curso-respiracao')
  })

  it('a slug taken meanwhile is refused on `slug`, nothing written', async () => {
    const body = { ...plan, name: texts('Plano família'), description: texts('Para a casa toda.') }
    await api.call('PUT', `${NEW}draft/`, { body, ...as() })
    // Another admin's product takes the slug meanwhile (written straight to the table).
    const mensal: Partial<typeof products.$inferSelect> = { ...(await row('plano-mensal'))! }
    delete mensal.id
    await db.insert(products).values({ ...(mensal as typeof products.$inferInsert), slug: 'plano-familia' })
    const taken = await api.post(`${NEW}publish/`, body, as())
    expect(taken.status).toBe(400)
    expect(taken.json).toEqual({ slug: ['A product with this slug already exists.'] })
    expect((await row('plano-familia'))!.priceCents).toBe(8990)
    expect(await audits()).toEqual([])
  })
})

describe('a price change (decision 0053)', () => {
  it('is audited as product.price, before and after', async () => {
    const id = (await row('consulta-avulsa'))!.id
    expect((await api.patch(`/products/${id}/`, { price_cents: 19_000 }, as())).status).toBe(200)
    expect((await audits()).map((entry) => [entry.action, entry.targetType, entry.targetId, entry.before, entry.after])).toEqual([
      ['product.price', 'product', String(id), { price_cents: 18_000 }, { price_cents: 19_000 }],
    ])
    expect((await api.patch('/products/99999/', { price_cents: 19_000 }, as())).status).toBe(404)
  })
})

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { databaseError } from '#server/db/errors.ts'
import { products, users } from '#server/db/schema.ts'
import { seedDatabase } from '#server/seed/seed.ts'
import { PRODUCTS } from '#server/seed/data.ts'
import { client, createMemoryDatabase, PUBLIC_URL, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
let api: ReturnType<typeof client>
const tokens = { pedro: '', paula: '', admin: '' }

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db))
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
})
afterAll(() => database.close())
// The catalogue as seeded (ids 1-16 in the shop's order), every account active; purchases pointing at products go with them (CASCADE).
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE "products" RESTART IDENTITY CASCADE`)
  await database.db.update(users).set({ isActive: true })
  await seedDatabase(database.db)
})

const SLUGS = [
  'consulta-avulsa',
  'pacote-4-consultas',
  'pacote-8-consultas',
  'pacote-4-consultas-paula-ribeiro',
  'programa-essencial-8-semanas',
  'programa-completo-12-semanas',
  'plano-programa-12-semanas',
  'curso-sono-reparador',
  'curso-estresse-sob-controle',
  'curso-comida-de-verdade',
  'diario-do-sono',
  'guia-planejamento-refeicoes',
  'diario-30-dias-menos-alcool',
  'plano-mensal',
  'plano-anual',
  'teste-7-dias',
]
const NUL = { detail: 'Null characters are not allowed.' }
const BAD_ID = { detail: 'Invalid id. Ids are integers from 1 to 2147483647.' }
const INVALID_PAGE = { detail: 'Invalid page.' }

type Product = { id: number; slug: string; product_type: string; category: string; pillar: string | null; pillar_id: number | null; name: Record<string, string> }
const slugsOf = (results: Product[]) => results.map((product) => product.slug)
const list = async (query = '') => (await api.get(`/products/${query}`)).json as { count: number; next: string | null; previous: string | null; results: Product[] }

describe('GET /products/', () => {
  it('lists the active catalogue to anonymous visitors, in the shop’s order, as a DRF page', async () => {
    const response = await api.get('/products/')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.json).toMatchObject({ count: 16, next: null, previous: null })
    expect(slugsOf(response.json.results)).toEqual(SLUGS)
    expect(response.json.results[0]).toEqual({
      id: 1,
      slug: 'consulta-avulsa',
      product_type: 'consultation_package',
      category: 'atendimento',
      pillar: null,
      pillar_id: null,
      name: { pt: 'Consulta avulsa', en: 'Single consultation', es: 'Consulta individual' },
      description: { pt: expect.stringContaining('50 minutos'), en: expect.stringContaining('50-minute'), es: expect.stringContaining('50 minutos') },
      price_cents: 18_000,
      currency: 'BRL',
      consultations: 1,
      professional: null,
      weeks: null,
      plan_interval: null,
      trial_days: null,
    })
  })

  it('answers everyone alike: signed-in roles, and a bad or expired token, which the catalogue does not look at', async () => {
    const anonymous = await api.get('/products/')
    for (const token of [tokens.pedro, tokens.paula, tokens.admin, 'not-a-token']) {
      expect(await api.get('/products/', { token })).toMatchObject({ status: 200, json: anonymous.json })
    }
  })

  it('gives every text in the three languages, pt, en, es, whatever the request’s language', async () => {
    const { results } = await list()
    for (const product of results as (Product & { description: Record<string, string> })[]) {
      for (const text of [product.name, product.description]) {
        expect(Object.keys(text)).toEqual(['pt', 'en', 'es'])
        for (const language of ['pt', 'en', 'es']) expect(text[language]!.trim().length).toBeGreaterThan(0)
        expect(text.en).not.toBe(text.pt)
      }
    }
    // The same answer in any language: the app picks one, as it does for the pillars.
    for (const language of ['en', 'es', 'pt-BR']) {
      expect((await api.get('/products/', { headers: { 'accept-language': language } })).json.results).toEqual(results)
    }
  })

  it('shows each type with its own fields, and prices in integer cents of BRL', async () => {
    const bySlug = new Map((await list()).results.map((product) => [product.slug, product as Product & Record<string, unknown>]))
    expect(bySlug.get('pacote-8-consultas')).toMatchObject({ consultations: 8, price_cents: 122_400, professional: null, weeks: null, plan_interval: null })
    expect(bySlug.get('pacote-4-consultas-paula-ribeiro')).toMatchObject({
      consultations: 4,
      professional: { id: 2, first_name: 'Paula', last_name: 'Ribeiro', photo: null, profession: 'Médica' },
    })
    expect(bySlug.get('programa-essencial-8-semanas')).toMatchObject({ product_type: 'program', weeks: 8, consultations: null, plan_interval: null, trial_days: null })
    expect(bySlug.get('programa-completo-12-semanas')).toMatchObject({ weeks: 12 })
    expect(bySlug.get('plano-programa-12-semanas')).toMatchObject({ product_type: 'subscription', plan_interval: 'program', weeks: 12, trial_days: 0 })
    expect(bySlug.get('plano-mensal')).toMatchObject({ plan_interval: 'monthly', trial_days: 0, price_cents: 8_990, weeks: null })
    expect(bySlug.get('plano-anual')).toMatchObject({ plan_interval: 'yearly', price_cents: 89_900 })
    expect(bySlug.get('teste-7-dias')).toMatchObject({ plan_interval: 'trial', trial_days: 7 })
    expect(bySlug.get('diario-do-sono')).toMatchObject({ product_type: 'digital_material', pillar: 'sono', pillar_id: 4, category: 'conteudos' })
    for (const product of bySlug.values()) expect(Number.isInteger(product.price_cents) && (product.price_cents as number) > 0).toBe(true)
    // Packages are cheaper per consultation than single ones.
    expect(122_400 / 8).toBeLessThan(64_800 / 4)
    expect(64_800 / 4).toBeLessThan(18_000)
  })

  it('filters by type, category, pillar slug and pillar id, together', async () => {
    expect(slugsOf((await list('?product_type=consultation_package')).results)).toEqual(SLUGS.slice(0, 4))
    expect(slugsOf((await list('?product_type=subscription')).results)).toEqual(['plano-programa-12-semanas', 'plano-mensal', 'plano-anual', 'teste-7-dias'])
    expect(slugsOf((await list('?category=programas')).results)).toEqual(['programa-essencial-8-semanas', 'programa-completo-12-semanas', 'plano-programa-12-semanas'])
    expect(slugsOf((await list('?pillar=sono')).results)).toEqual(['curso-sono-reparador', 'diario-do-sono'])
    expect((await list('?pillar_id=4')).results).toEqual((await list('?pillar=sono')).results)
    expect(slugsOf((await list('?pillar=alimento&product_type=course')).results)).toEqual(['curso-comida-de-verdade'])
    expect(slugsOf((await list('?category=conteudos&product_type=digital_material&pillar_id=6')).results)).toEqual(['diario-30-dias-menos-alcool'])
    // Filters that exclude each other leave an empty page, not an error; a pillar without products too.
    expect(await list('?pillar=sono&pillar_id=3')).toEqual({ count: 0, next: null, previous: null, results: [] })
    expect((await list('?pillar=relacionamentos')).count).toBe(0)
    // As django-filter: an empty value is no filter; values are trimmed.
    expect((await list('?product_type=&category=&pillar=&pillar_id=')).count).toBe(16)
    expect((await list('?product_type=%20course%20')).count).toBe(3)
  })

  it('reads a cart’s products by id (id__in, at most 20), in the shop’s order, leaving out what is not listed', async () => {
    expect(slugsOf((await list('?id__in=11,8,%202')).results)).toEqual(['pacote-4-consultas', 'curso-sono-reparador', 'diario-do-sono'])
    await database.db.update(products).set({ active: false }).where(eq(products.slug, 'curso-sono-reparador'))
    expect(slugsOf((await list('?id__in=11,8,999')).results)).toEqual(['diario-do-sono'])
    expect((await list('?id__in=11&product_type=course')).count).toBe(0)
    const twenty = Array.from({ length: 20 }, (_, index) => index + 1).join(',')
    expect((await list(`?id__in=${twenty}&page_size=20`)).count).toBe(15)
    for (const query of [`?id__in=${twenty},21`, '?id__in=1,x', '?id__in=1,,2', '?id__in=0', '?id__in=2147483648', '?id__in=1.5']) {
      const response = await api.get(`/products/${query}`)
      expect(response.status, query).toBe(400)
      expect(Object.keys(response.json), query).toEqual(['id__in'])
    }
  })

  it('refuses unknown values, too-long strings and bad ids as field errors, all at once', async () => {
    const bad = (query: string) => api.get(`/products/${query}`)
    expect(await bad('?product_type=ebook')).toMatchObject({ status: 400, json: { product_type: ['"ebook" is not a valid choice.'] } })
    // Case matters, as in DRF's ChoiceField; a long value is echoed cut short.
    expect(await bad('?product_type=Course')).toMatchObject({ status: 400, json: { product_type: ['"Course" is not a valid choice.'] } })
    expect(await bad(`?product_type=${'x'.repeat(5000)}`)).toMatchObject({ status: 400, json: { product_type: [`"${'x'.repeat(40)}…" is not a valid choice.`] } })
    expect(await bad('?category=livros')).toMatchObject({ status: 400, json: { category: ['"livros" is not a valid choice.'] } })
    expect(await bad(`?category=${'a'.repeat(41)}`)).toMatchObject({ status: 400, json: { category: ['Ensure this field has no more than 40 characters.'] } })
    expect(await bad('?pillar=yoga')).toMatchObject({ status: 400, json: { pillar: ['"yoga" is not a valid choice.'] } })
    expect(await bad('?pillar=SONO')).toMatchObject({ status: 400, json: { pillar: ['"SONO" is not a valid choice.'] } })
    expect(await bad(`?pillar=${'s'.repeat(51)}`)).toMatchObject({ status: 400, json: { pillar: ['Ensure this field has no more than 50 characters.'] } })
    expect(await bad('?pillar_id=sono')).toMatchObject({ status: 400, json: { pillar_id: ['A valid integer is required.'] } })
    expect(await bad('?pillar_id=4.5')).toMatchObject({ status: 400, json: { pillar_id: ['A valid integer is required.'] } })
    expect(await bad('?pillar_id=0')).toMatchObject({ status: 400, json: { pillar_id: ['Ensure this value is greater than or equal to 1.'] } })
    expect(await bad('?pillar_id=-3')).toMatchObject({ status: 400, json: { pillar_id: ['Ensure this value is greater than or equal to 1.'] } })
    expect(await bad('?pillar_id=2147483648')).toMatchObject({ status: 400, json: { pillar_id: ['Ensure this value is less than or equal to 2147483647.'] } })
    expect(await bad(`?pillar_id=${'9'.repeat(100_000)}`)).toMatchObject({ status: 400, json: { pillar_id: ['Ensure this value is less than or equal to 2147483647.'] } })
    expect(await bad('?pillar_id=99')).toMatchObject({ status: 400, json: { pillar_id: ['Invalid pk "99" - object does not exist.'] } })
    expect(await bad('?product_type=ebook&category=livros&pillar=yoga&pillar_id=x')).toMatchObject({
      status: 400,
      json: {
        product_type: ['"ebook" is not a valid choice.'],
        category: ['"livros" is not a valid choice.'],
        pillar: ['"yoga" is not a valid choice.'],
        pillar_id: ['A valid integer is required.'],
      },
    })
  })

  it('refuses a NUL in a filter or in the path', async () => {
    for (const query of ['?category=%00', '?product_type=course%00', '?pillar=sono%00', '?pillar_id=4%00', '?page=1%00']) {
      expect(await api.get(`/products/${query}`)).toMatchObject({ status: 400, json: NUL })
    }
    expect(await api.get('/products/1%00/')).toMatchObject({ status: 400, json: NUL })
    expect(await api.get('/pillars/sono%00/products/')).toMatchObject({ status: 400, json: NUL })
  })

  it('pages as DRF does: page sizes up to 100, "last", and 404 past the bounds', async () => {
    const first = await list('?page_size=5')
    expect(first).toMatchObject({ count: 16, previous: null, next: `${PUBLIC_URL}/products/?page_size=5&page=2` })
    expect(slugsOf(first.results)).toEqual(SLUGS.slice(0, 5))
    const last = await list('?page_size=5&page=last')
    expect(slugsOf(last.results)).toEqual(SLUGS.slice(15))
    expect(last).toMatchObject({ next: null, previous: `${PUBLIC_URL}/products/?page_size=5&page=3` })
    // The filters stay in the links.
    expect((await list('?category=conteudos&page_size=2')).next).toBe(`${PUBLIC_URL}/products/?category=conteudos&page_size=2&page=2`)
    // At most 100 a page; a bad size is the default (20).
    expect((await list('?page_size=1000')).results).toHaveLength(16)
    expect((await list('?page_size=abc')).results).toHaveLength(16)
    expect((await list('?page_size=0')).results).toHaveLength(16)
    for (const page of ['0', '-1', 'abc', '2', '1.5', '99999999999999999999']) {
      expect(await api.get(`/products/?page=${page}`)).toMatchObject({ status: 404, json: INVALID_PAGE })
    }
    expect(await api.get('/products/?page_size=5&page=5')).toMatchObject({ status: 404, json: INVALID_PAGE })
    // An empty list has one empty page.
    expect(await api.get('/products/?pillar=relacionamentos&page=2')).toMatchObject({ status: 404, json: INVALID_PAGE })
  })

  it('keeps a stable order across pages: sort order, then id', async () => {
    // Two more products sharing a sort order with a seeded one: the id breaks the tie.
    await database.db.insert(products).values([course({ slug: 'tie-b', sortOrder: 80 }), course({ slug: 'tie-c', sortOrder: 80 }), course({ slug: 'first', sortOrder: 0 })])
    const walked: string[] = []
    for (let page = 1; page <= 7; page += 1) walked.push(...slugsOf((await list(`?page_size=3&page=${page}`)).results))
    expect(walked).toEqual(['first', ...SLUGS.slice(0, 8), 'tie-b', 'tie-c', ...SLUGS.slice(8)])
  })

  it('hides inactive products, and a package whose professional is no longer active', async () => {
    await database.db.update(products).set({ active: false }).where(eq(products.slug, 'plano-anual'))
    await database.db.update(users).set({ isActive: false }).where(eq(users.email, 'profissional@innera.local'))
    const { count, results } = await list()
    expect(count).toBe(14)
    expect(slugsOf(results)).toEqual(SLUGS.filter((slug) => slug !== 'plano-anual' && slug !== 'pacote-4-consultas-paula-ribeiro'))
    expect((await list('?product_type=subscription')).count).toBe(3)
    // A category whose products are all inactive is no longer one of the filter's choices.
    await database.db.update(products).set({ active: false }).where(eq(products.category, 'assinaturas'))
    expect(await api.get('/products/?category=assinaturas')).toMatchObject({ status: 400, json: { category: ['"assinaturas" is not a valid choice.'] } })
  })

  it('takes no other writes: only an admin’s new price, as PATCH (subscription-prices.test.ts)', async () => {
    for (const token of [undefined, tokens.pedro, tokens.admin]) {
      const response = await api.post('/products/', { product_type: 'course' }, { token })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
      expect((await api.call('DELETE', '/products/1/', { token })).status).toBe(405)
    }
    expect((await api.patch('/products/1/', { active: false })).status).toBe(401)
    expect((await api.patch('/products/1/', { active: false }, { token: tokens.pedro })).status).toBe(403)
    // Only the price is taken: the rest is not the admin's to change here.
    expect((await api.patch('/products/1/', { active: false }, { token: tokens.admin })).json).toEqual({ price_cents: ['This field is required.'] })
    expect((await list()).count).toBe(16)
  })
})

describe('GET /products/{id}/', () => {
  it('answers one active product as the list shows it, to anyone (a signed-in caller also gets their standing, decision 0095)', async () => {
    const listed = (await list()).results
    const response = await api.get('/products/4/')
    expect(response.status).toBe(200)
    expect(response.json).toEqual(listed[3])
    for (const [token, viewer] of [[tokens.pedro, { owned: false, open_purchase_id: null }], [tokens.paula, null], [tokens.admin, null]] as const) {
      expect(await api.get('/products/4/', { token })).toMatchObject({ status: 200, json: { ...listed[3], viewer } })
    }
    expect((await api.get('/products/16/')).json).toMatchObject({ slug: 'teste-7-dias', plan_interval: 'trial', trial_days: 7 })
  })

  it('is 404 for an unknown, inactive or malformed id, 400 for one beyond the id range', async () => {
    expect(await api.get('/products/17/')).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect(await api.get('/products/2147483647/')).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    await database.db.update(products).set({ active: false }).where(eq(products.id, 15))
    expect(await api.get('/products/15/')).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    await database.db.update(users).set({ isActive: false }).where(eq(users.email, 'profissional@innera.local'))
    expect(await api.get('/products/4/')).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    for (const path of ['/products/abc/', '/products/1.5/', '/products/-1/', '/products/consulta-avulsa/']) {
      expect(await api.get(path)).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    }
    for (const path of ['/products/0/', '/products/2147483648/', `/products/${'9'.repeat(1000)}/`]) {
      expect(await api.get(path)).toMatchObject({ status: 400, json: BAD_ID })
    }
    // Django's APPEND_SLASH.
    const redirect = await api.get('/products/1')
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe('/products/1/')
  })
})

describe('GET /pillars/{id}/products/', () => {
  it('lists a pillar’s active products, the pillar named by id or slug as /pillars/{id}/ names it', async () => {
    const byId = await api.get('/pillars/4/products/')
    expect(byId.status).toBe(200)
    expect(byId.json).toMatchObject({ count: 2, next: null, previous: null })
    expect(slugsOf(byId.json.results)).toEqual(['curso-sono-reparador', 'diario-do-sono'])
    expect((await api.get('/pillars/sono/products/')).json).toEqual(byId.json)
    expect((await api.get('/pillars/SONO/products/')).json).toEqual(byId.json)
    expect((await api.get('/pillars/4/products/', { token: tokens.paula })).json).toEqual(byId.json)
    expect(await api.get('/pillars/relacionamentos/products/')).toMatchObject({ status: 200, json: { count: 0, results: [] } })
    await database.db.update(products).set({ active: false }).where(eq(products.slug, 'diario-do-sono'))
    expect(slugsOf((await api.get('/pillars/4/products/')).json.results)).toEqual(['curso-sono-reparador'])
  })

  it('takes the type and category filters, and pages', async () => {
    expect(slugsOf((await api.get('/pillars/alimento/products/?product_type=digital_material')).json.results)).toEqual(['guia-planejamento-refeicoes'])
    expect((await api.get('/pillars/3/products/?category=conteudos')).json.count).toBe(2)
    expect(await api.get('/pillars/3/products/?product_type=ebook')).toMatchObject({ status: 400, json: { product_type: ['"ebook" is not a valid choice.'] } })
    expect((await api.get('/pillars/3/products/?page_size=1')).json).toMatchObject({ count: 2, next: `${PUBLIC_URL}/pillars/3/products/?page_size=1&page=2` })
    expect(await api.get('/pillars/3/products/?page=3')).toMatchObject({ status: 404, json: INVALID_PAGE })
  })

  it('is 404 for an unknown pillar', async () => {
    for (const key of ['yoga', '7', '0', '99999999999', `${'9'.repeat(500)}`]) {
      expect(await api.get(`/pillars/${key}/products/`)).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    }
  })
})

/** A valid course, to change one thing at a time. */
function course(overrides: Partial<typeof products.$inferInsert> = {}): typeof products.$inferInsert {
  return {
    slug: 'curso-teste',
    productType: 'course',
    category: 'conteudos',
    pillarSlug: 'sono',
    name: { pt: 'Curso', en: 'Course', es: 'Curso' },
    description: { pt: 'Um curso.', en: 'A course.', es: 'Un curso.' },
    priceCents: 10_000,
    ...overrides,
  }
}

describe('the products table refuses what the catalogue cannot hold', () => {
  /** The SQLSTATE and constraint an insert fails with (undefined if it went in). */
  async function refusal(values: typeof products.$inferInsert): Promise<{ code: string; constraint?: string } | undefined> {
    try {
      await database.db.insert(products).values(values)
      return undefined
    } catch (error) {
      return databaseError(error) ?? { code: 'not a database error', constraint: String(error) }
    }
  }
  const check = (constraint: string) => ({ code: '23514', constraint })
  const foreignKey = (constraint: string) => ({ code: '23503', constraint })
  const fullSubscription = { productType: 'subscription', pillarSlug: null, category: 'assinaturas' } as const

  it('takes valid rows of every type', async () => {
    expect(await refusal(course())).toBeUndefined()
    expect(await refusal(course({ slug: 'pacote', productType: 'consultation_package', consultations: 8, professionalId: 3, pillarSlug: null }))).toBeUndefined()
    expect(await refusal(course({ slug: 'programa', productType: 'program', weeks: 10 }))).toBeUndefined()
    expect(await refusal(course({ slug: 'plano', ...fullSubscription, planInterval: 'program', weeks: 8, trialDays: 0 }))).toBeUndefined()
    expect(await refusal(course({ slug: 'mensal', ...fullSubscription, planInterval: 'monthly', trialDays: 14 }))).toBeUndefined()
    expect(await refusal(course({ slug: 'material', productType: 'digital_material', priceCents: 10_000_000 }))).toBeUndefined()
  })

  it('refuses prices of zero, below zero or beyond R$ 100.000,00', async () => {
    for (const priceCents of [0, -100, 10_000_001]) expect(await refusal(course({ priceCents }))).toEqual(check('products_price_check'))
  })

  it('refuses unknown types, and categories and slugs that are not slugs', async () => {
    expect(await refusal(course({ productType: 'ebook' as never }))).toEqual(check('products_type_check'))
    for (const category of ['Conteudos', 'sono bom', 'a--b', '-a', '']) expect(await refusal(course({ category }))).toEqual(check('products_category_check'))
    for (const slug of ['Curso', 'curso_teste', 'curso-', '']) expect(await refusal(course({ slug }))).toEqual(check('products_slug_check'))
    expect(await refusal(course({ sortOrder: -1 }))).toEqual(check('products_sort_order_check'))
  })

  it('refuses a pillar or a professional that does not exist', async () => {
    expect(await refusal(course({ pillarSlug: 'yoga' }))).toEqual(foreignKey('products_pillar_slug_pillars_slug_fk'))
    expect(await refusal(course({ productType: 'consultation_package', consultations: 1, professionalId: 999 }))).toEqual(foreignKey('products_professional_id_users_id_fk'))
  })

  it('refuses names and descriptions without all three languages, empty, of another type or too long', async () => {
    for (const name of [{ pt: 'Curso', en: 'Course' }, { pt: 'Curso', en: 'Course', es: '' }, { pt: 'Curso', en: 'Course', es: 3 }, { pt: 'x'.repeat(121), en: 'Course', es: 'Curso' }, 'Curso']) {
      expect(await refusal(course({ name: name as never }))).toEqual(check('products_name_check'))
    }
    expect(await refusal(course({ name: { pt: 'x'.repeat(120), en: 'Course', es: 'Curso' } }))).toBeUndefined()
    for (const description of [{ pt: 'Um curso.', en: 'A course.', es: null }, { pt: 'Um curso.', en: 'a'.repeat(2001), es: 'Un curso.' }]) {
      expect(await refusal(course({ slug: 'outro', description: description as never }))).toEqual(check('products_description_check'))
    }
  })

  it('holds consultations (1, 4 or 8) and a professional only in a consultation package', async () => {
    const pack = (overrides: Partial<typeof products.$inferInsert>) => course({ productType: 'consultation_package', pillarSlug: null, ...overrides })
    for (const consultations of [null, 0, 2, 3, 12]) expect(await refusal(pack({ consultations }))).toEqual(check('products_consultations_check'))
    expect(await refusal(course({ consultations: 1 }))).toEqual(check('products_consultations_check'))
    expect(await refusal(course({ professionalId: 2 }))).toEqual(check('products_professional_check'))
  })

  it('holds a plan interval and trial days only in a subscription, a trial with at least one day', async () => {
    const plan = (overrides: Partial<typeof products.$inferInsert>) => course({ ...fullSubscription, ...overrides })
    expect(await refusal(plan({ planInterval: null, trialDays: 0 }))).toEqual(check('products_plan_check'))
    expect(await refusal(plan({ planInterval: 'monthly', trialDays: null }))).toEqual(check('products_plan_check'))
    expect(await refusal(plan({ planInterval: 'weekly' as never, trialDays: 0 }))).toEqual(check('products_plan_check'))
    expect(await refusal(plan({ planInterval: 'trial', trialDays: 0 }))).toEqual(check('products_plan_check'))
    expect(await refusal(plan({ planInterval: 'yearly', trialDays: 91 }))).toEqual(check('products_plan_check'))
    expect(await refusal(plan({ planInterval: 'yearly', trialDays: -1 }))).toEqual(check('products_plan_check'))
    expect(await refusal(course({ planInterval: 'monthly' }))).toEqual(check('products_plan_check'))
    expect(await refusal(course({ trialDays: 7 }))).toEqual(check('products_plan_check'))
  })

  it('holds weeks (8-12) in a program and a program-specific subscription, and nowhere else', async () => {
    for (const weeks of [null, 7, 13]) expect(await refusal(course({ productType: 'program', weeks }))).toEqual(check('products_weeks_check'))
    expect(await refusal(course({ ...fullSubscription, planInterval: 'program', trialDays: 0 }))).toEqual(check('products_weeks_check'))
    expect(await refusal(course({ ...fullSubscription, planInterval: 'monthly', trialDays: 0, weeks: 8 }))).toEqual(check('products_weeks_check'))
    expect(await refusal(course({ weeks: 8 }))).toEqual(check('products_weeks_check'))
  })

  it('keeps slugs unique, so the seed never adds a product twice', async () => {
    expect(await refusal(course({ slug: 'plano-anual' }))).toEqual({ code: '23505', constraint: 'products_slug_unique' })
    expect(await seedDatabase(database.db)).toMatchObject({ products: 0 })
    expect((await list()).count).toBe(PRODUCTS.length)
  })
})

import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as catalogueLoader } from '#app/routes/solucoes/route.tsx'
import { loader as productLoader } from '#app/routes/produto.$id.tsx'
import { productAnswer, productAs, productPage } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/** The 4-consultation package, any field replaced. */
const product = (overrides: Record<string, unknown> = {}) =>
  productAnswer({
    id: 3,
    slug: 'pacote-4-consultas',
    product_type: 'consultation_package',
    category: 'atendimento',
    name: { pt: 'Pacote de 4 consultas', en: '4-consultation package', es: 'Paquete de 4 consultas' },
    description: { pt: 'Quatro consultas.', en: 'Four consultations.', es: 'Cuatro consultas.' },
    price_cents: 64800,
    consultations: 4,
    ...overrides,
  })

const page = productPage

type Catalogue = { query: { tipo: string; pilar: string; page: number }; count: number; products: { id: number; name: string; price: string; pillar: { slug: string; name: string } | null }[] }

describe('the solutions catalogue', () => {
  test('asks the provider for one page with the filters it understood, and shows prices in the page language', async () => {
    let asked: URL | undefined
    providerMock.use(
      http.get(providerUrl('/products/'), ({ request }) => {
        asked = new URL(request.url)
        return HttpResponse.json(page([product({ id: 9, product_type: 'course', pillar: 'sono', pillar_id: 4, price_cents: 123456 })], 13))
      }),
    )
    const result = await run(catalogueLoader, new Request('http://app.test/solucoes?tipo=course&pilar=sono&page=2&lng=en'))
    expect(asked?.searchParams.get('product_type')).toBe('course')
    expect(asked?.searchParams.get('pillar')).toBe('sono')
    expect(asked?.searchParams.get('page')).toBe('2')
    expect(asked?.searchParams.get('page_size')).toBe('12')
    const data = result.data as Catalogue
    expect(data.count).toBe(13)
    expect(data.products[0]).toMatchObject({ id: 9, name: '4-consultation package', price: 'R$1,234.56', pillar: { slug: 'sono', name: 'Sleep' } })
  })

  test('unknown filters and junk pages are no filter and the first page, never sent on', async () => {
    let asked: URL | undefined
    providerMock.use(
      http.get(providerUrl('/products/'), ({ request }) => {
        asked = new URL(request.url)
        return HttpResponse.json(page([product()]))
      }),
    )
    const result = await run(catalogueLoader, new Request(`http://app.test/solucoes?tipo=ebook&pilar=${'x'.repeat(500)}&page=-4`))
    expect((result.data as Catalogue).query).toEqual({ tipo: '', pilar: '', page: 1 })
    expect([...asked!.searchParams.keys()].sort()).toEqual(['page', 'page_size'])
    expect((result.data as Catalogue).products[0]?.price).toBe('R$\u00a0648,00')
  })

  test('a page past the end goes back to the first page of the same filter', async () => {
    providerMock.use(http.get(providerUrl('/products/'), () => HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 })))
    const result = await run(catalogueLoader, new Request('http://app.test/solucoes?tipo=course&page=9'))
    expect(result.status).toBe(302)
    expect(result.location).toBe('/solucoes?tipo=course')
  })

  test('a provider that cannot be reached shows the network page, not an empty catalogue', async () => {
    providerMock.use(http.get(providerUrl('/products/'), () => HttpResponse.error()))
    const result = await run(catalogueLoader, new Request('http://app.test/solucoes'))
    expect(result.status).toBe(503)
  })

  test('an answer that is not the catalogue (a price in fractions of a cent) is an error, never shown', async () => {
    providerMock.use(http.get(providerUrl('/products/'), () => HttpResponse.json(page([product({ price_cents: 10.5 })]))))
    expect((await run(catalogueLoader, new Request('http://app.test/solucoes'))).status).toBe(500)
  })
})

describe('a product page', () => {
  test('one product, in the page language', async () => {
    providerMock.use(http.get(providerUrl('/products/3/'), () => HttpResponse.json(product({ professional: { id: 2, first_name: 'Paula', last_name: 'Ribeiro', photo: null, profession: 'Médica' } }))))
    const result = await run(productLoader, new Request('http://app.test/produto/3?lng=es'), { id: '3' })
    const data = result.data as { meta: { title: string }; product: { name: string; price: string; professional: string | null; consultations: number } }
    expect(data.product).toMatchObject({ name: 'Paquete de 4 consultas', consultations: 4, professional: 'Paula Ribeiro' })
    expect(data.product.price).toMatch(/648,00/)
    expect(data.meta.title).toContain('Paquete de 4 consultas')
  })

  test('a patient who has the course is told so, asked with the product in one call; a visitor asks without a token', async () => {
    const asked: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/products/9/'), (info) => {
        asked.push(info.request.headers.get('authorization'))
        return productAs(productAnswer(), { owned: true, open_purchase_id: null })(info)
      }),
    )
    const patient = await signedIn(demoPatient, { checked: true })
    const owned = await run(productLoader, getRequest('http://app.test/produto/9', patient), { id: '9' })
    expect(owned.data).toMatchObject({ owned: true, openPurchaseId: null, product: { name: 'Curso Sono reparador' } })
    expect(asked).toEqual([expect.stringMatching(/^Bearer /)])
    expect((await run(productLoader, new Request('http://app.test/produto/9'), { id: '9' })).data).toMatchObject({ owned: false, openPurchaseId: null })
    expect(asked).toEqual([expect.stringMatching(/^Bearer /), null])
    // A professional's page is the product's alone: the provider gives them no standing.
    const professional = await signedIn(demoProfessional, { checked: true })
    expect((await run(productLoader, getRequest('http://app.test/produto/9', professional), { id: '9' })).data).toMatchObject({ owned: false, openPurchaseId: null })
    expect(asked.at(-1)).toBeNull()
  })

  test('an id that is not one, or a product not for sale, is a 404', async () => {
    expect((await run(productLoader, new Request('http://app.test/produto/abc'), { id: 'abc' })).status).toBe(404)
    expect((await run(productLoader, new Request('http://app.test/produto/99999999999'), { id: '99999999999' })).status).toBe(404)
    providerMock.use(http.get(providerUrl('/products/8/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    expect((await run(productLoader, new Request('http://app.test/produto/8'), { id: '8' })).status).toBe(404)
  })
})

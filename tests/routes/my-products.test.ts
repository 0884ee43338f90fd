import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as downloadLoader } from '#app/routes/meus-produtos.$id.arquivo.ts'
import { loader as myProductsLoader } from '#app/routes/meus-produtos._index/route.tsx'
import { productAnswer, productPage, subscriptionAnswer } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'

/** "My products" and a material's download (docs/product.md §2, decision 0056), against the provider's shapes. */

const PDF = Buffer.from('%PDF-1.3\n% a material\n%%EOF\n', 'latin1')

const owned = (kind: string, product: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  product: productAnswer(product),
  purchase_id: 30,
  kind,
  available_at: '2026-11-20T13:00:00.000Z',
  download_url: null,
  credits: null,
  ...extra,
})

const ownedAnswer = productPage([
  owned('material', { id: 12, slug: 'diario-do-sono', product_type: 'digital_material', name: { pt: 'Diário do sono (PDF)', en: 'Sleep diary (PDF)', es: 'Diario del sueño (PDF)' } }, { download_url: 'http://provider.test/products/my-products/12/download/' }),
  owned('material', { id: 13, slug: 'guia', product_type: 'digital_material' }, { available_at: '2099-01-01T00:00:00.000Z', download_url: 'http://provider.test/products/my-products/13/download/' }),
  owned('course', {}),
  owned('consultation_credits', { id: 4, slug: 'pacote-4', product_type: 'consultation_package', consultations: 4 }, { credits: { total: 4, used: 1, remaining: 3, professional_id: 2 } }),
  owned('consultation_credits', { id: 5, slug: 'pacote-1', product_type: 'consultation_package', consultations: 1 }, { purchase_id: 31, credits: { total: 1, used: 1, remaining: 0, professional_id: null } }),
])

describe('my products', () => {
  test('grouped as the page shows them: a material downloadable from when it is available, packages with consultations left, live subscriptions; private', async () => {
    providerMock.use(
      http.get(providerUrl('/products/my-products/'), ({ request }) => (new URL(request.url).searchParams.get('page_size') === '100' ? HttpResponse.json(ownedAnswer) : HttpResponse.json({}, { status: 400 }))),
      http.get(providerUrl('/subscriptions/'), () => HttpResponse.json(productPage([subscriptionAnswer(), subscriptionAnswer({ id: 6, status: 'ended', ended_reason: 'cancelled', ended_at: '2026-11-01T00:00:00.000Z' })]))),
    )
    const page = await run(myProductsLoader, getRequest('http://app.test/meus-produtos', await signedIn(demoPatient, { checked: true })))
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(page.data).toMatchObject({
      products: {
        materials: [
          { id: 12, name: 'Diário do sono (PDF)', available: true, downloadable: true, since: '20 de novembro de 2026' },
          { id: 13, available: false, downloadable: true },
        ],
        courses: [{ id: 9, name: 'Curso Sono reparador' }],
        packages: [{ id: 4, remaining: 3, total: 4, professionalId: 2 }],
        subscriptions: [{ id: 5, plan: 'Plano mensal' }],
        programs: [],
      },
    })
    // Signed out: to sign in first.
    expect((await run(myProductsLoader, new Request('http://app.test/meus-produtos'))).location).toMatch(/^\/auth\?mode=login/)
  })

  test('the download passes the file through, private; not theirs is a 404; not yet or the provider away goes back to the page, told why', async () => {
    providerMock.use(
      http.get(providerUrl('/products/my-products/12/download/'), () => new HttpResponse(PDF, { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="diario-do-sono.pdf"' } })),
      http.get(providerUrl('/products/my-products/13/download/'), () => HttpResponse.json({ detail: 'This material is not available yet.', code: 'not_available_yet' }, { status: 409 })),
      http.get(providerUrl('/products/my-products/14/download/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })),
      http.get(providerUrl('/products/my-products/15/download/'), () => HttpResponse.error()),
    )
    const download = async (id: string) => run(downloadLoader, getRequest(`http://app.test/meus-produtos/${id}/arquivo`, await signedIn(demoPatient, { checked: true })), { id })
    const file = await download('12')
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="diario-do-sono.pdf"')
    expect(file.headers.get('cache-control')).toBe('private, no-store')
    expect(file.headers.get('content-length')).toBe(String(PDF.length))
    expect(file.data).toBe(PDF.toString('latin1'))

    const early = await download('13')
    expect(early.location).toBe('/meus-produtos')
    expect(await toastOf(early.headers)).toMatchObject({ type: 'error', message: { text: 'Este material ainda não está disponível. Tente de novo mais tarde.' } })
    expect((await download('14')).status).toBe(404)
    expect((await download('abc')).status).toBe(404)
    const away = await download('15')
    expect(away.location).toBe('/meus-produtos')
    expect(await toastOf(away.headers)).toMatchObject({ type: 'error' })
  })
})

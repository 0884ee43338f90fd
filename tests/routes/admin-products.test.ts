import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action, loader } from '#app/routes/admin.products.tsx'
import { getToast } from '#app/utils/toast.server.ts'
import { monthlyPlanAnswer } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, signedIn } from '#tests/mocks/session.ts'

/** /admin/products (decisions 0053, 0065): every product with its state and price, and an admin's new price. */

const adminCookie = () => signedIn(demoAdmin)
const NBSP = '\u00a0'

const plan = monthlyPlanAnswer
/** The plan as the catalogue editor lists it (decision 0065): on sale or not, with its draft. */
const { id, slug, product_type, category, pillar, name, description, price_cents, consultations, weeks, plan_interval, trial_days } = plan
const editorPlan = { id, slug, product_type, category, pillar, name, description, price_cents, consultations, weeks, plan_interval, trial_days, active: true, sort_order: 10, professional_id: null, draft: null }

function answers(patch?: () => Response) {
  const sent: unknown[] = []
  providerMock.use(
    http.get(providerUrl('/admin/content/products/'), () => HttpResponse.json({ results: [editorPlan], new_drafts: [] })),
    http.patch(providerUrl('/products/:id/'), async ({ request, params }) => {
      sent.push({ id: params.id, body: await request.json(), authorization: request.headers.get('authorization') })
      return patch ? patch() : HttpResponse.json({ ...plan, price_cents: 9990 })
    }),
  )
  return sent
}

describe('/admin/products', () => {
  test('lists the products with their prices in the page language; only admins', async () => {
    answers()
    const result = await run(loader, getRequest('http://app.test/admin/products?lng=en', await adminCookie()))
    expect(result.data).toMatchObject({ count: 1, products: [{ id: 21, slug: 'plano-mensal', name: 'Monthly plan', type: 'subscription', active: true, draftSince: null, renews: true, price: 'R$89.90' }], newDrafts: [] })
    const patient = await signedIn(demoPatient)
    expect((await run(loader, getRequest('http://app.test/admin/products', patient))).status).toBe(403)
    expect((await run(action, formRequest('http://app.test/admin/products', { product_id: '21', price: '99,90' }, { Cookie: patient }))).status).toBe(403)
  })

  test('sends the price typed the Brazilian way as cents, and says so', async () => {
    const sent = answers()
    const result = await run(action, formRequest('http://app.test/admin/products', { product_id: '21', price: `R$${NBSP}99,90` }, { Cookie: await adminCookie() }))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/admin/products')
    expect(sent).toEqual([{ id: '21', body: { price_cents: 9990 }, authorization: expect.stringMatching(/^Bearer /) }])
    const cookie = result.headers.getSetCookie().find((value) => value.startsWith('innera_toast='))
    const { toast } = await getToast(new Request('http://app.test/', { headers: { Cookie: cookie?.split(';')[0] ?? '' } }))
    expect(toast).toMatchObject({ type: 'success', message: { key: 'admin:products.saved', values: { name: 'Plano mensal' } } })
  })

  test('a price that is no amount, too small or too large comes back as typed, nothing sent', async () => {
    const sent = answers()
    for (const price of ['', 'abc', '0,49', '-10', '100.000,01', '1.2345']) {
      const result = await run(action, formRequest('http://app.test/admin/products', { product_id: '21', price }, { Cookie: await adminCookie() }))
      expect(result.status, price).toBe(400)
      expect(result.data).toMatchObject({ productId: 21, result: { initialValue: price ? { price } : {}, error: { price: ['admin:products.validation.price'] } } })
    }
    expect(sent).toEqual([])
  })

  test('the provider refusing or down keeps what was typed and says why', async () => {
    answers(() => HttpResponse.json({ price_cents: ['Ensure this value is less than or equal to 10000000.'] }, { status: 400 }))
    const refused = await run(action, formRequest('http://app.test/admin/products', { product_id: '21', price: '99,90' }, { Cookie: await adminCookie() }))
    expect(refused.data).toMatchObject({ productId: 21, result: { initialValue: { price: '99,90' }, error: { price: ['Ensure this value is less than or equal to 10000000.'] } } })
    answers(() => HttpResponse.error())
    const down = await run(action, formRequest('http://app.test/admin/products', { product_id: '21', price: '99,90' }, { Cookie: await adminCookie() }))
    expect(down.status).toBe(400)
    expect(down.data).toMatchObject({ productId: 21, result: { initialValue: { price: '99,90' }, error: { '': [expect.any(String)] } } })
  })
})

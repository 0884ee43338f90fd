import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as layoutLoader } from '#app/routes/admin.tsx'
import { action as detailAction, loader as detailLoader } from '#app/routes/admin.purchases.$id.tsx'
import { loader as listLoader } from '#app/routes/admin.purchases._index.tsx'
import { loader as exportLoader } from '#app/routes/admin.purchases.export.ts'
import { loader as appointmentsLoader } from '#app/routes/consultas._index.tsx'
import { adminPurchaseAnswer, adminPurchaseDetailAnswer, adminPurchaseHandlers, purchasePage } from '#tests/mocks/admin-purchases.ts'
import { appointment } from '#tests/mocks/appointments.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/** The admin console's purchases in the app (issue 26, decision 0061), against msw's provider. */

const NBSP = '\u00a0'
const cookieOf = (user = demoAdmin) => signedIn(user, { checked: true })
const get = async (url: string, user = demoAdmin) => getRequest(url, await cookieOf(user))
const post = async (url: string, fields: Record<string, string>, user = demoAdmin) => formRequest(url, fields, { Cookie: await cookieOf(user) })

describe('who sees the admin purchases', () => {
  test('patients and professionals get 403 from every loader and the action (a `.data` request runs only these); nobody asks the provider', async () => {
    const sent = adminPurchaseHandlers()
    for (const user of [demoPatient, demoProfessional]) {
      expect((await run(layoutLoader, await get('http://app.test/admin/purchases', user))).status).toBe(403)
      expect((await run(listLoader, await get('http://app.test/admin/purchases', user))).status).toBe(403)
      expect((await run(detailLoader, await get('http://app.test/admin/purchases/42', user), { id: '42' })).status).toBe(403)
      expect((await run(exportLoader, await get('http://app.test/admin/purchases/export', user))).status).toBe(403)
      expect((await run(detailAction, await post('http://app.test/admin/purchases/42', { reason: 'x' }, user), { id: '42' })).status).toBe(403)
    }
    expect(sent).toEqual([])
  })

  test('a visitor is sent to sign in and comes back', async () => {
    const result = await run(listLoader, new Request('http://app.test/admin/purchases?status=paid'))
    expect(result.status).toBe(302)
    expect(result.location).toBe('/auth?mode=login&redirectTo=%2Fadmin%2Fpurchases%3Fstatus%3Dpaid')
  })
})

describe('/admin/purchases', () => {
  test('lists with the filters sent as the provider takes them, in the page language; never cached', async () => {
    const sent = adminPurchaseHandlers()
    const result = await run(listLoader, await get('http://app.test/admin/purchases?lng=en&search=%20pedro%20&status=paid&method=pix&from=2026-11-01&to=2026-11-30&page=1'))
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(sent).toEqual([
      { method: 'GET', path: '/admin/purchases/', query: { search: 'pedro', status: 'paid', method: 'pix', from: '2026-11-01', to: '2026-11-30', tz: 'America/Sao_Paulo', page_size: '20' }, body: undefined },
    ])
    expect(result.data).toMatchObject({
      count: 1,
      exportUrl: '/admin/purchases/export?search=pedro&status=paid&method=pix&from=2026-11-01&to=2026-11-30',
      purchases: [{ id: 42, status: 'paid', method: 'pix', total: 'R$197.00', refunded: null, buyer: { name: 'Pedro Santos', email: 'paciente@innera.local' }, items: ['Restful sleep course'] }],
    })
  })

  test('ignores filters it cannot read, drops a reversed range and says so; a page past the end shows the last', async () => {
    const asked: Record<string, string>[] = []
    providerMock.use(
      http.get(providerUrl('/admin/purchases/'), ({ request }) => {
        const query = Object.fromEntries(new URL(request.url).searchParams)
        asked.push(query)
        return query.page === 'last' ? HttpResponse.json(purchasePage([adminPurchaseAnswer()], 41)) : HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 })
      }),
    )
    const result = await run(listLoader, await get('http://app.test/admin/purchases?status=lost&method=boleto&from=2026-11-30&to=2026-11-01&page=9'))
    expect(result.data).toMatchObject({ query: { status: '', method: '', from: '', to: '', reversed: true, page: 3 }, exportUrl: '/admin/purchases/export' })
    expect(asked).toEqual([
      { tz: 'America/Sao_Paulo', page: '9', page_size: '20' },
      { tz: 'America/Sao_Paulo', page: 'last', page_size: '20' },
    ])
  })
})

describe('/admin/purchases/export', () => {
  test("passes the provider's CSV through as it comes, with the list's filters; never cached", async () => {
    const sent = adminPurchaseHandlers()
    const result = await run(exportLoader, await get('http://app.test/admin/purchases/export?status=refunded&search=ana'))
    expect(result.status).toBe(200)
    expect(result.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(result.headers.get('Content-Disposition')).toBe('attachment; filename="compras-2026-11-30.csv"')
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(result.data).toBe('id,status\r\n42,paid\r\n')
    expect(sent).toMatchObject([{ path: '/admin/purchases/export/', query: { status: 'refunded', search: 'ana' } }])
  })

  test('the provider failing before the file starts: back to the list with the same filters, told why', async () => {
    adminPurchaseHandlers({ exported: () => HttpResponse.error() })
    const result = await run(exportLoader, await get('http://app.test/admin/purchases/export?status=paid'))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/admin/purchases?status=paid')
    expect(await toastOf(result)).toMatchObject({ type: 'error', message: { text: 'Erro de conexão. Verifique sua internet e configurações.' } })
  })
})

describe('/admin/purchases/{id}', () => {
  test('the purchase, what the terms refund now and why, its history and Stripe notices; never cached', async () => {
    adminPurchaseHandlers()
    const result = await run(detailLoader, await get('http://app.test/admin/purchases/42'), { id: '42' })
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(result.data).toMatchObject({
      id: 42,
      purchase: {
        status: 'paid',
        total: `R$${NBSP}197,00`,
        quote: { amount: `R$${NBSP}197,00`, full: true, reason: 'withdrawal', withdrawalEnds: '2 de dezembro de 2026', deadline: { method: 'pix', businessDays: 3, date: '3 de dezembro de 2026' } },
        refusal: null,
        events: [{ to_status: 'pending' }, { from_status: 'pending', to_status: 'paid', stripe_event_id: 'evt_paid_1' }],
        deliveries: [{ id: 'evt_paid_1', changed_status: true }],
      },
    })
  })

  test('an unknown purchase is the 404 page; a refused one says why instead of the form', async () => {
    adminPurchaseHandlers({ detail: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect((await run(detailLoader, await get('http://app.test/admin/purchases/9'), { id: '9' })).status).toBe(404)
    expect((await run(detailLoader, await get('http://app.test/admin/purchases/abc'), { id: 'abc' })).status).toBe(404)
    adminPurchaseHandlers({ detail: () => HttpResponse.json(adminPurchaseDetailAnswer({ refund_quote: null, refund_refusal: { code: 'nothing_to_refund', withdrawal_ends_at: '2026-12-03T03:00:00.000Z' } })) })
    const refused = await run(detailLoader, await get('http://app.test/admin/purchases/42'), { id: '42' })
    expect(refused.data).toMatchObject({ purchase: { quote: null, refusal: { code: 'nothing_to_refund', withdrawalEnds: '2 de dezembro de 2026' } } })
  })

  test('the refund: the reason sent, back to the purchase with a toast saying how much', async () => {
    const sent = adminPurchaseHandlers()
    const result = await run(detailAction, await post('http://app.test/admin/purchases/42', { reason: '  Pediu por telefone ' }), { id: '42' })
    expect(result.status).toBe(303)
    expect(result.location).toBe('/admin/purchases/42')
    expect(sent).toEqual([{ method: 'POST', path: '/admin/purchases/42/refund/', query: {}, body: { reason: 'Pediu por telefone' } }])
    expect(await toastOf(result)).toMatchObject({ type: 'success', message: { key: 'admin-purchases:refund.done', values: { amount: `R$${NBSP}197,00` } } })
  })

  test('no reason, or one too long: the form again, nothing sent', async () => {
    const sent = adminPurchaseHandlers()
    const empty = await run(detailAction, await post('http://app.test/admin/purchases/42', { reason: '   ' }), { id: '42' })
    expect(empty.status).toBe(400)
    expect(empty.data).toMatchObject({ result: { error: { reason: ['errors.required'] } } })
    const long = await run(detailAction, await post('http://app.test/admin/purchases/42', { reason: 'x'.repeat(501) }), { id: '42' })
    expect(long.data).toMatchObject({ result: { initialValue: { reason: 'x'.repeat(501) }, error: { reason: ['validation.tooLong'] } } })
    expect(sent).toEqual([])
  })

  test('refused by the terms or the provider away: the reason comes back as typed with why; the page is drawn without the purchase', async () => {
    adminPurchaseHandlers({ refund: () => HttpResponse.json({ detail: 'Nothing of this purchase can be refunded any more.', code: 'nothing_to_refund' }, { status: 409 }) })
    const refused = await run(detailAction, await post('http://app.test/admin/purchases/42', { reason: 'Pediu depois do prazo' }), { id: '42' })
    expect(refused.status).toBe(400)
    expect(refused.data).toMatchObject({ result: { initialValue: { reason: 'Pediu depois do prazo' }, error: { '': ['Os termos não dão mais reembolso para esta compra.'] } } })

    adminPurchaseHandlers({ refund: () => HttpResponse.json({ reason: ['Ensure this field has no more than 500 characters.'] }, { status: 400 }) })
    const invalid = await run(detailAction, await post('http://app.test/admin/purchases/42', { reason: 'Motivo' }), { id: '42' })
    expect(invalid.data).toMatchObject({ result: { initialValue: { reason: 'Motivo' }, error: { reason: ['Ensure this field has no more than 500 characters.'] } } })

    adminPurchaseHandlers({ refund: () => HttpResponse.error(), detail: () => HttpResponse.error() })
    const request = await post('http://app.test/admin/purchases/42', { reason: 'Pediu por telefone' })
    const down = await run(detailAction, request, { id: '42' })
    expect(down.status).toBe(400)
    expect(down.data).toMatchObject({ result: { initialValue: { reason: 'Pediu por telefone' }, error: { '': ['Erro de conexão. Verifique sua internet e configurações.'] } } })
    // The same POST's loaders: the purchase could not be read, the form is drawn around what was typed.
    expect((await run(detailLoader, request, { id: '42' })).data).toMatchObject({ id: 42, purchase: null })
  })
})

describe('/consultas for an admin: one professional’s schedule', () => {
  test('chooses a professional with a GET form; the lists are that professional’s', async () => {
    const asked: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/appointments/'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('professional'))
        return HttpResponse.json({ count: 1, next: null, previous: null, results: [appointment()] })
      }),
      http.get(providerUrl('/users/professionals/'), () => HttpResponse.json([{ id: 7, username: 'ana', email: 'ana@innera.local', first_name: 'Ana', last_name: 'Lima', photo: null }])),
    )
    const result = await run(appointmentsLoader, await get('http://app.test/consultas?profissional=7'))
    expect(asked).toEqual(['7', '7'])
    expect(result.data).toMatchObject({ filter: { professional: '7', options: [{ value: '7', label: 'Ana Lima' }] } })
    asked.length = 0
    await run(appointmentsLoader, await get('http://app.test/consultas?profissional=abc'))
    expect(asked).toEqual([null, null])
    // A patient's list has no such filter and never asks for it.
    asked.length = 0
    const patient = await run(appointmentsLoader, await get('http://app.test/consultas?profissional=7', demoPatient))
    expect(asked).toEqual([null, null])
    expect(patient.data).toMatchObject({ filter: null })
  })
})

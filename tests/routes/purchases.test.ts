import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action as cartAction, loader as cartLoader } from '#app/routes/carrinho/route.tsx'
import { action as purchaseAction, loader as purchaseLoader } from '#app/routes/compras.$id.tsx'
import { loader as purchasesLoader } from '#app/routes/compras._index.tsx'
import { cartCookieHeader } from '#app/features/cart/cart-cookie.server.ts'
import { svgQuietZone } from '#server/testing/qr.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

const KEY = '3f0c8a55-4b1e-4f7a-9a57-0c6de1f2a901'
const cookies = async (lines: { productId: number; quantity: number }[], user = demoPatient) => `${await signedIn(user, { checked: true })}; ${(await cartCookieHeader({ lines })).split(';')[0]}`

function purchase(overrides: Record<string, unknown> = {}) {
  return {
    id: 7,
    status: 'pending',
    method: 'pix',
    total_cents: 19700,
    refunded_cents: 0,
    currency: 'BRL',
    items: [{ product_id: 8, product_type: 'course', name: { pt: 'Curso Sono reparador', en: 'Restful sleep course', es: 'Curso Sueño reparador' }, quantity: 1, unit_cents: 19700, line_cents: 19700 }],
    created_at: '2026-11-26T15:00:00.000Z',
    updated_at: '2026-11-26T15:00:00.000Z',
    paid_at: null,
    checkout_url: null,
    checkout_expires_at: null,
    pix: { data: '00020101021226580014br.gov.bcb.pix0136innera-pix@example.com5204000053039865406197.005802BR5906INNERA6009SAO PAULO62070503***6304ABCD', expires_at: '2026-11-26T15:30:00.000Z', instructions_url: 'http://provider.test/fake-stripe/pix/pi_1' },
    failure: null,
    transitions: [],
    refunds: [],
    refund_quote: null,
    can_cancel: true,
    can_renew_pix: false,
    ...overrides,
  }
}

const checkout = async (fields: Record<string, string>, cookie: string) => run(cartAction, formRequest('http://app.test/carrinho', { intent: 'checkout', ...fields }, { Cookie: cookie }))
const setCart = (headers: Headers) => headers.getSetCookie().find((value) => value.startsWith('innera_cart='))

describe('paying for the cart', () => {
  test('PIX: the cart’s products, the method and the page’s key go to the provider; the buyer lands on the purchase', async () => {
    const sent: unknown[] = []
    providerMock.use(
      http.post(providerUrl('/purchases/create/'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(purchase(), { status: 201 })
      }),
    )
    const result = await checkout({ method: 'pix', idempotencyKey: KEY }, await cookies([{ productId: 8, quantity: 1 }]))
    expect(sent).toEqual([{ items: [{ product_id: 8, quantity: 1 }], method: 'pix', idempotency_key: KEY }])
    expect(result.status).toBe(303)
    expect(result.location).toBe('/compras/7')
    expect(setCart(result.headers)).toBeUndefined()
  })

  test('what the buyer already has is named on the cart, which is kept as it is', async () => {
    providerMock.use(
      http.post(providerUrl('/purchases/create/'), () =>
        HttpResponse.json({ detail: 'You already have some of these products.', code: 'already_owned', product_ids: [8] }, { status: 409 }),
      ),
    )
    const result = await checkout({ method: 'card', idempotencyKey: KEY }, await cookies([{ productId: 8, quantity: 1 }, { productId: 3, quantity: 1 }]))
    expect(result.status).toBe(409)
    expect(result.data).toEqual({ checkout: { method: 'card', error: expect.stringMatching(/^Você já tem um ou mais produtos deste carrinho/), owned: [8] } })
    expect(setCart(result.headers)).toBeUndefined()
  })

  test('card: the payment page gets the way back to the purchase; the buyer goes to the payment page', async () => {
    const sent: Record<string, unknown>[] = []
    providerMock.use(
      http.post(providerUrl('/purchases/create/'), async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>)
        return HttpResponse.json(purchase({ method: 'card', pix: null, checkout_url: 'http://provider.test/fake-stripe/checkout/cs_test_1', checkout_expires_at: '2026-11-27T15:00:00.000Z' }), { status: 201 })
      }),
    )
    const result = await checkout({ method: 'card', idempotencyKey: KEY }, await cookies([{ productId: 8, quantity: 1 }]))
    expect(sent[0]).toMatchObject({ method: 'card', success_url: 'http://localhost:3000/compras/{PURCHASE_ID}', cancel_url: 'http://localhost:3000/compras/{PURCHASE_ID}' })
    expect(result.location).toBe('http://provider.test/fake-stripe/checkout/cs_test_1')
  })

  test('the payment service away, the provider out of reach: the cart stays, the method chosen is kept, and the page says why', async () => {
    const cookie = await cookies([{ productId: 8, quantity: 1 }])
    providerMock.use(http.post(providerUrl('/purchases/create/'), () => HttpResponse.json({ detail: 'Stripe is unavailable.', code: 'payment_provider_unavailable' }, { status: 503 })))
    const away = await checkout({ method: 'card', idempotencyKey: KEY }, cookie)
    expect(away.status).toBe(400)
    expect(away.data).toEqual({ checkout: { method: 'card', error: 'O serviço de pagamento não respondeu. Seu carrinho continua aqui: tente de novo em alguns minutos.' } })
    expect(setCart(away.headers)).toBeUndefined()

    providerMock.use(http.post(providerUrl('/purchases/create/'), () => HttpResponse.error()))
    const down = await checkout({ method: 'pix', idempotencyKey: KEY }, cookie)
    expect(down.status).toBe(400)
    expect(down.data).toMatchObject({ checkout: { method: 'pix', error: 'Erro de conexão. Verifique sua internet e configurações.' } })
  })

  test('refused before the provider: a bad key or method; an empty cart goes back to it; only patients pay', async () => {
    const cookie = await cookies([{ productId: 8, quantity: 1 }])
    expect((await checkout({ method: 'pix', idempotencyKey: 'nope' }, cookie)).status).toBe(400)
    expect((await checkout({ method: 'boleto', idempotencyKey: KEY }, cookie)).data).toMatchObject({ checkout: { method: 'pix' } })
    expect((await checkout({ method: 'pix', idempotencyKey: KEY }, await signedIn(demoPatient, { checked: true }))).location).toBe('/carrinho')
    expect((await checkout({ method: 'pix', idempotencyKey: KEY }, await cookies([{ productId: 8, quantity: 1 }], demoProfessional))).status).toBe(403)
  })

  test('the cart page gives a patient a new key each time, and no checkout to others', async () => {
    providerMock.use(http.get(providerUrl('/products/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })))
    const first = (await run(cartLoader, getRequest('http://app.test/carrinho', await signedIn(demoPatient, { checked: true })))).data as { checkout: { key: string } }
    const second = (await run(cartLoader, getRequest('http://app.test/carrinho', await signedIn(demoPatient, { checked: true })))).data as { checkout: { key: string } }
    expect(first.checkout.key).toMatch(/^[0-9a-f-]{36}$/)
    expect(first.checkout.key).not.toBe(second.checkout.key)
    const professional = (await run(cartLoader, getRequest('http://app.test/carrinho', await signedIn(demoProfessional, { checked: true })))).data
    expect(professional).toMatchObject({ checkout: null, signedIn: true })
  })
})

describe('the purchase page', () => {
  type Page = { purchase: { status: string; total: string; pix: { qrSvg: string; data: string; expiresLabel: string; instructionsUrl: string } | null; failureKey: string | null } }

  test('an open PIX code: its QR drawn as SVG on the server, the text to copy, the expiry in the buyer’s time zone (São Paulo here)', async () => {
    providerMock.use(http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(purchase())))
    const result = await run(purchaseLoader, getRequest('http://app.test/compras/7', await signedIn(demoPatient, { checked: true })), { id: '7' })
    const { purchase: view } = result.data as Page
    expect(view.pix?.qrSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    // Issue 41: the quiet zone of 4 modules ISO/IEC 18004 asks for, on every side.
    expect(svgQuietZone(view.pix!.qrSvg)).toMatchObject({ top: 4, left: 4, bottom: 4, right: 4 })
    expect(view.pix).toMatchObject({ expiresLabel: '12:30', instructionsUrl: 'http://provider.test/fake-stripe/pix/pi_1' })
    expect(view.total).toBe('R$\u00a0197,00')
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
  })

  test('a refused payment says why in the page’s language', async () => {
    providerMock.use(http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(purchase({ method: 'card', pix: null, failure: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' } }))))
    const { purchase: view } = (await run(purchaseLoader, getRequest('http://app.test/compras/7', await signedIn(demoPatient, { checked: true })), { id: '7' })).data as Page
    expect(view.failureKey).toBe('orders:purchase.failures.insufficient_funds')
  })

  test('paid: what it bought leaves the browser’s cart, and the page comes again to show it', async () => {
    providerMock.use(http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(purchase({ status: 'paid', pix: null, paid_at: '2026-11-26T15:05:00.000Z', can_cancel: true }))))
    const cookie = await cookies([{ productId: 8, quantity: 1 }, { productId: 2, quantity: 1 }])
    const result = await run(purchaseLoader, getRequest('http://app.test/compras/7', cookie), { id: '7' })
    expect(result.status).toBe(302)
    expect(result.location).toBe('/compras/7')
    const again = await run(purchaseLoader, new Request('http://app.test/compras/7', { headers: { Cookie: `${await signedIn(demoPatient, { checked: true })}; ${setCart(result.headers)!.split(';')[0]}` } }), { id: '7' })
    expect(again.status).toBe(200)
    expect(setCart(again.headers)).toBeUndefined()
  })

  test('someone else’s purchase is the not-found page; a malformed id too', async () => {
    providerMock.use(http.get(providerUrl('/purchases/9/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    expect((await run(purchaseLoader, getRequest('http://app.test/compras/9', await signedIn(demoPatient, { checked: true })), { id: '9' })).status).toBe(404)
    expect((await run(purchaseLoader, getRequest('http://app.test/compras/x', await signedIn(demoPatient, { checked: true })), { id: 'x' })).status).toBe(404)
  })

  test('its buttons come back to the page with a toast; a purchase that changed meanwhile says so', async () => {
    providerMock.use(http.post(providerUrl('/purchases/7/refresh-status/'), () => HttpResponse.json(purchase({ status: 'paid', pix: null }))))
    const refreshed = await run(purchaseAction, formRequest('http://app.test/compras/7', { intent: 'refresh' }, { Cookie: await signedIn(demoPatient, { checked: true }) }), { id: '7' })
    expect(refreshed.location).toBe('/compras/7')
    expect(refreshed.headers.getSetCookie().some((value) => value.startsWith('innera_toast='))).toBe(true)
    providerMock.use(http.post(providerUrl('/purchases/7/cancel/'), () => HttpResponse.json({ detail: 'The purchase changed.', code: 'status_changed' }, { status: 409 })))
    const changed = await run(purchaseAction, formRequest('http://app.test/compras/7', { intent: 'cancel', confirmado: 'sim' }, { Cookie: await signedIn(demoPatient, { checked: true }) }), { id: '7' })
    expect(changed.location).toBe('/compras/7')
  })

  test('my purchases: newest first as the provider pages them, 20 a page', async () => {
    let asked: URL | undefined
    providerMock.use(
      http.get(providerUrl('/purchases/'), ({ request }) => {
        asked = new URL(request.url)
        return HttpResponse.json({ count: 1, next: null, previous: null, results: [purchase({ status: 'paid', pix: null })] })
      }),
    )
    const result = await run(purchasesLoader, getRequest('http://app.test/compras', await signedIn(demoPatient, { checked: true })))
    expect(asked?.searchParams.get('page_size')).toBe('20')
    expect(result.data).toMatchObject({ count: 1, purchases: [{ id: 7, status: 'paid', total: 'R$\u00a0197,00', names: ['Curso Sono reparador'] }] })
  })
})

import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { serializeCart } from '#app/domain/cart.ts'
import { action as authAction } from '#app/routes/auth.tsx'
import { action as cartAction, loader as cartLoader } from '#app/routes/carrinho/route.tsx'
import { action as logoutAction } from '#app/routes/logout.ts'
import { loader as rootLoader } from '#app/root.tsx'
import { productAnswer, productPage } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoPatient, fakeJwt, signedIn } from '#tests/mocks/session.ts'
import { cartCookieHeader } from '#app/features/cart/cart-cookie.server.ts'

/** Course number `id`, any field replaced. */
const product = (id: number, overrides: Record<string, unknown> = {}) =>
  productAnswer({ id, slug: `produto-${id}`, name: { pt: `Curso ${id}`, en: `Course ${id}`, es: `Curso ${id}` }, price_cents: 19990, ...overrides })
const page = (results: unknown[]) => productPage(results)

/** The Cookie header value of a cart, as the browser would send it back. */
const cartCookie = async (lines: { productId: number; quantity: number }[]) => (await cartCookieHeader({ lines })).split(';')[0]!
/** The cart a response sets (undefined when it sets none; the empty string when it removes it). */
function setCart(headers: Headers): string | undefined {
  const cookie = headers.getSetCookie().find((value) => value.startsWith('innera_cart='))
  return cookie === undefined ? undefined : cookie.split(';')[0]!.slice('innera_cart='.length)
}

function catalogue(...products: ReturnType<typeof product>[]) {
  const asked: string[] = []
  providerMock.use(
    http.get(providerUrl('/products/:id/'), ({ params }) => {
      const found = products.find((item) => String(item.id) === params.id)
      return found ? HttpResponse.json(found) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 })
    }),
    http.get(providerUrl('/products/'), ({ request }) => {
      const ids = (new URL(request.url).searchParams.get('id__in') ?? '').split(',').map(Number)
      asked.push(new URL(request.url).search)
      return HttpResponse.json(page(products.filter((item) => ids.includes(item.id))))
    }),
  )
  return asked
}

type CartData = { cart: { lines: { product: { id: number; name: string }; quantity: number; total: string }[]; total: string | null; count: number; changed: boolean } }

describe('the cart page', () => {
  test('is empty without a cookie, and never asks the provider', async () => {
    const asked = catalogue()
    const result = await run(cartLoader, new Request('http://app.test/carrinho'))
    expect((result.data as CartData).cart).toMatchObject({ lines: [], total: null, count: 0 })
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(asked).toEqual([])
  })

  test('prices the cookie’s products from the catalogue in one call, in the page’s language', async () => {
    const asked = catalogue(product(8, { price_cents: 123456 }), product(2, { product_type: 'digital_material', price_cents: 4990 }))
    const cookie = await cartCookie([{ productId: 8, quantity: 1 }, { productId: 2, quantity: 1 }])
    const result = await run(cartLoader, getRequest('http://app.test/carrinho', cookie))
    const { cart } = result.data as CartData
    expect(asked).toEqual(['?id__in=8%2C2&page_size=2'])
    expect(cart.lines.map((line) => [line.product.id, line.total])).toEqual([
      [8, 'R$\u00a01.234,56'],
      [2, 'R$\u00a049,90'],
    ])
    expect(cart).toMatchObject({ total: 'R$\u00a01.284,46', count: 2, changed: false })
    const english = await run(cartLoader, getRequest('http://app.test/carrinho?lng=en', cookie))
    expect((english.data as CartData).cart.total).toBe('R$1,284.46')
  })

  test('drops what is no longer for sale and says the cart changed', async () => {
    catalogue(product(8))
    const cookie = await cartCookie([{ productId: 8, quantity: 1 }, { productId: 99, quantity: 1 }])
    const { cart } = (await run(cartLoader, getRequest('http://app.test/carrinho', cookie))).data as CartData
    expect(cart.lines.map((line) => line.product.id)).toEqual([8])
    expect(cart.changed).toBe(true)
  })

  test('a cart cookie written by hand (unsigned, or signed by someone else) is an empty cart', async () => {
    const asked = catalogue(product(8))
    const forged = `innera_cart=${encodeURIComponent(btoa(JSON.stringify(serializeCart({ lines: [{ productId: 8, quantity: 1 }] }))))}`
    const tampered = (await cartCookie([{ productId: 8, quantity: 1 }])).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))
    for (const cookie of [forged, tampered, 'innera_cart=' + 'x'.repeat(4000)]) {
      const result = await run(cartLoader, getRequest('http://app.test/carrinho', cookie))
      expect((result.data as CartData).cart.lines).toEqual([])
      const root = await run(rootLoader, getRequest('http://app.test/carrinho', cookie))
      expect((root.data as { cartCount: number }).cartCount).toBe(0)
    }
    expect(asked).toEqual([])
  })

  test('a provider that cannot be reached is the network page, not an empty cart', async () => {
    providerMock.use(http.get(providerUrl('/products/'), () => HttpResponse.error()))
    const cookie = await cartCookie([{ productId: 8, quantity: 1 }])
    const result = await run(cartLoader, getRequest('http://app.test/carrinho', cookie))
    expect(result.status).toBe(503)
  })
})

describe('changing the cart', () => {
  test('a visitor adds a product: the cookie holds it, the header counts it, and the post comes back with a toast', async () => {
    catalogue(product(8))
    const result = await run(cartAction, formRequest('http://app.test/carrinho', { intent: 'add', productId: '8', returnTo: '/produto/8' }))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/produto/8')
    const cookie = `innera_cart=${setCart(result.headers)}`
    expect(result.headers.getSetCookie().some((value) => value.startsWith('innera_toast='))).toBe(true)
    const root = await run(rootLoader, getRequest('http://app.test/produto/8', cookie))
    expect((root.data as { cartCount: number }).cartCount).toBe(1)
    // Twice is refused: a course is bought once. The cookie is not rewritten.
    const again = await run(cartAction, formRequest('http://app.test/carrinho', { intent: 'add', productId: '8', returnTo: '/solucoes?tipo=course' }, { Cookie: cookie }))
    expect(again.location).toBe('/solucoes?tipo=course')
    expect(setCart(again.headers)).toBeUndefined()
  })

  test('a visitor removes a line; the last one removes the cookie', async () => {
    catalogue(product(8))
    const cookie = await cartCookie([{ productId: 8, quantity: 1 }])
    const result = await run(cartAction, formRequest('http://app.test/carrinho', { intent: 'remove', productId: '8' }, { Cookie: cookie }))
    expect(result.location).toBe('/carrinho')
    expect(setCart(result.headers)).toBe('')
  })

  test('refused: an unknown product, a plan, a bad id, a 21st line, and a return address off the site', async () => {
    catalogue(product(8), product(14, { product_type: 'subscription', plan_interval: 'monthly', trial_days: 0 }))
    const full = await cartCookie(Array.from({ length: 20 }, (_, index) => ({ productId: 100 + index, quantity: 1 })))
    const cases: [Record<string, string>, string | undefined][] = [
      [{ intent: 'add', productId: '99', returnTo: '/solucoes' }, undefined],
      [{ intent: 'add', productId: '14', returnTo: '/solucoes' }, undefined],
      [{ intent: 'add', productId: '1.5', returnTo: '/solucoes' }, undefined],
      [{ intent: 'add', productId: '8\u0000', returnTo: '/solucoes' }, undefined],
      [{ intent: 'empty', productId: '8', returnTo: '/solucoes' }, undefined],
      [{ intent: 'add', productId: '8', returnTo: '/solucoes' }, full],
    ]
    for (const [fields, cookie] of cases) {
      const result = await run(cartAction, formRequest('http://app.test/carrinho', fields, cookie ? { Cookie: cookie } : {}))
      expect(result.status, JSON.stringify(fields)).toBe(303)
      expect(result.location, JSON.stringify(fields)).toBe('/solucoes')
      expect(setCart(result.headers), JSON.stringify(fields)).toBeUndefined()
    }
    const offSite = await run(cartAction, formRequest('http://app.test/carrinho', { intent: 'add', productId: '8', returnTo: '//evil.example/x' }))
    expect(offSite.location).toBe('/carrinho')
  })

  test('a member’s change is written to the account first; one the account refuses is not made', async () => {
    catalogue(product(8), product(2))
    const put: unknown[] = []
    providerMock.use(
      http.put(providerUrl('/cart/'), async ({ request }) => {
        put.push(await request.json())
        return HttpResponse.json({ items: [{ product_id: 8, quantity: 1 }], updated_at: '2026-11-26T12:00:00Z' })
      }),
    )
    const session = await signedIn(demoPatient, { checked: true })
    const result = await run(cartAction, formRequest('http://app.test/carrinho', { intent: 'add', productId: '8', returnTo: '/produto/8' }, { Cookie: session }))
    expect(put).toEqual([{ items: [{ product_id: 8, quantity: 1 }] }])
    expect(setCart(result.headers)).toBeTruthy()

    providerMock.use(http.put(providerUrl('/cart/'), () => HttpResponse.error()))
    const failed = await run(cartAction, formRequest('http://app.test/carrinho', { intent: 'add', productId: '2', returnTo: '/produto/2' }, { Cookie: session }))
    expect(failed.location).toBe('/produto/2')
    expect(setCart(failed.headers)).toBeUndefined()
  })
})

describe('signing in and out', () => {
  function loginAnswers() {
    providerMock.use(
      http.post(providerUrl('/authentication/custom-login/'), () =>
        HttpResponse.json({ access: fakeJwt(300), refresh: fakeJwt(86400), user_id: demoPatient.id, username: demoPatient.username, email: demoPatient.email, groups: demoPatient.groups, photo: null, first_name: 'Pedro', last_name: 'Paciente' }),
      ),
    )
  }
  const login = (cookie?: string) =>
    run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'paciente@innera.local', password: 'right-password', redirectTo: '/carrinho' }, cookie ? { Cookie: cookie } : {}))

  test('the visitor’s cart and the account’s become one, in the account and in the browser', async () => {
    loginAnswers()
    const put: unknown[] = []
    providerMock.use(
      http.get(providerUrl('/cart/'), () => HttpResponse.json({ items: [{ product_id: 5, quantity: 1 }, { product_id: 8, quantity: 1 }], updated_at: '2026-11-20T12:00:00Z' })),
      http.put(providerUrl('/cart/'), async ({ request }) => {
        const body = (await request.json()) as { items: unknown[] }
        put.push(body)
        return HttpResponse.json({ ...body, updated_at: '2026-11-26T12:00:00Z' })
      }),
    )
    const result = await login(await cartCookie([{ productId: 8, quantity: 1 }, { productId: 2, quantity: 1 }]))
    expect(result.location).toBe('/carrinho')
    expect(put).toEqual([{ items: [{ product_id: 5, quantity: 1 }, { product_id: 8, quantity: 1 }, { product_id: 2, quantity: 1 }] }])
    const root = await run(rootLoader, new Request('http://app.test/carrinho', { headers: { Cookie: `innera_cart=${setCart(result.headers)}` } }))
    expect((root.data as { cartCount: number }).cartCount).toBe(3)
  })

  test('an account’s cart comes to a browser without one, and nothing is written back', async () => {
    loginAnswers()
    let puts = 0
    providerMock.use(
      http.get(providerUrl('/cart/'), () => HttpResponse.json({ items: [{ product_id: 5, quantity: 1 }], updated_at: '2026-11-20T12:00:00Z' })),
      http.put(providerUrl('/cart/'), () => {
        puts += 1
        return HttpResponse.json({ items: [], updated_at: null })
      }),
    )
    const result = await login()
    expect(puts).toBe(0)
    expect(setCart(result.headers)).toBeTruthy()
  })

  test('a provider that fails at the merge does not stop the sign-in, and the browser keeps its cart', async () => {
    loginAnswers()
    providerMock.use(http.get(providerUrl('/cart/'), () => HttpResponse.json({ detail: 'boom' }, { status: 500 })))
    const result = await login(await cartCookie([{ productId: 8, quantity: 1 }]))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/carrinho')
    expect(setCart(result.headers)).toBeUndefined()
  })

  test('signing out removes the cart from the browser', async () => {
    providerMock.use(http.post(providerUrl('/authentication/token/blacklist/'), () => HttpResponse.json({})))
    const result = await run(logoutAction, new Request('http://app.test/logout', { method: 'POST', headers: { Cookie: await signedIn(demoPatient, { checked: true }) } }))
    expect(setCart(result.headers)).toBe('')
  })
})

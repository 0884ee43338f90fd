// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { type ComponentType } from 'react'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import CartPage, { action as cartAction, loader as cartLoader } from '#app/routes/carrinho/route.tsx'
import { action as purchaseAction } from '#app/routes/compras.$id.tsx'
import ProductPage, { action as productAction, loader as productLoader } from '#app/routes/produto.$id.tsx'
import { cartCookieHeader } from '#app/features/cart/cart-cookie.server.ts'
import { getToast } from '#app/utils/toast.server.ts'
import { monthlyPlanAnswer, productAnswer, productAs, productPage, subscriptionAnswer } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute, type ServerFunction } from '#tests/mocks/route-stub.ts'

/**
 * One open or paid purchase per buyer and course, material or program (issue 41, decision 0072),
 * as the app says it: the cart's checkout refused because a payment of some of its products is
 * still open names them and links that purchase; a product's page says so beforehand; a second
 * plan links the live one. The same reply re-renders the page without JavaScript (a plain post)
 * and with it (the form's fetch).
 */

const KEY = '3f0c8a55-4b1e-4f7a-9a57-0c6de1f2a901'
const withCart = async () => `${await signedIn(demoPatient, { checked: true })}; ${(await cartCookieHeader({ lines: [{ productId: 8, quantity: 1 }, { productId: 3, quantity: 1 }] })).split(';')[0]}`

const inCheckout = () =>
  http.post(providerUrl('/purchases/create/'), () =>
    HttpResponse.json(
      { detail: 'You already have a payment open for some of these products: finish it or cancel it on its page first.', code: 'already_in_checkout', purchase_id: 7, product_ids: [8] },
      { status: 409 },
    ),
  )

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function show(path: string, pattern: string, Component: ComponentType, loader: ServerFunction, action: ServerFunction, cookie: string) {
  return renderRoute(path, [{ path: pattern, Component, loader, action }], { cookie })
}

describe('the cart’s checkout, a payment of its products still open', () => {
  test('the reply names the products and the open purchase, in the page’s language; the cart stays', async () => {
    providerMock.use(inCheckout())
    const cookie = await withCart()
    const pt = await run(cartAction, formRequest('http://app.test/carrinho', { intent: 'checkout', method: 'card', idempotencyKey: KEY }, { Cookie: cookie }))
    expect(pt.status).toBe(409)
    expect(pt.data).toEqual({
      checkout: {
        method: 'card',
        error: 'Você já tem um pagamento em aberto com um ou mais produtos deste carrinho (marcados abaixo). Conclua esse pagamento ou cancele-o antes de comprar de novo: assim você nunca paga duas vezes pela mesma coisa.',
        inCheckout: [8],
        openPurchaseId: 7,
      },
    })
    expect(pt.headers.getSetCookie().some((value) => value.startsWith('innera_cart='))).toBe(false)
    const en = await run(cartAction, formRequest('http://app.test/carrinho?lng=en', { intent: 'checkout', method: 'pix', idempotencyKey: KEY }, { Cookie: cookie }))
    expect(en.data).toMatchObject({ checkout: { error: expect.stringMatching(/^You already have a payment open with one or more products in this cart/), openPurchaseId: 7 } })
    const es = await run(cartAction, formRequest('http://app.test/carrinho?lng=es', { intent: 'checkout', method: 'pix', idempotencyKey: KEY }, { Cookie: cookie }))
    expect(es.data).toMatchObject({ checkout: { error: expect.stringMatching(/^Ya tienes un pago abierto con uno o más productos de este carrito/), openPurchaseId: 7 } })
  })

  test('the page says it beside the payment form, links the open purchase and marks its product', async () => {
    providerMock.use(
      inCheckout(),
      http.get(providerUrl('/products/'), () => HttpResponse.json(productPage([productAnswer({ id: 8 }), productAnswer({ id: 3, slug: 'diario-do-sono', product_type: 'digital_material', name: { pt: 'Diário do sono', en: 'Sleep diary', es: 'Diario del sueño' }, price_cents: 4900 })]))),
    )
    await show('/carrinho', '/carrinho', CartPage, cartLoader, cartAction, await withCart())
    await userEvent.setup().click(await screen.findByRole('button', { name: /^Pagar/ }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Você já tem um pagamento em aberto com um ou mais produtos deste carrinho')
    expect(within(alert).getByRole('link', { name: 'Ver o pagamento em aberto (compra nº 7)' })).toHaveAttribute('href', '/compras/7')
    const lines = screen.getAllByRole('listitem')
    expect(lines.find((line) => line.textContent?.includes('Curso Sono reparador'))).toHaveTextContent('Este produto já está em um pagamento em aberto.')
    expect(lines.find((line) => line.textContent?.includes('Diário do sono'))).not.toHaveTextContent('pagamento em aberto')
  })
})

describe('the cart before checkout (issue 42)', () => {
  test('a course the patient has and a material another payment holds are marked with their purchases, and the cart is not offered for payment', async () => {
    const material = productAnswer({ id: 3, slug: 'diario-do-sono', product_type: 'digital_material', name: { pt: 'Diário do sono', en: 'Sleep diary', es: 'Diario del sueño' }, price_cents: 4900 })
    providerMock.use(
      http.get(providerUrl('/products/'), () => HttpResponse.json(productPage([productAnswer({ id: 8 }), material]))),
      http.get(providerUrl('/products/my-products/'), () =>
        HttpResponse.json(productPage([{ product: productAnswer({ id: 8 }), purchase_id: 12, kind: 'course', available_at: '2026-11-26T15:05:00.000Z', download_url: null, credits: null }])),
      ),
      http.get(providerUrl('/purchases/'), ({ request }) => {
        expect(new URL(request.url).searchParams.get('status')).toBe('pending')
        return HttpResponse.json(productPage([{ id: 7, status: 'pending', method: 'pix', total_cents: 4900, refunded_cents: 0, currency: 'BRL', items: [{ product_id: 3, product_type: 'digital_material', name: material.name, quantity: 1, unit_cents: 4900, line_cents: 4900 }], created_at: '2026-11-26T15:00:00.000Z', paid_at: null, checkout_url: null, checkout_expires_at: null, pix: null, failure: null }]))
      }),
    )
    await show('/carrinho', '/carrinho', CartPage, cartLoader, cartAction, await withCart())
    const owned = await screen.findByTestId('line-owned')
    expect(owned).toHaveTextContent('Você já tem este curso: tire-o do carrinho.')
    expect(within(owned).getByRole('link', { name: 'Ver a compra nº 12' })).toHaveAttribute('href', '/compras/12')
    const open = screen.getByTestId('line-in-checkout')
    expect(open).toHaveTextContent('Este produto já está em um pagamento em aberto.')
    expect(within(open).getByRole('link', { name: 'Ver a compra nº 7' })).toHaveAttribute('href', '/compras/7')
    expect(screen.getByTestId('cart-blocked')).toHaveTextContent('Antes de pagar, tire do carrinho o que está marcado')
    expect(screen.queryByRole('button', { name: /^Pagar/ })).toBeNull()
  })
})

describe('a purchase’s page', () => {
  test('a new PIX code refused because another purchase holds its products says so, not that the purchase changed', async () => {
    providerMock.use(http.post(providerUrl('/purchases/7/renew-pix/'), () => HttpResponse.json({ detail: 'x', code: 'already_in_checkout', purchase_id: 9, product_ids: [8] }, { status: 409 })))
    const renewed = await run(purchaseAction, formRequest('http://app.test/compras/7', { intent: 'renew' }, { Cookie: await signedIn(demoPatient, { checked: true }) }), { id: '7' })
    expect(renewed.location).toBe('/compras/7')
    const cookie = renewed.headers.getSetCookie().find((value) => value.startsWith('innera_toast='))!.split(';')[0]!
    expect((await getToast(getRequest('http://app.test/', cookie))).toast).toMatchObject({
      type: 'error',
      message: { text: 'Os produtos desta compra já estão em outra compra sua, paga ou aguardando pagamento: nenhum código novo foi gerado. Veja em Minhas compras.' },
    })
  })
})

describe('a product’s page', () => {
  test('a patient with a payment of the course still open is told so and linked to it, asked with the product (decision 0095)', async () => {
    const asked: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/products/9/'), (info) => {
        asked.push(info.request.headers.get('authorization'))
        return productAs(productAnswer(), { owned: false, open_purchase_id: 7 })(info)
      }),
    )
    const cookie = await signedIn(demoPatient, { checked: true })
    const loaded = await run(productLoader, getRequest('http://app.test/produto/9', cookie), { id: '9' })
    expect(loaded.data).toMatchObject({ owned: false, openPurchaseId: 7 })
    // One call, with the patient's token: no list of purchases asked (msw refuses any other request).
    expect(asked).toEqual([expect.stringMatching(/^Bearer /)])
    await show('/produto/9', '/produto/:id', ProductPage, productLoader, productAction, cookie)
    const notice = await screen.findByTestId('open-purchase')
    expect(notice).toHaveTextContent('Você tem um pagamento em aberto deste produto.')
    expect(within(notice).getByRole('link', { name: 'Continuar o pagamento (compra nº 7)' })).toHaveAttribute('href', '/compras/7')
  })

  test('a second plan beside the live one: why, and a link to that subscription', async () => {
    providerMock.use(
      http.get(providerUrl('/products/21/'), productAs(monthlyPlanAnswer)),
      // The page was drawn before the other plan was bought (in another tab): the provider refuses.
      http.get(providerUrl('/subscriptions/'), () => HttpResponse.json(productPage([], 0))),
      http.post(providerUrl('/subscriptions/create/'), () =>
        HttpResponse.json({ detail: 'You already have a plan.', code: 'another_plan_live', subscription_id: 5 }, { status: 409 }),
      ),
    )
    const cookie = await signedIn(demoPatient, { checked: true })
    const replied = await run(productAction, formRequest('http://app.test/produto/21', { intent: 'subscribe', method: 'pix', idempotencyKey: KEY }, { Cookie: cookie }), { id: '21' })
    expect(replied.status).toBe(409)
    expect(replied.data).toEqual({
      subscribe: {
        method: 'pix',
        error: 'Você já tem um plano, e todos os planos dão o mesmo acesso: um de cada vez. Para trocar de plano, cancele o seu na página dele; o novo pode ser assinado quando ele terminar.',
        subscriptionsLink: true,
        subscriptionId: 5,
      },
    })
    await show('/produto/21', '/produto/:id', ProductPage, productLoader, productAction, cookie)
    await userEvent.setup().click(await screen.findByRole('button', { name: /^Assinar/ }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Você já tem um plano, e todos os planos dão o mesmo acesso')
    expect(within(alert).getByRole('link', { name: 'Ver minha assinatura' })).toHaveAttribute('href', '/assinaturas/5')
  })
  test('a plan’s page says beforehand which plan the patient has, that this one adds nothing, and how to move to it', async () => {
    const yearly = { ...monthlyPlanAnswer, id: 22, slug: 'plano-anual', name: { pt: 'Plano anual', en: 'Yearly plan', es: 'Plan anual' }, price_cents: 89900, plan_interval: 'yearly' }
    let live = subscriptionAnswer()
    providerMock.use(
      http.get(providerUrl('/products/22/'), productAs(yearly)),
      http.get(providerUrl('/products/21/'), productAs(monthlyPlanAnswer)),
      http.get(providerUrl('/subscriptions/'), () => HttpResponse.json(productPage([subscriptionAnswer({ id: 2, status: 'ended', plan: { ...live.plan, id: 22 } }), live]))),
    )
    const cookie = await signedIn(demoPatient, { checked: true })
    await show('/produto/22', '/produto/:id', ProductPage, productLoader, productAction, cookie)
    const box = await screen.findByTestId('current-plan')
    expect(box).toHaveTextContent('Você já tem uma assinatura: Plano mensal, com acesso até 10 de dezembro de 2026.')
    expect(box).toHaveTextContent('este plano não acrescenta nada ao seu')
    expect(box).toHaveTextContent('cancele o seu no fim do período, na página dele: você usa o período pago até 10 de dezembro de 2026')
    expect(within(box).getByRole('link', { name: 'Ver minha assinatura' })).toHaveAttribute('href', '/assinaturas/5')
    expect(screen.queryByRole('button', { name: /^Assinar/ })).toBeNull()
    cleanup()

    // Set to end already: it says when this plan can follow. And the plan itself says it is the one the patient has.
    live = subscriptionAnswer({ cancel_at_period_end: true })
    await show('/produto/22', '/produto/:id', ProductPage, productLoader, productAction, cookie)
    expect(await screen.findByTestId('current-plan')).toHaveTextContent('O seu plano termina em 10 de dezembro de 2026: a partir daí, este plano pode ser assinado.')
    cleanup()
    await show('/produto/21', '/produto/:id', ProductPage, productLoader, productAction, cookie)
    expect(await screen.findByTestId('current-plan')).toHaveTextContent('Você já tem este plano, com acesso até 10 de dezembro de 2026.')
  })
})

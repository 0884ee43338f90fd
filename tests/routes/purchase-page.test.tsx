// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import PurchasePage, { action as purchaseAction, loader as purchaseLoader } from '#app/routes/compras.$id.tsx'
import { getToast } from '#app/utils/toast.server.ts'
import { courseAnswer, coursePage } from '#tests/mocks/courses.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'

/**
 * The purchase page as a buyer reads it (issue 42): how it is to be paid until it is paid, where
 * each paid item leads, a purchase replaced by another that holds its course, and the refund that
 * moves money only from its own confirmation step, without JavaScript (plain posts) as with it.
 */

const course = { product_id: 8, product_type: 'course', name: { pt: 'Curso Sono reparador', en: 'Restful sleep course', es: 'Curso Sueño reparador' }, quantity: 1, unit_cents: 19700, line_cents: 19700 }
const material = { product_id: 9, product_type: 'digital_material', name: { pt: 'Diário do sono (PDF)', en: 'Sleep diary (PDF)', es: 'Diario del sueño (PDF)' }, quantity: 1, unit_cents: 2990, line_cents: 2990 }

function purchase(overrides: Record<string, unknown> = {}) {
  return {
    id: 7,
    status: 'paid',
    method: 'card',
    total_cents: 22690,
    refunded_cents: 0,
    currency: 'BRL',
    items: [course, material],
    created_at: '2026-11-26T15:00:00.000Z',
    paid_at: '2026-11-26T15:05:00.000Z',
    checkout_url: null,
    checkout_expires_at: null,
    pix: null,
    failure: null,
    refund_quote: { refund_cents: 22690, reason: 'withdrawal', withdrawal_ends_at: '2026-12-04T03:00:00.000Z', deadline: { method: 'card', billing_cycles: 2, business_days: null, date: null } },
    can_cancel: true,
    can_renew_pix: false,
    ...overrides,
  }
}

const myCourses = () => http.get(providerUrl('/videos/courses/'), () => HttpResponse.json(coursePage([courseAnswer({ id: 3, product: { id: 8, price_cents: 19700, currency: 'BRL' } })])))

beforeEach(() => ignoreRouterFutureWarnings())
afterEach(() => cleanup())

async function show(path: string) {
  return renderRoute(path, [{ path: '/compras/:id', Component: PurchasePage, loader: purchaseLoader, action: purchaseAction }], { cookie: await signedIn(demoPatient, { checked: true }) })
}

describe('what the purchase page says', () => {
  test('unpaid: “Pagamento por …”, and nothing to open yet', async () => {
    providerMock.use(http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(purchase({ status: 'pending', paid_at: null, refund_quote: null, checkout_url: 'http://provider.test/pay/cs_1' }))))
    await show('/compras/7')
    expect(await screen.findByText('Pagamento por cartão de crédito')).toBeInTheDocument()
    expect(screen.queryByText('Pago com cartão de crédito')).toBeNull()
    expect(screen.queryByRole('link', { name: /Acessar o curso/ })).toBeNull()
  })

  test('paid: “Pago com …”, and each item leads to what it bought', async () => {
    providerMock.use(http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(purchase())), myCourses())
    await show('/compras/7')
    expect(await screen.findByText('Pago com cartão de crédito')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Acessar o curso: Curso Sono reparador' })).toHaveAttribute('href', '/cursos/3')
    expect(screen.getByRole('link', { name: 'Baixar o material: Diário do sono (PDF)' })).toHaveAttribute('href', '/meus-produtos/9/arquivo')
  })

  test('cancelled because another purchase holds the course: says so and links both', async () => {
    providerMock.use(
      http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(purchase({ status: 'cancelled', items: [course], paid_at: null, refund_quote: null, can_cancel: false, failure: { code: 'card_declined', message: null }, replaced_by_purchase_id: 12 }))),
      myCourses(),
    )
    await show('/compras/7')
    const note = await screen.findByTestId('replaced')
    expect(note).toHaveTextContent('Você já tem este curso, pela compra nº 12: esta foi cancelada, e nada foi cobrado por ela.')
    expect(within(note).getByRole('link', { name: 'Ver a compra nº 12' })).toHaveAttribute('href', '/compras/12')
    expect(screen.getByRole('link', { name: 'Acessar o curso' })).toHaveAttribute('href', '/cursos/3')
    // The old refusal is not the news any more.
    expect(screen.queryByText(/O cartão foi recusado/)).toBeNull()
  })
})

describe('a refund moves money only from its confirmation step', () => {
  test('the first button opens the step, which names the amount, where it goes back, by when and what is lost; the step’s button refunds', async () => {
    let cancelled = 0
    let state = purchase()
    providerMock.use(
      http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(state)),
      myCourses(),
      http.post(providerUrl('/purchases/7/cancel/'), () => {
        cancelled += 1
        state = purchase({ status: 'refunded', refunded_cents: 22690, refund_quote: null, can_cancel: false })
        return HttpResponse.json(state)
      }),
    )
    await show('/compras/7')
    await userEvent.click(await screen.findByRole('link', { name: 'Desistir e pedir o reembolso' }))
    const step = await screen.findByTestId('confirm-step')
    expect(cancelled).toBe(0)
    expect(within(step).getByRole('heading', { name: 'Confirme a desistência da compra nº 7' })).toBeInTheDocument()
    expect(step).toHaveTextContent('Você recebe de volta o valor integral: R$ 226,90.')
    expect(step).toHaveTextContent('O estorno aparece na fatura do cartão em até 2 ciclos de faturamento.')
    expect(step).toHaveTextContent('Você deixa de ter: Curso Sono reparador, Diário do sono (PDF).')
    expect(within(step).getByRole('link', { name: 'Não, manter a compra' })).toHaveAttribute('href', '/compras/7')
    await userEvent.click(within(step).getByRole('button', { name: /^Sim, pedir o reembolso de R\$\s226,90$/ }))
    expect(await screen.findByTestId('purchase-status')).toHaveTextContent('Compra reembolsada')
    expect(cancelled).toBe(1)
  })

  test('without JavaScript: a post without the step’s confirmation goes to the step and moves nothing; confirmed, the toast says what happened', async () => {
    let cancelled = 0
    providerMock.use(
      http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(purchase())),
      http.post(providerUrl('/purchases/7/cancel/'), () => {
        cancelled += 1
        return HttpResponse.json(purchase({ status: 'refunded', refunded_cents: 22690, refund_quote: null, can_cancel: false }))
      }),
    )
    const cookie = await signedIn(demoPatient, { checked: true })
    const unconfirmed = await run(purchaseAction, formRequest('http://app.test/compras/7', { intent: 'cancel' }, { Cookie: cookie }), { id: '7' })
    expect(unconfirmed.status).toBe(303)
    expect(unconfirmed.location).toBe('/compras/7?confirmar=cancelar#confirmar')
    expect(cancelled).toBe(0)

    const step = await run(purchaseLoader, getRequest('http://app.test/compras/7?confirmar=cancelar', cookie), { id: '7' })
    expect(step.data).toMatchObject({ page: { step: 'cancelar' } })

    const confirmed = await run(purchaseAction, formRequest('http://app.test/compras/7', { intent: 'cancel', confirmado: 'sim' }, { Cookie: cookie }), { id: '7' })
    expect(confirmed.location).toBe('/compras/7')
    expect(cancelled).toBe(1)
    const toast = await getToast(new Request('http://app.test/compras/7', { headers: { Cookie: confirmed.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ') } }))
    expect(toast.toast?.message).toEqual({ text: 'Reembolso de R$\u00a0226,90 pedido: volta ao seu cartão em até 2 faturas.' })
  })

  test('a PIX refund says by which day; an unpaid purchase, that nothing was charged', async () => {
    const pixQuote = { refund_cents: 19700, reason: 'withdrawal', withdrawal_ends_at: null, deadline: { method: 'pix', billing_cycles: null, business_days: 3, date: '2026-12-10' } }
    let answer = purchase({ method: 'pix', items: [course], total_cents: 19700, refund_quote: pixQuote })
    let after = purchase({ method: 'pix', items: [course], status: 'refunded', refunded_cents: 19700, refund_quote: null, can_cancel: false })
    providerMock.use(
      http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(answer)),
      http.post(providerUrl('/purchases/7/cancel/'), () => HttpResponse.json(after)),
    )
    const cookie = await signedIn(demoPatient, { checked: true })
    const toastOf = async (headers: Headers) => (await getToast(new Request('http://app.test/', { headers: { Cookie: headers.getSetCookie().map((value) => value.split(';')[0]).join('; ') } }))).toast?.message
    const pix = await run(purchaseAction, formRequest('http://app.test/compras/7', { intent: 'cancel', confirmado: 'sim' }, { Cookie: cookie }), { id: '7' })
    expect(await toastOf(pix.headers)).toEqual({ text: 'Reembolso de R$\u00a0197,00 pedido: volta por PIX à conta que pagou até 10 de dezembro de 2026.' })

    answer = purchase({ status: 'pending', method: 'pix', items: [course], paid_at: null, refund_quote: null })
    after = purchase({ status: 'cancelled', method: 'pix', items: [course], paid_at: null, refund_quote: null, can_cancel: false })
    const unpaid = await run(purchaseAction, formRequest('http://app.test/compras/7', { intent: 'cancel', confirmado: 'sim' }, { Cookie: cookie }), { id: '7' })
    expect(await toastOf(unpaid.headers)).toEqual({ text: 'Compra cancelada: nada foi cobrado.' })
  })
})

import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action as productAction, loader as productLoader } from '#app/routes/produto.$id.tsx'
import { action as subscriptionAction, loader as subscriptionLoader } from '#app/routes/assinaturas.$id.tsx'
import { loader as subscriptionsLoader } from '#app/routes/assinaturas._index.tsx'
import { monthlyPlanAnswer, productAs, subscriptionAnswer } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/** Subscribing to a plan and the subscription's pages (issue 24, decision 0052), against the provider's shapes. */

const KEY = '3f0c8a55-4b1e-4f7a-9a57-0c6de1f2a901'
const plan = monthlyPlanAnswer

const subscription = subscriptionAnswer

const productPage = async (cookie?: string) => run(productLoader, new Request('http://app.test/produto/21', { headers: cookie ? { Cookie: cookie } : {} }), { id: '21' })
const subscribe = async (fields: Record<string, string>, cookie?: string) => run(productAction, formRequest('http://app.test/produto/21', { intent: 'subscribe', ...fields }, { Cookie: cookie ?? (await signedIn(demoPatient, { checked: true })) }), { id: '21' })

describe('a plan’s page', () => {
  test('a patient gets the subscribe form with a fresh key; a visitor the way to sign in; a professional is told only patients subscribe', async () => {
    providerMock.use(http.get(providerUrl('/products/21/'), productAs(plan)))
    expect((await productPage(await signedIn(demoPatient, { checked: true }))).data).toMatchObject({ subscribe: { key: expect.stringMatching(/^[0-9a-f-]{36}$/), signedIn: true } })
    expect((await productPage()).data).toMatchObject({ subscribe: { key: null, signedIn: false } })
    expect((await productPage(await signedIn(demoProfessional, { checked: true }))).data).toMatchObject({ subscribe: { key: null, signedIn: true } })
  })

  test('PIX: the plan, method and key go to the provider, and the subscriber goes to the first code; a card to the payment page, coming back to the subscription', async () => {
    const sent: unknown[] = []
    providerMock.use(
      http.post(providerUrl('/subscriptions/create/'), async ({ request }) => {
        const body = (await request.json()) as { method: string }
        sent.push(body)
        return HttpResponse.json(
          body.method === 'pix' ? subscription({ status: 'incomplete', open_payment_id: 41 }) : subscription({ status: 'incomplete', checkout_url: 'http://stripe.test/c/pay/cs_9' }),
          { status: 201 },
        )
      }),
    )
    const pix = await subscribe({ method: 'pix', idempotencyKey: KEY })
    expect(pix.location).toBe('/compras/41')
    const card = await subscribe({ method: 'card', idempotencyKey: KEY })
    expect(card.location).toBe('http://stripe.test/c/pay/cs_9')
    expect(sent).toEqual([
      { product_id: 21, method: 'pix', idempotency_key: KEY },
      { product_id: 21, method: 'card', idempotency_key: KEY, success_url: 'http://localhost:3000/assinaturas/{SUBSCRIPTION_ID}', cancel_url: 'http://localhost:3000/assinaturas/{SUBSCRIPTION_ID}' },
    ])
  })

  test('a plan already held, the payment service away or a bad form: the page again with the method kept and why', async () => {
    providerMock.use(http.post(providerUrl('/subscriptions/create/'), () => HttpResponse.json({ detail: 'You already have this plan.', code: 'already_subscribed' }, { status: 409 })))
    const already = await subscribe({ method: 'card', idempotencyKey: KEY })
    expect(already.status).toBe(409)
    expect(already.data).toEqual({ subscribe: { method: 'card', error: 'Você já tem este plano.', subscriptionsLink: true } })
    providerMock.use(http.post(providerUrl('/subscriptions/create/'), () => HttpResponse.json({ detail: 'away', code: 'payment_provider_unavailable' }, { status: 503 })))
    expect((await subscribe({ method: 'pix', idempotencyKey: KEY })).data).toEqual({ subscribe: { method: 'pix', error: 'O serviço de pagamento não respondeu. Nada foi cobrado: tente de novo em alguns minutos.' } })
    expect((await subscribe({ method: 'boleto', idempotencyKey: 'not-a-key' })).status).toBe(400)
    // Only patients subscribe.
    expect((await subscribe({ method: 'pix', idempotencyKey: KEY }, await signedIn(demoProfessional, { checked: true }))).status).toBe(403)
  })
})

describe('my subscriptions', () => {
  test('the list and a subscription’s page: where it stands, its payments, and what cancelling does, said before', async () => {
    providerMock.use(
      http.get(providerUrl('/subscriptions/'), () => HttpResponse.json({ count: 1, next: null, previous: null, results: [subscription()] })),
      http.get(providerUrl('/subscriptions/5/'), () => HttpResponse.json(subscription())),
    )
    const list = await run(subscriptionsLoader, getRequest('http://app.test/assinaturas', await signedIn(demoPatient, { checked: true })))
    expect(list.headers.get('cache-control')).toBe('private, no-store')
    expect((list.data as { subscriptions: unknown[] }).subscriptions).toMatchObject([{ id: 5, plan: 'Plano mensal', status: 'active', price: 'R$\u00a089,90', periodEnds: '10 de dezembro de 2026' }])
    const page = await run(subscriptionLoader, getRequest('http://app.test/assinaturas/5?confirmar=cancelar', await signedIn(demoPatient, { checked: true })), { id: '5' })
    expect(page.data).toMatchObject({
      confirmCancel: true,
      subscription: { canCancel: true, canResume: false, payNextFrom: '3 de dezembro de 2026', cancellation: { withdrawal: false, accessEnds: '10 de dezembro de 2026' }, payments: [{ id: 40, total: 'R$\u00a089,90', period: { from: '10 de novembro de 2026', to: '10 de dezembro de 2026' } }] },
    })
    providerMock.use(http.get(providerUrl('/subscriptions/5/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    expect((await run(subscriptionLoader, getRequest('http://app.test/assinaturas/5', await signedIn(demoPatient, { checked: true })), { id: '5' })).status).toBe(404)
  })

  test('the buttons: cancel only from its step, says what happened; paying the next period goes to its code; a changed subscription is said', async () => {
    const act = async (intent: string, fields: Record<string, string> = {}) =>
      run(subscriptionAction, formRequest('http://app.test/assinaturas/5', { intent, ...fields }, { Cookie: await signedIn(demoPatient, { checked: true }) }), { id: '5' })
    const sent: unknown[] = []
    const withdrawable = subscription({ cancellation: { refund_cents: 8990, reason: 'refunds.reason.withdrawal', withdrawal: true, access_ends_at: null, deadline: { method: 'pix', billing_cycles: null, business_days: 3, date: '2026-11-17' } } })
    let after = subscription({ status: 'ended', ended_reason: 'withdrawn', ended_at: '2026-11-12T10:00:00.000Z' })
    providerMock.use(
      http.get(providerUrl('/subscriptions/5/'), () => HttpResponse.json(withdrawable)),
      http.post(providerUrl('/subscriptions/5/cancel/'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(after)
      }),
    )
    // Without the step's confirmation (an old page, a hand-made post): the step, nothing cancelled.
    const unconfirmed = await act('cancel')
    expect(unconfirmed.location).toBe('/assinaturas/5?confirmar=cancelar#confirmar')
    expect(sent).toEqual([])
    // Within the 7 days: the withdrawal, its refund said; or the period kept, until when.
    const withdrawn = await act('cancel', { at: 'now', confirmado: 'sim' })
    expect(withdrawn.location).toBe('/assinaturas/5')
    expect(await toastOf(withdrawn.headers)).toMatchObject({ type: 'success', message: { text: 'Assinatura encerrada. Reembolso de R$\u00a089,90 pedido: volta por PIX à conta que pagou até 17 de novembro de 2026.' } })
    after = subscription({ cancel_at_period_end: true })
    expect(await toastOf((await act('cancel', { at: 'period_end', confirmado: 'sim' })).headers)).toMatchObject({ message: { text: 'Assinatura cancelada: o acesso continua até 10 de dezembro de 2026 e nada mais será cobrado.' } })
    // After the 7 days only the period's end is asked for, whatever the form says.
    providerMock.use(http.get(providerUrl('/subscriptions/5/'), () => HttpResponse.json(subscription())))
    await act('cancel', { at: 'now', confirmado: 'sim' })
    expect(sent).toEqual([{ at: 'now' }, { at: 'period_end' }, { at: 'period_end' }])
    providerMock.use(http.post(providerUrl('/subscriptions/5/pay-next/'), () => HttpResponse.json(subscription({ open_payment_id: 42 }))))
    expect((await act('pay-next')).location).toBe('/compras/42')
    providerMock.use(http.post(providerUrl('/subscriptions/5/resume/'), () => HttpResponse.json({ detail: 'This subscription is ended.', code: 'not_resumable' }, { status: 409 })))
    expect(await toastOf((await act('resume')).headers)).toMatchObject({ type: 'error', message: { text: 'A situação desta assinatura mudou. Veja como ela está agora.' } })
    expect(await toastOf((await act('delete')).headers)).toMatchObject({ type: 'error' })
  })

  test('a refused renewal by card: the page says until when and offers another card; the button goes to the payment service’s page and comes back told', async () => {
    const pastDue = subscription({ status: 'past_due', method: 'card', pay_next_from: null, card_updatable: true, renewal_deadline: '2026-12-17T15:00:00.000Z' })
    const sent: unknown[] = []
    providerMock.use(
      http.get(providerUrl('/subscriptions/5/'), () => HttpResponse.json(pastDue)),
      http.post(providerUrl('/subscriptions/5/card/'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({ url: 'http://stripe.test/c/setup/cs_7', expires_at: '2026-12-11T15:00:00.000Z' }, { status: 201 })
      }),
    )
    const page = await run(subscriptionLoader, getRequest('http://app.test/assinaturas/5?cartao=salvo', await signedIn(demoPatient, { checked: true })), { id: '5' })
    expect(page.data).toMatchObject({ cardSaved: true, subscription: { canUpdateCard: true, renewalDeadline: '17 de dezembro de 2026', cardUpdated: '' } })
    const act = await run(subscriptionAction, formRequest('http://app.test/assinaturas/5', { intent: 'card' }, { Cookie: await signedIn(demoPatient, { checked: true }) }), { id: '5' })
    expect(act.location).toBe('http://stripe.test/c/setup/cs_7')
    expect(sent).toEqual([{ success_url: 'http://localhost:3000/assinaturas/5?cartao=salvo', cancel_url: 'http://localhost:3000/assinaturas/5' }])

    // The payment service away: back on the page, told nothing changed.
    providerMock.use(http.post(providerUrl('/subscriptions/5/card/'), () => HttpResponse.json({ detail: 'away', code: 'payment_provider_unavailable' }, { status: 503 })))
    const away = await run(subscriptionAction, formRequest('http://app.test/assinaturas/5', { intent: 'card' }, { Cookie: await signedIn(demoPatient, { checked: true }) }), { id: '5' })
    expect(away.location).toBe('/assinaturas/5')
    expect(await toastOf(away.headers)).toMatchObject({ type: 'error', message: { text: 'O serviço de pagamento não respondeu. Nada mudou: tente de novo em alguns minutos.' } })
    // A PIX subscription has no card: `?cartao=salvo` says nothing there.
    providerMock.use(http.get(providerUrl('/subscriptions/5/'), () => HttpResponse.json(subscription())))
    expect((await run(subscriptionLoader, getRequest('http://app.test/assinaturas/5?cartao=salvo', await signedIn(demoPatient, { checked: true })), { id: '5' })).data).toMatchObject({ cardSaved: false })
  })
})

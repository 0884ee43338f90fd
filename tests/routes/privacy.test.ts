import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { action as cookieConsentAction } from '#app/routes/resources.cookie-consent.ts'
import { loader as exportLoader } from '#app/routes/configuracoes_.privacidade_.exportar.ts'
import { action as privacyAction, loader as privacyLoader } from '#app/routes/configuracoes_.privacidade.tsx'
import { parseConsent } from '#app/utils/consent.ts'
import { consentRecord, consentsAnswer, deletionPlanAnswer, viewersAnswer } from '#tests/mocks/privacy.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoPatient, sessionFrom, signedIn } from '#tests/mocks/session.ts'

/** The privacy page, its forms and the export (decision 0060), against the provider's shapes. */

const cookie = () => signedIn(demoPatient, { checked: true })
const page = async () => getRequest('http://app.test/configuracoes/privacidade', await cookie())
const post = async (fields: Record<string, string>) => formRequest('http://app.test/configuracoes/privacidade', fields, { Cookie: await cookie() })

function providerAnswers() {
  providerMock.use(
    http.get(providerUrl('/users/me/consents/'), () => HttpResponse.json(consentsAnswer())),
    http.get(providerUrl('/users/me/shares/'), () => HttpResponse.json(viewersAnswer())),
    http.get(providerUrl('/users/me/deletion/'), () => HttpResponse.json(deletionPlanAnswer())),
  )
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the privacy page', () => {
  test('shows each consent with what can be done about it, who sees the results, and what a deletion removes and keeps; private', async () => {
    providerAnswers()
    const loaded = await run(privacyLoader, await page())
    expect(loaded.status).toBe(200)
    expect(loaded.headers.get('cache-control')).toBe('private, no-store')
    const { view } = loaded.data as { view: Record<string, unknown> }
    expect(view.documents).toEqual([
      { document: 'terms', state: 'granted', version: '1.0', text: expect.stringMatching(/^Aceito em .*18 de março de 2026.* \(versão 1\.0\)$/), outdatedBy: null, offers: [], categories: null },
      // Never recorded (an account older than the record): offered to accept the version shown.
      { document: 'privacy', state: 'none', version: '1.0', text: 'Nenhum registro', outdatedBy: null, offers: ['accept'], categories: null },
      { document: 'cookies', state: 'granted', version: '1.0', text: expect.stringMatching(/^Aceito em /), outdatedBy: null, offers: ['cookie-settings', 'withdraw'], categories: 'Preferências: sim · Análise: não · Marketing: não' },
      { document: 'marketing', state: 'granted', version: '1.0', text: expect.stringMatching(/^Aceito em /), outdatedBy: null, offers: ['withdraw'], categories: null },
    ])
    expect(view.history).toHaveLength(4)
    expect((view.history as string[])[1]).toMatch(/: Política de cookies, aceito \(versão 1\.0, no aviso de cookies\)$/)
    expect(view.sharing).toEqual([
      { id: 2, name: 'Paula Ribeiro', profession: 'Médica', results: '2 avaliações compartilhadas, a mais recente desde 2 de maio de 2026', careLink: 'Acompanha seu programa desde 10 de janeiro de 2026, quando você agendou uma consulta.' },
      { id: 3, name: 'Nina Costa', profession: 'Nutricionista', results: '1 avaliação compartilhada, a mais recente desde 3 de maio de 2026', careLink: null },
    ])
    expect(view.deletion).toMatchObject({
      requiresPassword: true,
      removed: [
        'Seu perfil: nome, e-mail, telefone, data de nascimento, bio',
        'Sua foto',
        'Suas avaliações e respostas',
        'Seus hábitos e registros',
        // Counted (decision 0086).
        'Os arquivos que você enviou nas mensagens (3); o texto das mensagens fica com a outra pessoa',
      ],
      appointments: 2,
      upcoming: [expect.stringMatching(/: reembolso integral$/), expect.stringMatching(/: sem reembolso \(menos de 24 horas de antecedência\)$/)],
      subscriptions: 1,
      // An item this app does not know is left out.
      kept: [
        'Registros de pagamento (compras e reembolsos), sem seus dados pessoais, pela legislação tributária: até 31 de dezembro de 2031',
        'O registro dos seus consentimentos, como prova: até 27 de novembro de 2031',
        'Registros técnicos (acessos e e-mails enviados): até 27 de novembro de 2027',
        'Consultas passadas e a conta, anonimizadas: ficam, pois não identificam mais você',
      ],
    })
    // Signed out: to sign in first, and back here afterwards.
    expect((await run(privacyLoader, new Request('http://app.test/configuracoes/privacidade'))).location).toBe('/auth?mode=login&redirectTo=%2Fconfiguracoes%2Fprivacidade')
  })

  test('a terms version newer than the one accepted is offered to accept', async () => {
    providerMock.use(
      http.get(providerUrl('/users/me/consents/'), () => HttpResponse.json(consentsAnswer({ current: { terms: consentRecord({ version: '0.9' }) } }))),
      http.get(providerUrl('/users/me/shares/'), () => HttpResponse.json([])),
      http.get(providerUrl('/users/me/deletion/'), () => HttpResponse.json(deletionPlanAnswer())),
    )
    const { view } = (await run(privacyLoader, await page())).data as { view: { documents: { document: string; outdatedBy: string | null; offers: string[] }[] } }
    expect(view.documents[0]).toMatchObject({ document: 'terms', outdatedBy: '1.0', offers: ['accept'] })
  })

  test('the provider away: the error page (the network one)', async () => {
    providerMock.use(http.get(providerUrl('/users/me/consents/'), () => HttpResponse.error()), http.get(providerUrl('/users/me/shares/'), () => HttpResponse.json([])), http.get(providerUrl('/users/me/deletion/'), () => HttpResponse.json(deletionPlanAnswer())))
    expect((await run(privacyLoader, await page())).status).toBe(503)
  })
})

describe('the consent forms', () => {
  test('record the version the app shows, from this page; withdrawing cookies also sets this browser to necessary only', async () => {
    const sent: unknown[] = []
    providerMock.use(
      http.post(providerUrl('/users/me/consents/'), async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>
        sent.push(body)
        return HttpResponse.json(consentRecord({ id: 9, ...body }), { status: 201 })
      }),
    )
    const withdrawn = await run(privacyAction, await post({ intent: 'consent', document: 'marketing', granted: 'false', version: '9.9' }))
    expect(withdrawn.location).toBe('/configuracoes/privacidade')
    expect(await toastOf(withdrawn.headers)).toMatchObject({ type: 'success', message: { key: 'privacy:consents.saved' } })
    const cookies = await run(privacyAction, await post({ intent: 'consent', document: 'cookies', granted: 'false' }))
    expect(parseConsent(cookies.headers.getSetCookie().map((value) => value.split(';')[0]).join('; '))).toMatchObject({ consented: true, preferences: false, analytics: false, marketing: false })
    await run(privacyAction, await post({ intent: 'consent', document: 'privacy', granted: 'true' }))
    expect(sent).toEqual([
      { document: 'marketing', version: '1.0', granted: false, source: 'settings' },
      { document: 'cookies', version: '1.0', granted: false, source: 'settings' },
      { document: 'privacy', version: '1.0', granted: true, source: 'settings' },
    ])
  })

  test('a refusal comes back on the page with its reason', async () => {
    providerMock.use(
      http.post(providerUrl('/users/me/consents/'), () =>
        HttpResponse.json({ detail: 'The terms and the privacy policy are what the account runs on: to withdraw them, delete the account.', code: 'withdraw_requires_deletion' }, { status: 409 }),
      ),
    )
    const refused = await run(privacyAction, await post({ intent: 'consent', document: 'terms', granted: 'false' }))
    expect(refused.status).toBe(400)
    expect(refused.data).toEqual({ intent: 'consent', error: 'Erro 409: The terms and the privacy policy are what the account runs on: to withdraw them, delete the account.' })
    expect((await run(privacyAction, await post({ intent: 'consent', document: 'ebook', granted: 'true' }))).status).toBe(400)
  })

  test('throttled (the provider limits records per user): a 429 with the wait, told in the page language', async () => {
    providerMock.use(
      http.post(providerUrl('/users/me/consents/'), () => HttpResponse.json({ detail: 'Request was throttled. Expected available in 1200 seconds.' }, { status: 429, headers: { 'Retry-After': '1200' } })),
    )
    const throttled = await run(privacyAction, await post({ intent: 'consent', document: 'marketing', granted: 'true' }))
    expect(throttled.status).toBe(429)
    expect(throttled.headers.get('retry-after')).toBe('1200')
    expect(throttled.data).toEqual({ intent: 'consent', error: expect.stringMatching(/^Muitas tentativas.* 20 minutos/) })
    const english = await run(privacyAction, formRequest('http://app.test/configuracoes/privacidade?lng=en', { intent: 'consent', document: 'marketing', granted: 'true' }, { Cookie: await cookie() }))
    expect(english.data).toEqual({ intent: 'consent', error: expect.stringMatching(/^Too many attempts.* 20 minutes/) })
  })

  test("revoking a professional's access: only from its confirmation step; once, and again (nothing left) is the same", async () => {
    const revoked: string[] = []
    let shared = viewersAnswer()
    providerMock.use(
      http.get(providerUrl('/users/me/shares/'), () => HttpResponse.json(shared)),
      http.delete(providerUrl('/users/me/shares/:id/'), ({ params }) => {
        revoked.push(String(params.id))
        shared = shared.filter((viewer) => viewer.professional.id !== Number(params.id))
        return revoked.length === 1 ? new HttpResponse(null, { status: 204 }) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 })
      }),
    )
    // Decision 0079: a post without the step's confirmation (an old page, no JavaScript) opens the step and revokes nothing.
    const unconfirmed = await run(privacyAction, await post({ intent: 'revoke-share', professional_id: '2' }))
    expect(unconfirmed.status).toBe(303)
    expect(unconfirmed.location).toBe('/configuracoes/privacidade?confirmar=revogar&profissional=2#confirmar')
    expect(revoked).toEqual([])
    const first = await run(privacyAction, await post({ intent: 'revoke-share', professional_id: '2', confirmado: 'sim' }))
    expect(first.location).toBe('/configuracoes/privacidade')
    expect(await toastOf(first.headers)).toMatchObject({ type: 'success', message: { key: 'privacy:sharing.revokedFrom', values: { name: 'Paula Ribeiro' } } })
    const again = await run(privacyAction, await post({ intent: 'revoke-share', professional_id: '2', confirmado: 'sim' }))
    expect(await toastOf(again.headers)).toMatchObject({ type: 'success', message: { key: 'privacy:sharing.revoked' } })
    expect(revoked).toEqual(['2', '2'])
    expect((await run(privacyAction, await post({ intent: 'revoke-share', professional_id: 'abc' }))).status).toBe(400)
  })
})

describe('deleting the account', () => {
  test('needs the confirmation ticked; the password is never sent back', async () => {
    const answer = await run(privacyAction, await post({ intent: 'delete', password: 'segredo' }))
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ intent: 'delete', result: { error: { confirm: ['privacy:delete.confirmRequired'] } } })
    expect(JSON.stringify(answer.data)).not.toContain('segredo')
  })

  test('a wrong password comes back on its field, translated, the confirmation kept', async () => {
    providerMock.use(http.post(providerUrl('/users/me/deletion/'), () => HttpResponse.json({ password: ['Wrong password.'] }, { status: 400 })))
    const answer = await run(privacyAction, await post({ intent: 'delete', password: 'errada', confirm: 'on' }))
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ intent: 'delete', result: { error: { password: ['Senha incorreta.'] }, initialValue: { confirm: 'on' } } })
    expect(JSON.stringify(answer.data)).not.toContain('errada')
  })

  test('no password where the account has one: the provider’s refusal said in the page’s language', async () => {
    providerMock.use(http.post(providerUrl('/users/me/deletion/'), () => HttpResponse.json({ password: ['This field is required.'] }, { status: 400 })))
    const answer = await run(privacyAction, await post({ intent: 'delete', confirm: 'on' }))
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ intent: 'delete', result: { error: { password: ['Este campo é obrigatório'] } } })
  })

  test('the only active admin: told to give the role away first, nothing signed out', async () => {
    providerMock.use(http.post(providerUrl('/users/me/deletion/'), () => HttpResponse.json({ detail: 'You are the only active administrator.', code: 'last_admin' }, { status: 409 })))
    const answer = await run(privacyAction, await post({ intent: 'delete', password: 'innera-demo-2025', confirm: 'on' }))
    expect(answer.data).toMatchObject({ result: { error: { '': ['Você é a única pessoa administradora ativa: dê o papel de admin a outra conta antes de excluir a sua.'] } } })
    expect(await sessionFrom(answer)).toBeUndefined()
  })

  test('the provider away: said on the form, nothing signed out', async () => {
    providerMock.use(http.post(providerUrl('/users/me/deletion/'), () => HttpResponse.error()))
    const answer = await run(privacyAction, await post({ intent: 'delete', password: 'innera-demo-2025', confirm: 'on' }))
    expect(answer.status).toBe(400)
    expect(answer.data).toMatchObject({ result: { error: { '': ['Erro de conexão. Verifique sua internet e configurações.'] } } })
    expect(await sessionFrom(answer)).toBeUndefined()
  })

  test('done: the session ends here too, the cart is forgotten, and the user lands on the home page, told', async () => {
    const sent: unknown[] = []
    providerMock.use(
      http.post(providerUrl('/users/me/deletion/'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({ detail: 'Your account has been deleted.' })
      }),
    )
    const answer = await run(privacyAction, await post({ intent: 'delete', password: 'innera-demo-2025', confirm: 'on' }))
    expect(sent).toEqual([{ confirm: true, password: 'innera-demo-2025' }])
    expect(answer.status).toBe(303)
    expect(answer.location).toBe('/')
    expect(await toastOf(answer.headers)).toMatchObject({ type: 'success', message: { key: 'privacy:delete.done' } })
    expect((await sessionFrom(answer))?.cleared).toBe(true)
    expect(answer.headers.getSetCookie().some((value) => value.startsWith('innera_cart='))).toBe(true)
  })
})

describe('the export', () => {
  test("passes the provider's ZIP through as it streams, private; the language of the page asked for", async () => {
    const chunks = [Buffer.from('PK\x03\x04first'), Buffer.from('second'), Buffer.from('PK\x05\x06end')]
    const asked: string[] = []
    providerMock.use(
      http.get(providerUrl('/users/me/export/'), ({ request }) => {
        asked.push(new URL(request.url).search)
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk))
            controller.close()
          },
        })
        return new HttpResponse(body, { headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="innera-dados-2026-11-27.zip"', 'Cache-Control': 'private, no-store' } })
      }),
    )
    const request = getRequest('http://app.test/configuracoes/privacidade/exportar?lng=en', await cookie())
    const answer = await exportLoader({ request, params: {}, context: {} })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/zip')
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="innera-dados-2026-11-27.zip"')
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    expect(answer.body).toBeInstanceOf(ReadableStream)
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(Buffer.concat(chunks))
    expect(asked).toEqual(['?lang=en'])
  })

  test('refused (throttled) or the provider away: back to the page, told why', async () => {
    providerMock.use(http.get(providerUrl('/users/me/export/'), () => HttpResponse.json({ detail: 'Request was throttled. Expected available in 3000 seconds.' }, { status: 429, headers: { 'Retry-After': '3000' } })))
    const throttled = await run(exportLoader, getRequest('http://app.test/configuracoes/privacidade/exportar', await cookie()))
    expect(throttled.location).toBe('/configuracoes/privacidade')
    expect(await toastOf(throttled.headers)).toMatchObject({ type: 'error', message: { text: expect.stringMatching(/^Muitas tentativas/) } })
    providerMock.use(http.get(providerUrl('/users/me/export/'), () => HttpResponse.error()))
    const away = await run(exportLoader, getRequest('http://app.test/configuracoes/privacidade/exportar', await cookie()))
    expect(away.location).toBe('/configuracoes/privacidade')
  })
})

describe('the cookie banner of a signed-in user', () => {
  test('records the choice at the provider (from the banner), without waiting for it', async () => {
    const sent: unknown[] = []
    providerMock.use(
      http.post(providerUrl('/users/me/consents/'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(consentRecord({ document: 'cookies' }), { status: 201 })
      }),
    )
    const answer = await run(cookieConsentAction, formRequest('http://app.test/resources/cookie-consent', { intent: 'custom', analytics: 'on', redirectTo: '/' }, { Cookie: await cookie() }))
    expect(answer.status).toBe(303)
    await vi.waitFor(() => expect(sent).toEqual([{ document: 'cookies', version: '1.0', granted: true, source: 'cookie-banner', categories: { preferences: false, analytics: true, marketing: false } }]))
    // Closing the banner is no choice: nothing is recorded.
    await run(cookieConsentAction, formRequest('http://app.test/resources/cookie-consent', { intent: 'close', redirectTo: '/' }, { Cookie: await cookie() }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sent).toHaveLength(1)
  })

  test('the provider failing never breaks the banner', async () => {
    let calls = 0
    providerMock.use(
      http.post(providerUrl('/users/me/consents/'), () => {
        calls += 1
        return HttpResponse.json({ detail: 'A server error occurred.' }, { status: 500 })
      }),
    )
    const answer = await run(cookieConsentAction, formRequest('http://app.test/resources/cookie-consent', { intent: 'all', redirectTo: '/sobre' }, { Cookie: await cookie() }))
    expect(answer.status).toBe(303)
    expect(answer.location).toBe('/sobre')
    expect(parseConsent(answer.headers.getSetCookie().map((value) => value.split(';')[0]).join('; '))).toMatchObject({ consented: true, analytics: true })
    await vi.waitFor(() => expect(calls).toBe(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
  })
})

import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action as authAction, loader as authLoader } from '#app/routes/auth.tsx'
import { action as resetAction } from '#app/routes/auth_.reset.$uid.$token.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, fakeJwt, sessionFrom, signedIn } from '#tests/mocks/session.ts'

function loginAnswers(user = demoPatient) {
  providerMock.use(
    http.post(providerUrl('/authentication/custom-login/'), async ({ request }) => {
      const body = (await request.json()) as { email: string; password: string }
      if (body.password !== 'right-password') {
        return HttpResponse.json({ detail: 'No active account found with the given credentials' }, { status: 401 })
      }
      return HttpResponse.json({ access: fakeJwt(300), refresh: fakeJwt(86400), user_id: user.id, username: user.username, email: user.email, groups: user.groups, photo: null, first_name: user.first_name, last_name: user.last_name })
    }),
  )
}

type Reply = { mode: string; result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } }

describe('login', () => {
  test('a patient lands on /dashboard with the tokens in the session cookie', async () => {
    loginAnswers()
    const result = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'paciente@innera.local', password: 'right-password' }))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/dashboard')
    const session = await sessionFrom(result)
    expect(session?.refresh).toBeDefined()
    expect(session?.user?.email).toBe('paciente@innera.local')
  })

  test('an admin lands on /admin/dashboard; a safe redirectTo wins, an unsafe one is ignored', async () => {
    loginAnswers(demoAdmin)
    const admin = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'admin@innera.local', password: 'right-password' }))
    expect(admin.location).toBe('/admin/dashboard')
    const back = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'admin@innera.local', password: 'right-password', redirectTo: '/perfil' }))
    expect(back.location).toBe('/perfil')
    const evil = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'admin@innera.local', password: 'right-password', redirectTo: '//evil.example' }))
    expect(evil.location).toBe('/admin/dashboard')
  })

  test('a wrong password says so in the user language and keeps the e-mail, never the password', async () => {
    loginAnswers()
    const en = await run(authAction, formRequest('http://app.test/auth?mode=login&lng=en', { email: 'paciente@innera.local', password: 'wrong' }, { 'Accept-Language': 'en' }))
    expect(en.status).toBe(400)
    const reply = en.data as Reply
    expect(reply.result.error?.['']).toEqual(['Login failed. Please check your credentials.'])
    expect(reply.result.initialValue).toMatchObject({ email: 'paciente@innera.local' })
    expect(reply.result.initialValue?.password).toBeUndefined()

    const pt = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'paciente@innera.local', password: 'wrong' }))
    expect((pt.data as Reply).result.error?.['']).toEqual(['Falha no login. Verifique suas credenciais.'])
  })

  test('missing fields are refused before the provider is asked', async () => {
    const result = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'not-an-email' }))
    expect(result.status).toBe(400)
    expect((result.data as Reply).result.error).toMatchObject({ email: ['errors.invalidEmail'], password: ['errors.required'] })
  })

  test('the provider being down is the network message, and the e-mail is kept', async () => {
    providerMock.use(http.post(providerUrl('/authentication/custom-login/'), () => HttpResponse.error()))
    const result = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'paciente@innera.local', password: 'x' }))
    const reply = result.data as Reply
    expect(reply.result.error?.['']).toEqual(['Erro de conexão. Verifique sua internet e configurações.'])
    expect(reply.result.initialValue).toMatchObject({ email: 'paciente@innera.local' })
  })

  test('throttling stays a 429 with the wait, and says when to try again', async () => {
    providerMock.use(http.post(providerUrl('/authentication/custom-login/'), () => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'Retry-After': '42' } })))
    const result = await run(authAction, formRequest('http://app.test/auth?mode=login', { email: 'paciente@innera.local', password: 'x' }))
    expect(result.status).toBe(429)
    expect(result.headers.get('Retry-After')).toBe('42')
    expect((result.data as Reply).result.error?.['']).toEqual(['Muitas tentativas. Tente novamente em 42 segundos.'])
    expect((result.data as Reply).result.initialValue).toMatchObject({ email: 'paciente@innera.local' })
  })

  test("a long wait is said in minutes, in the user's language", async () => {
    providerMock.use(http.post(providerUrl('/authentication/custom-login/'), () => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'Retry-After': '600' } })))
    const result = await run(authAction, formRequest('http://app.test/auth?mode=login&lng=en', { email: 'paciente@innera.local', password: 'x' }))
    expect(result.status).toBe(429)
    expect((result.data as Reply).result.error?.['']).toEqual(['Too many attempts. Try again in 10 minutes.'])
  })

  test('a signed-in visitor of the login page goes to the default route', async () => {
    providerMock.use(http.get(providerUrl('/users/me/'), () => HttpResponse.json(demoPatient)))
    const cookie = await signedIn(demoPatient)
    const result = await run(authLoader, getRequest('http://app.test/auth?mode=login', cookie))
    expect(result.location).toBe('/dashboard')
  })
})

describe('register', () => {
  const good = { username: 'ana.s', name: 'Ana Souza', email: 'ana@example.com', password: 'longenough1', confirmPassword: 'longenough1', acceptTerms: 'on' }

  test('creates the account and sends the user to sign in, never signing in by itself', async () => {
    let registered: unknown
    providerMock.use(
      http.post(providerUrl('/users/register/'), async ({ request }) => {
        registered = await request.json()
        return HttpResponse.json({ detail: 'Account created. We have sent you an e-mail to confirm your address.' }, { status: 201 })
      }),
      http.post(providerUrl('/authentication/custom-login/'), () => {
        throw new Error('registration must not sign in: that would tell a new address from a known one')
      }),
    )
    const result = await run(authAction, formRequest('http://app.test/auth?mode=register', { ...good, password: 'right-password', confirmPassword: 'right-password' }))
    expect(registered).toMatchObject({ email: 'ana@example.com', name: 'Ana Souza', username: 'ana.s', password: 'right-password' })
    expect(result.location).toBe('/auth?mode=login')
    expect(result.headers.get('Set-Cookie') ?? '').not.toMatch(/__session=[^;]/)
  })

  test('provider field errors land on their fields and the typed values stay (passwords excepted)', async () => {
    providerMock.use(http.post(providerUrl('/users/register/'), () => HttpResponse.json({ email: ['A user with this email already exists.'] }, { status: 400 })))
    const result = await run(authAction, formRequest('http://app.test/auth?mode=register', good))
    const reply = result.data as Reply
    expect(reply.result.error?.email).toEqual(['A user with this email already exists.'])
    expect(reply.result.initialValue).toMatchObject({ username: 'ana.s', name: 'Ana Souza', email: 'ana@example.com' })
    expect(reply.result.initialValue?.password).toBeUndefined()
  })

  test("the provider's password verdict is shown in the user's language", async () => {
    providerMock.use(
      http.post(providerUrl('/users/register/'), () =>
        HttpResponse.json({ password: ['This password is too easy to guess. Use a longer phrase of uncommon words.'] }, { status: 400 }),
      ),
    )
    const result = await run(authAction, formRequest('http://app.test/auth?mode=register', good))
    expect((result.data as Reply).result.error?.password).toEqual(['Essa senha é fácil de adivinhar. Use uma frase mais longa, com palavras pouco comuns.'])
  })

  test('a name with a link never reaches the provider; the provider’s own verdict on a name is shown translated (issue 22)', async () => {
    let calls = 0
    providerMock.use(
      http.post(providerUrl('/users/register/'), () => {
        calls += 1
        return HttpResponse.json({ name: ['Enter a name with letters, spaces, apostrophes, hyphens and dots only.'] }, { status: 400 })
      }),
    )
    const refused = await run(authAction, formRequest('http://app.test/auth?mode=register', { ...good, name: 'Mariana https://evil.example/pix' }))
    expect(refused.status).toBe(400)
    expect((refused.data as Reply).result.error?.name).toEqual(['validation.personName'])
    expect((refused.data as Reply).result.initialValue).toMatchObject({ name: 'Mariana https://evil.example/pix' })
    expect(calls).toBe(0)
    const byProvider = await run(authAction, formRequest('http://app.test/auth?mode=register', good))
    expect((byProvider.data as Reply).result.error?.name).toEqual(['Use apenas letras, espaços, apóstrofos, hífens e pontos (sem links, números ou quebras de linha)'])
  })

  test('a bot filling the honeypot is refused', async () => {
    const result = await run(authAction, formRequest('http://app.test/auth?mode=register', { ...good, website: 'spam' }))
    expect(result.status).toBe(400)
  })
})

describe('password reset', () => {
  test('forgot answers the same whether the address exists or not', async () => {
    providerMock.use(http.post(providerUrl('/users/password-reset/'), () => HttpResponse.json({ detail: 'ok' })))
    const result = await run(authAction, formRequest('http://app.test/auth?mode=forgot', { email: 'nobody@example.com' }))
    expect(result.location).toBe('/auth?mode=login')
  })

  test('the new password is posted as new_password with the two path identifiers', async () => {
    let seen: { url: string; body: unknown } | undefined
    providerMock.use(
      http.post(providerUrl('/users/password-reset-confirm/:uid/:token/'), async ({ request }) => {
        seen = { url: request.url, body: await request.json() }
        return HttpResponse.json({ detail: 'ok' })
      }),
    )
    const result = await run(resetAction, formRequest('http://app.test/auth/reset/MQ/abc-def', { password: 'brand-new-pass', confirmPassword: 'brand-new-pass' }), { uid: 'MQ', token: 'abc-def' })
    expect(seen).toEqual({ url: providerUrl('/users/password-reset-confirm/MQ/abc-def/'), body: { new_password: 'brand-new-pass' } })
    expect(result.location).toBe('/auth?mode=login')
  })

  test('a dead link says so', async () => {
    providerMock.use(http.post(providerUrl('/users/password-reset-confirm/:uid/:token/'), () => HttpResponse.json({ detail: 'The reset link is invalid or has expired.' }, { status: 400 })))
    const result = await run(resetAction, formRequest('http://app.test/auth/reset/MQ/old', { password: 'brand-new-pass', confirmPassword: 'brand-new-pass' }), { uid: 'MQ', token: 'old' })
    expect((result.data as Reply).result.error?.['']).toEqual(['Este link é inválido ou expirou. Peça um novo.'])
  })
})

import { decodeJwt, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { fakeGoogleCodes } from '#server/db/schema.ts'
import { client, createMemoryDatabase, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const time = fakeClock()
let app: ProviderApp
let api: ReturnType<typeof client>

const CLIENT_ID = 'innera-dev-client'
const REDIRECT_URI = 'http://app.test/auth/google/callback'
const ISSUER = `${PUBLIC_URL}/fake-google`

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock })
  api = client(app)
})
afterAll(() => database.close())
beforeEach(async () => {
  await resetDatabase(database.db)
  time.set(Date.UTC(2025, 2, 18, 12, 0, 0))
})

const authorizeQuery = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid email profile', state: 'st-123', ...overrides })

async function chooseAccount(fields: Record<string, string>): Promise<URL> {
  const response = await app.request(`${ISSUER}/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...Object.fromEntries(authorizeQuery()), ...fields }),
  })
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location')!)
}

function exchange(code: string, overrides: Record<string, string> = {}) {
  return app.request(`${ISSUER}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: CLIENT_ID, client_secret: app.services.config.google.clientSecret!, ...overrides }),
  })
}

/** The whole browser dance: choose an account, exchange the code, return the token response. */
async function signInWithFakeGoogle(fields: Record<string, string>) {
  const redirect = await chooseAccount(fields)
  const response = await exchange(redirect.searchParams.get('code')!)
  expect(response.status).toBe(200)
  return (await response.json()) as { access_token: string; id_token: string; token_type: string; expires_in: number; scope: string }
}

describe('fake Google', () => {
  it('publishes an OpenID configuration and its keys', async () => {
    const discovery = await api.get('/fake-google/.well-known/openid-configuration')
    expect(discovery.json).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      userinfo_endpoint: `${ISSUER}/userinfo`,
      jwks_uri: `${ISSUER}/certs`,
    })
    const certs = await api.get('/fake-google/certs')
    expect(certs.json.keys).toHaveLength(1)
    expect(certs.json.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) })
    expect(certs.json.keys[0].d).toBeUndefined()
  })

  it('renders an accessible account chooser', async () => {
    const page = await api.get(`/fake-google/authorize?${authorizeQuery()}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('<html lang="en">')
    expect(page.text).toContain('<main>')
    expect(page.text).toContain('<h1>Choose an account</h1>')
    expect(page.text).toContain('Ana Souza (ana.souza@gmail.test)')
    expect(page.text).toContain('Bruno Lima (bruno.lima@gmail.test)')
    expect(page.text).toContain('Pedro Santos (paciente@innera.local)')
    expect(page.text).toContain('>Cancel</button>')
    expect(page.text).toContain('value="st-123"')
  })

  it('refuses unknown clients and bad redirect URIs on its own page', async () => {
    expect((await api.get(`/fake-google/authorize?${authorizeQuery({ client_id: 'someone-else' })}`)).status).toBe(400)
    expect((await api.get(`/fake-google/authorize?${authorizeQuery({ redirect_uri: 'javascript:alert(1)' })}`)).status).toBe(400)
    const unsupported = await api.get(`/fake-google/authorize?${authorizeQuery({ response_type: 'token' })}`)
    expect(new URL(unsupported.headers.get('location')!).searchParams.get('error')).toBe('unsupported_response_type')
  })

  it('redirects back with access_denied on cancel', async () => {
    const redirect = await chooseAccount({ decision: 'cancel' })
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI)
    expect(redirect.searchParams.get('error')).toBe('access_denied')
    expect(redirect.searchParams.get('state')).toBe('st-123')
  })

  it('issues a single-use code for an RS256 id_token and serves userinfo', async () => {
    const redirect = await chooseAccount({ account: 'ana.souza@gmail.test' })
    expect(redirect.searchParams.get('state')).toBe('st-123')
    const code = redirect.searchParams.get('code')!

    const response = await exchange(code)
    const tokens = await response.json()
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3599, scope: 'openid email profile' })
    expect(decodeJwt(tokens.id_token)).toMatchObject({
      iss: ISSUER,
      aud: CLIENT_ID,
      sub: '104920000000000000001',
      email: 'ana.souza@gmail.test',
      email_verified: true,
      name: 'Ana Souza',
    })

    const again = await exchange(code)
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' })

    const userinfo = await api.get('/fake-google/userinfo', { token: tokens.access_token })
    expect(userinfo.json).toMatchObject({ sub: '104920000000000000001', email: 'ana.souza@gmail.test', given_name: 'Ana', family_name: 'Souza' })
    expect((await api.get('/fake-google/userinfo', { token: tokens.id_token })).status).toBe(401)
    expect((await api.get('/fake-google/userinfo')).status).toBe(401)
  })

  it('refuses expired codes, a different redirect URI and a different client', async () => {
    const late = (await chooseAccount({ account: 'bruno.lima@gmail.test' })).searchParams.get('code')!
    time.advance(301)
    expect(await (await exchange(late)).json()).toMatchObject({ error: 'invalid_grant' })

    const moved = (await chooseAccount({ account: 'bruno.lima@gmail.test' })).searchParams.get('code')!
    expect((await exchange(moved, { redirect_uri: 'http://evil.test/cb' })).status).toBe(400)
    const stranger = (await chooseAccount({ account: 'bruno.lima@gmail.test' })).searchParams.get('code')!
    expect((await exchange(stranger, { client_id: 'other' })).status).toBe(401)
    // Client credentials in a Basic header with a malformed percent-escape: no client, not a 500.
    const garbled = await app.request(`${ISSUER}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('%E0%A4%A:secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: stranger, redirect_uri: REDIRECT_URI }),
    })
    expect(garbled.status).toBe(401)
    expect((await exchange(stranger, { grant_type: 'password' })).status).toBe(400)
  })

  it("refuses a wrong or missing client secret as Google does (401 invalid_client), in the form or a Basic header; this install's own opens it", async () => {
    const secret = app.services.config.google.clientSecret!
    expect(secret).toMatch(/^GOCSPX-[A-Za-z0-9]{48}$/)
    const code = (await chooseAccount({ account: 'ana.souza@gmail.test' })).searchParams.get('code')!
    const basic = (id: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(password)}`).toString('base64')}` })
    const inHeader = (headers: Record<string, string>) =>
      app.request(`${ISSUER}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }),
      })
    for (const refused of [
      await exchange(code, { client_secret: 'any' }),
      await exchange(code, { client_secret: `${secret}x` }),
      await exchange(code, { client_secret: '' }),
      await inHeader(basic(CLIENT_ID, 'any')),
      await inHeader(basic(CLIENT_ID, '')),
    ]) {
      expect(refused.status).toBe(401)
      expect(await refused.json()).toEqual({ error: 'invalid_client', error_description: 'Unauthorized' })
    }
    // The refusals spent nothing: the code still works once, with the secret in either place.
    expect((await inHeader(basic(CLIENT_ID, secret))).status).toBe(200)
    expect((await exchange(code)).status).toBe(400)
    const another = (await chooseAccount({ account: 'ana.souza@gmail.test' })).searchParams.get('code')!
    expect((await exchange(another)).status).toBe(200)
  })

  it('reads its forms with the checked body reader: NULs, too many fields and oversized bodies are refused', async () => {
    const post = (path: string, body: string, contentType = 'application/x-www-form-urlencoded') =>
      app.request(`${ISSUER}/${path}`, { method: 'POST', headers: { 'content-type': contentType }, body })
    const form = (fields: Record<string, string>) => new URLSearchParams({ ...Object.fromEntries(authorizeQuery()), ...fields }).toString()

    // A NUL would reach PostgreSQL (the chosen e-mail is stored with the code) and fail there.
    for (const response of [
      await post('authorize', form({ email: 'nul\u0000@example.com' })),
      await post('authorize', `${form({})}&email=a%00%40example.com`),
      await post('authorize', JSON.stringify({ ...Object.fromEntries(authorizeQuery()), email: 'a\u0000@example.com' }), 'application/json'),
      await post('token', `grant_type=authorization_code&client_id=${CLIENT_ID}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&code=4%2Fx%00y`),
    ]) {
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ detail: 'Null characters are not allowed.' })
    }

    const tooMany = await post('token', Array.from({ length: 1001 }, (_, index) => `f${index}=x`).join('&'))
    expect(tooMany.status).toBe(400)
    expect(await tooMany.json()).toEqual({ detail: 'Too many fields: at most 1000 are allowed.' })

    const oversized = await post('authorize', `${form({ email: 'big@example.com' })}&name=${'x'.repeat(5 * 1024 * 1024)}`)
    expect(oversized.status).toBe(413)
    expect(await oversized.json()).toEqual({ detail: 'Request body is too large.' })

    // Nothing was stored, and the same form without the NUL still goes through.
    expect(await database.db.select().from(fakeGoogleCodes)).toEqual([])
    expect((await chooseAccount({ email: 'nul@example.com' })).searchParams.get('code')).toMatch(/^4\//)
  })
})

describe('POST /auth/google/', () => {
  it('creates a paciente on first sign-in and logs the same user in afterwards', async () => {
    const { id_token } = await signInWithFakeGoogle({ account: 'ana.souza@gmail.test' })
    const first = await api.post('/auth/google/', { token: id_token })
    expect(first.status).toBe(200)
    expect(first.json).toEqual({
      success: true,
      tokens: { access: expect.any(String), refresh: expect.any(String) },
      user: { id: 8, email: 'ana.souza@gmail.test', username: 'ana.souza', first_name: 'Ana', last_name: 'Souza', groups: ['paciente'], time_zone: 'America/Sao_Paulo' },
      message: expect.any(String),
      is_new_user: true,
    })
    const me = await api.get('/users/me/', { token: first.json.tokens.access })
    expect(me.json).toMatchObject({ id: 8, groups: ['paciente'] })

    const second = await api.post('/auth/google/', { token: (await signInWithFakeGoogle({ account: 'ana.souza@gmail.test' })).id_token })
    expect(second.json).toMatchObject({ success: true, is_new_user: false, user: { id: 8 } })

    // A Google-only account has no password to log in with.
    const passwordLogin = await api.post('/authentication/custom-login/', { email: 'ana.souza@gmail.test', password: '' })
    expect(passwordLogin.status).toBe(400)
  })

  it('signs up a typed-in account with a stable subject', async () => {
    const { id_token } = await signInWithFakeGoogle({ email: 'nova.pessoa@example.com', name: 'Nova Pessoa' })
    const response = await api.post('/auth/google/', { token: id_token })
    expect(response.json).toMatchObject({ is_new_user: true, user: { email: 'nova.pessoa@example.com', first_name: 'Nova', last_name: 'Pessoa' } })
  })

  it('takes Google’s names as far as they are names, without refusing the sign-up (issue 22)', async () => {
    const { id_token } = await signInWithFakeGoogle({ email: 'link.pessoa@example.com', name: 'Mariana https://evil.example/pix' })
    const response = await api.post('/auth/google/', { token: id_token })
    expect(response.json).toMatchObject({ is_new_user: true, user: { email: 'link.pessoa@example.com', first_name: 'Mariana', last_name: '' } })
  })

  it('refuses with 409 an e-mail that belongs to a password account', async () => {
    const { id_token } = await signInWithFakeGoogle({ account: 'paciente@innera.local' })
    const response = await api.post('/auth/google/', { token: id_token })
    expect(response.status).toBe(409)
    expect(response.json).toEqual({
      success: false,
      detail: 'Já existe uma conta com este email. Faça login normalmente.',
      display_message: 'Já existe uma conta com este email. Faça login normalmente.',
    })
  })

  it('refuses forged, expired and foreign tokens with 400', async () => {
    const { id_token } = await signInWithFakeGoogle({ account: 'bruno.lima@gmail.test' })
    const claims = decodeJwt(id_token)
    const { privateKey } = await generateKeyPair('RS256')
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'forged' }).sign(privateKey)
    const invalid = { success: false, detail: 'Invalid Google token' }
    expect(await api.post('/auth/google/', { token: forged })).toMatchObject({ status: 400, json: invalid })
    expect(await api.post('/auth/google/', { token: 'not-a-jwt' })).toMatchObject({ status: 400, json: invalid })

    time.advance(3600)
    expect(await api.post('/auth/google/', { token: id_token })).toMatchObject({ status: 400, json: invalid })
    expect((await api.post('/auth/google/', {})).json).toEqual({ token: ['This field is required.'] })
  })

  it('refuses a token issued for another client', async () => {
    const other = testApp(database.db, { clock: time.clock, env: { GOOGLE_CLIENT_ID: 'another-client' } })
    const { id_token } = await signInWithFakeGoogle({ account: 'bruno.lima@gmail.test' })
    const response = await other.request(`${PUBLIC_URL}/auth/google/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: id_token }),
    })
    expect(response.status).toBe(400)
  })
})

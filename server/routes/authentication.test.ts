import { decodeJwt, SignJWT } from 'jose'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import type { DatabaseHandle } from '#server/db/client.ts'
import { authSessions, users } from '#server/db/schema.ts'
import { createProviderApp } from '#server/app.ts'
import { client, createMemoryDatabase, fakeClock, resetDatabase, testApp, testConfig } from '#server/testing/harness.ts'

let database: DatabaseHandle
const time = fakeClock()
let api: ReturnType<typeof client>

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: time.clock }))
})
afterAll(() => database.close())
beforeEach(async () => {
  await resetDatabase(database.db)
  time.set(Date.UTC(2025, 2, 18, 12, 0, 0))
})

describe('POST /authentication/custom-login/', () => {
  it('returns tokens and the user object; the e-mail matches case-insensitively', async () => {
    const response = await api.post('/authentication/custom-login/', { email: '  PACIENTE@Innera.Local', password: 'innera-demo-2025' })
    expect(response.status).toBe(200)
    expect(Object.keys(response.json).sort()).toEqual(
      ['access', 'email', 'first_name', 'groups', 'last_name', 'photo', 'refresh', 'time_zone', 'user_id', 'username'].sort(),
    )
    expect(response.json).toMatchObject({
      username: 'paciente',
      email: 'paciente@innera.local',
      groups: ['paciente'],
      photo: null,
      first_name: 'Pedro',
      last_name: 'Santos',
    })
    expect(decodeJwt(response.json.access)).toMatchObject({ token_type: 'access', user_id: response.json.user_id, sid: expect.any(String) })
    expect(decodeJwt(response.json.refresh).sid).toBe(decodeJwt(response.json.access).sid)
  })

  it('refuses a wrong password or an unknown e-mail with the same 401', async () => {
    const wrong = await api.post('/authentication/custom-login/', { email: 'paciente@innera.local', password: 'nope-nope-nope' })
    const unknown = await api.post('/authentication/custom-login/', { email: 'ghost@innera.local', password: 'innera-demo-2025' })
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401)
      expect(response.json).toEqual({ detail: 'No active account found with the given credentials' })
    }
  })

  it('reports missing fields', async () => {
    const response = await api.post('/authentication/custom-login/', {})
    expect(response.status).toBe(400)
    expect(response.json).toEqual({ email: ['This field is required.'], password: ['This field is required.'] })
  })

  it('refuses deactivated accounts', async () => {
    await database.db.update(users).set({ isActive: false }).where(eq(users.email, 'paciente@innera.local'))
    const response = await api.post('/authentication/custom-login/', { email: 'paciente@innera.local', password: 'innera-demo-2025' })
    expect(response.status).toBe(401)
  })
})

describe('token lifetimes and refresh', () => {
  it('issues access tokens for 300 s and refresh tokens for a day', async () => {
    const { access, refresh } = await api.login('paciente@innera.local')
    const now = time.clock() / 1000
    expect(decodeJwt(access)).toMatchObject({ iat: now, exp: now + 300 })
    expect(decodeJwt(refresh)).toMatchObject({ token_type: 'refresh', exp: now + 86_400 })
  })

  it('accepts an access token until it expires', async () => {
    const { access } = await api.login('paciente@innera.local')
    time.advance(299)
    expect((await api.get('/users/me/', { token: access })).status).toBe(200)
    time.advance(2)
    const expired = await api.get('/users/me/', { token: access })
    expect(expired.status).toBe(401)
    expect(expired.json).toMatchObject({ detail: 'Given token not valid for any token type', code: 'token_not_valid' })
  })

  it('refreshes with {access} only and keeps the refresh token usable', async () => {
    const { refresh } = await api.login('paciente@innera.local')
    time.advance(600)
    const first = await api.post('/authentication/token/refresh/', { refresh })
    expect(first.status).toBe(200)
    expect(Object.keys(first.json)).toEqual(['access'])
    expect((await api.get('/users/me/', { token: first.json.access })).json.username).toBe('paciente')
    time.advance(600)
    const second = await api.post('/authentication/token/refresh/', { refresh })
    expect(second.status).toBe(200)
    expect(decodeJwt(second.json.access).exp).toBe(time.clock() / 1000 + 300)
  })

  it('refuses an expired, forged or access token as refresh', async () => {
    const { access, refresh } = await api.login('paciente@innera.local')
    const asAccess = await api.post('/authentication/token/refresh/', { refresh: access })
    expect(asAccess.status).toBe(401)
    expect(asAccess.json).toEqual({ detail: 'Token is invalid or expired', code: 'token_not_valid' })
    expect((await api.post('/authentication/token/refresh/', { refresh: `${refresh}x` })).status).toBe(401)
    time.advance(86_401)
    expect((await api.post('/authentication/token/refresh/', { refresh })).status).toBe(401)
    expect((await api.post('/authentication/token/refresh/', {})).json).toEqual({ refresh: ['This field is required.'] })
  })

  it('stops refreshing for a deactivated user', async () => {
    const { refresh } = await api.login('paciente@innera.local')
    await database.db.update(users).set({ isActive: false }).where(eq(users.email, 'paciente@innera.local'))
    const response = await api.post('/authentication/token/refresh/', { refresh })
    expect(response.status).toBe(401)
  })

  it('verifies tokens of either type', async () => {
    const { access, refresh } = await api.login('paciente@innera.local')
    expect(await api.post('/authentication/token/verify/', { token: access })).toMatchObject({ status: 200, json: {} })
    expect((await api.post('/authentication/token/verify/', { token: refresh })).status).toBe(200)
    const bad = await api.post('/authentication/token/verify/', { token: 'abc.def.ghi' })
    expect(bad.status).toBe(401)
    expect(bad.json).toEqual({ detail: 'Token is invalid or expired', code: 'token_not_valid' })
  })
})

// Issue 10, finding 2: logout must end the tokens, not only the cookie.
describe('POST /authentication/token/blacklist/ (logout)', () => {
  it('revokes the session: its refresh and access tokens stop working, other sessions go on', async () => {
    const session = await api.login('paciente@innera.local')
    const otherDevice = await api.login('paciente@innera.local')
    const renewed = (await api.post('/authentication/token/refresh/', { refresh: session.refresh })).json.access

    const logout = await api.post('/authentication/token/blacklist/', { refresh: session.refresh })
    expect(logout).toMatchObject({ status: 200, json: {} })

    const refresh = await api.post('/authentication/token/refresh/', { refresh: session.refresh })
    expect(refresh).toMatchObject({ status: 401, json: { detail: 'Token is invalid or expired', code: 'token_not_valid' } })
    for (const access of [session.access, renewed]) {
      const me = await api.get('/users/me/', { token: access })
      expect(me.status).toBe(401)
      expect(me.json).toMatchObject({ detail: 'Given token not valid for any token type', code: 'token_not_valid' })
    }
    expect((await api.post('/authentication/token/verify/', { token: session.access })).status).toBe(401)

    expect((await api.get('/users/me/', { token: otherDevice.access })).status).toBe(200)
    expect((await api.post('/authentication/token/refresh/', { refresh: otherDevice.refresh })).status).toBe(200)
  })

  it("ends the professional's home too, which reads the session with its own lookup", async () => {
    const session = await api.login('profissional@innera.local')
    expect((await api.get('/appointments/dashboard/', { token: session.access })).status).toBe(200)
    await api.post('/authentication/token/blacklist/', { refresh: session.refresh })
    expect(await api.get('/appointments/dashboard/', { token: session.access })).toMatchObject({ status: 401, json: { code: 'token_not_valid' } })
  })

  it('answers 401 token_not_valid for a revoked, malformed, expired, access or foreign token', async () => {
    const session = await api.login('paciente@innera.local')
    await api.post('/authentication/token/blacklist/', { refresh: session.refresh })
    const again = await api.post('/authentication/token/blacklist/', { refresh: session.refresh })
    expect(again).toMatchObject({ status: 401, json: { detail: 'Token is invalid or expired', code: 'token_not_valid' } })

    const live = await api.login('paciente@innera.local')
    expect((await api.post('/authentication/token/blacklist/', { refresh: live.access })).status).toBe(401)
    expect((await api.post('/authentication/token/blacklist/', { refresh: 'abc.def.ghi' })).status).toBe(401)
    const foreign = client(testApp(database.db, { clock: time.clock, env: { PROVIDER_JWT_SECRET: 'another-secret-another-secret-1234' } }))
    expect((await foreign.post('/authentication/token/blacklist/', { refresh: live.refresh })).status).toBe(401)
    expect((await api.post('/authentication/token/blacklist/', {})).json).toEqual({ refresh: ['This field is required.'] })
    time.advance(86_401)
    expect((await api.post('/authentication/token/blacklist/', { refresh: live.refresh })).status).toBe(401)
  })

  it('holds across provider processes sharing the database', async () => {
    const other = client(testApp(database.db, { clock: time.clock }))
    const session = await api.login('paciente@innera.local')
    expect((await other.get('/users/me/', { token: session.access })).status).toBe(200)
    expect((await other.post('/authentication/token/blacklist/', { refresh: session.refresh })).status).toBe(200)
    expect((await api.get('/users/me/', { token: session.access })).status).toBe(401)
    expect((await api.post('/authentication/token/refresh/', { refresh: session.refresh })).status).toBe(401)
  })

  it('refuses tokens issued before sessions existed (no sid claim)', async () => {
    const { user_id } = await api.login('paciente@innera.local')
    const key = new TextEncoder().encode(testConfig().jwtSecret)
    const now = time.clock() / 1000
    const legacy = (type: string) =>
      new SignJWT({ token_type: type, user_id }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now).setExpirationTime(now + 300).setJti('0123456789abcdef0123456789abcdef').sign(key)
    expect((await api.get('/users/me/', { token: await legacy('access') })).json.code).toBe('token_not_valid')
    expect((await api.post('/authentication/token/refresh/', { refresh: await legacy('refresh') })).json.code).toBe('token_not_valid')
  })

  it('refuses a token naming a session that does not exist', async () => {
    const session = await api.login('paciente@innera.local')
    await database.db.delete(authSessions)
    expect((await api.get('/users/me/', { token: session.access })).status).toBe(401)
    expect((await api.post('/authentication/token/refresh/', { refresh: session.refresh })).status).toBe(401)
  })
})

describe('bearer authentication', () => {
  it('asks for credentials when none are sent', async () => {
    const response = await api.get('/users/me/')
    expect(response.status).toBe(401)
    expect(response.json).toEqual({ detail: 'Authentication credentials were not provided.' })
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="api"')
  })

  it('treats other schemes as no credentials and a bare "Bearer" as malformed', async () => {
    const basic = await api.get('/users/me/', { headers: { authorization: 'Basic YTpi' } })
    expect(basic.json).toEqual({ detail: 'Authentication credentials were not provided.' })
    const bare = await api.get('/users/me/', { headers: { authorization: 'Bearer' } })
    expect(bare).toMatchObject({ status: 401, json: { detail: 'Authorization header must contain two space-delimited values' } })
  })

  it('refuses a refresh token used as a bearer token', async () => {
    const { refresh } = await api.login('paciente@innera.local')
    const response = await api.get('/users/me/', { token: refresh })
    expect(response.status).toBe(401)
    expect(response.json.code).toBe('token_not_valid')
  })

  it('refuses tokens of users deactivated after login', async () => {
    const { access } = await api.login('paciente@innera.local')
    await database.db.update(users).set({ isActive: false }).where(eq(users.email, 'paciente@innera.local'))
    const response = await api.get('/users/me/', { token: access })
    expect(response.status).toBe(401)
    expect(response.json).toEqual({ detail: 'User is inactive' })
  })
})

describe('throttling', () => {
  // The throttles read the wall clock (server/http/throttle.ts): Date follows the fake clock here.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(time.clock())
  })
  afterEach(() => vi.useRealTimers())
  const advance = (seconds: number) => vi.setSystemTime(time.advance(seconds))

  it('answers 429 with Retry-After after 10 login attempts for one e-mail in 5 minutes', async () => {
    const throttled = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0' } }))
    const attempt = (address: string) =>
      throttled.call('POST', '/authentication/custom-login/', {
        body: { email: 'paciente@innera.local', password: 'wrong-password' },
        headers: { 'x-forwarded-for': address },
      })
    for (let index = 0; index < 10; index += 1) expect((await attempt(`198.51.100.${index}`)).status).toBe(401)
    advance(60)
    const blocked = await attempt('198.51.100.99')
    expect(blocked.status).toBe(429)
    expect(blocked.json).toEqual({ detail: 'Request was throttled. Expected available in 240 seconds.' })
    expect(blocked.headers.get('retry-after')).toBe('240')
    advance(240)
    expect((await attempt('198.51.100.99')).status).toBe(401)
  })

  it('limits one address across e-mails', async () => {
    const throttled = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0', THROTTLE_LOGIN_PER_ADDRESS: '3/m' } }))
    const attempt = (email: string) =>
      throttled.call('POST', '/authentication/custom-login/', { body: { email, password: 'x' }, headers: { 'x-forwarded-for': '203.0.113.7' } })
    for (const email of ['a@x.test', 'b@x.test', 'c@x.test']) expect((await attempt(email)).status).toBe(401)
    const blocked = await attempt('d@x.test')
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toBe('60')
  })

  it('throttles password resets per e-mail (5 per hour)', async () => {
    const throttled = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0' } }))
    const reset = (address: string) =>
      throttled.call('POST', '/users/password-reset/', { body: { email: 'paciente@innera.local' }, headers: { 'x-forwarded-for': address } })
    for (let index = 0; index < 5; index += 1) expect((await reset(`192.0.2.${index}`)).status).toBe(200)
    const blocked = await reset('192.0.2.200')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBe(3600)
  })
})

describe('Django-like fallbacks', () => {
  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    expect(await api.get('/nothing-here/')).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    const wrongMethod = await api.get('/authentication/custom-login/')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.json).toEqual({ detail: 'Method "GET" not allowed.' })
    expect(wrongMethod.headers.get('allow')).toContain('POST')
  })

  it('answers OPTIONS with the allowed methods and HEAD like GET', async () => {
    const options = await api.call('OPTIONS', '/users/profile/update/')
    expect(options.status).toBe(200)
    expect(options.headers.get('allow')?.split(', ').sort()).toEqual(['OPTIONS', 'PATCH', 'PUT'])
    const head = await api.call('HEAD', '/pillars/')
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
  })

  it('redirects a GET missing its trailing slash, like APPEND_SLASH', async () => {
    const response = await api.get('/pillars?x=1')
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe('/pillars/?x=1')
  })

  it('reports malformed JSON and unsupported media types', async () => {
    const malformed = await api.call('POST', '/authentication/custom-login/', {
      headers: { 'content-type': 'application/json' },
      rawBody: '{"email": "paciente@innera.local",',
    })
    expect(malformed.status).toBe(400)
    expect(malformed.json.detail).toMatch(/^JSON parse error - /)
    const plain = await api.call('POST', '/authentication/custom-login/', { headers: { 'content-type': 'text/plain' }, rawBody: 'hi' })
    expect(plain).toMatchObject({ status: 415, json: { detail: 'Unsupported media type "text/plain" in request.' } })
  })

  it('hides unexpected failures behind a generic 500 and logs them', async () => {
    const { access } = await api.login('paciente@innera.local')
    const logged: unknown[] = []
    const failingDb = new Proxy({} as typeof database.db, {
      get: () => {
        throw new Error('database exploded')
      },
    })
    const broken = createProviderApp({ db: failingDb, config: testConfig(), clock: time.clock, log: (entry) => logged.push(entry) })
    const response = await broken.request('http://provider.test/users/me/', { headers: { authorization: `Bearer ${access}` } })
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ detail: 'A server error occurred.' })
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', msg: 'unhandled error', error: 'database exploded' }))
    const health = await broken.request('http://provider.test/healthz/')
    expect(health.status).toBe(503)
    expect(await health.json()).toEqual({ status: 'error', database: 'error' })
  })

  it('logs one line per request without secrets', async () => {
    const logged: Record<string, unknown>[] = []
    const app = createProviderApp({ db: database.db, config: testConfig(), clock: time.clock, log: (entry) => logged.push(entry) })
    await app.request('http://provider.test/authentication/custom-login/?email=x', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'paciente@innera.local', password: 'innera-demo-2025' }),
    })
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ level: 'info', msg: 'request', method: 'POST', path: '/authentication/custom-login/', status: 200 })
    expect(typeof logged[0]!.duration_ms).toBe('number')
    expect(typeof logged[0]!.request_id).toBe('string')
    expect(JSON.stringify(logged)).not.toMatch(/innera-demo-2025|eyJ|email=/)
  })

  it('tags every response with a request id', async () => {
    const response = await api.call('GET', '/pillars/', { headers: { 'x-request-id': 'abc-123' } })
    expect(response.headers.get('x-request-id')).toBe('abc-123')
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'
import type { ProviderApp } from '#server/app.ts'

let database: DatabaseHandle
const time = fakeClock()
let app: ProviderApp
let api: ReturnType<typeof client>
let token: string

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock })
  api = client(app)
})
afterAll(() => database.close())
beforeEach(async () => {
  await resetDatabase(database.db)
  token = (await api.login('paciente@innera.local')).access
})

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46])

function photoForm(bytes: Uint8Array<ArrayBuffer>, filename = 'me.png', fields: Record<string, string> = {}) {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) form.set(key, value)
  form.set('photo', new File([bytes], filename, { type: 'image/png' }))
  return form
}

describe('GET /users/me/', () => {
  it('returns the signed-in user object', async () => {
    const response = await api.get('/users/me/', { token })
    expect(response.json).toEqual({
      id: 4,
      username: 'paciente',
      email: 'paciente@innera.local',
      groups: ['paciente'],
      photo: null,
      first_name: 'Pedro',
      last_name: 'Santos',
      time_zone: 'America/Sao_Paulo',
    })
  })
})

describe('profile', () => {
  it('shows the full profile', async () => {
    const response = await api.get('/users/profile/', { token })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      id: 4,
      username: 'paciente',
      email: 'paciente@innera.local',
      first_name: 'Pedro',
      last_name: 'Santos',
      photo: null,
      phone: '',
      birth_date: null,
      bio: '',
      time_zone: 'America/Sao_Paulo',
      groups: ['paciente'],
      email_verified: true,
      date_joined: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    })
    expect((await api.get('/users/profile/')).status).toBe(401)
  })

  it('updates fields from JSON with PATCH and PUT', async () => {
    const patched = await api.patch('/users/profile/update/', { first_name: ' Pedro Henrique ', phone: '+55 (11) 98888-7777', birth_date: '1990-05-17' }, { token })
    expect(patched.status).toBe(200)
    expect(patched.json).toMatchObject({ first_name: 'Pedro Henrique', last_name: 'Santos', phone: '+55 (11) 98888-7777', birth_date: '1990-05-17' })
    const put = await api.call('PUT', '/users/profile/update/', { body: { bio: 'Corro às terças.', birth_date: null }, token })
    expect(put.json).toMatchObject({ first_name: 'Pedro Henrique', bio: 'Corro às terças.', birth_date: null })
  })

  it('sets the time zone (an IANA name or UTC), shown on /users/me/ and the profile', async () => {
    const updated = await api.patch('/users/profile/update/', { time_zone: 'Europe/Lisbon' }, { token })
    expect(updated).toMatchObject({ status: 200, json: { time_zone: 'Europe/Lisbon' } })
    expect((await api.get('/users/me/', { token })).json.time_zone).toBe('Europe/Lisbon')
    expect((await api.patch('/users/profile/update/', { time_zone: 'UTC' }, { token })).json.time_zone).toBe('UTC')
    for (const bad of ['Europe/Atlantis', 'GMT-3', '', 'x'.repeat(300)]) {
      const refused = await api.patch('/users/profile/update/', { time_zone: bad }, { token })
      expect(refused.status).toBe(400)
      expect(Object.keys(refused.json)).toEqual(['time_zone'])
    }
    expect((await api.patch('/users/profile/update/', { time_zone: 'Mars/Olympus' }, { token })).json).toEqual({ time_zone: ['Enter a valid time zone.'] })
    expect((await api.get('/users/profile/', { token })).json.time_zone).toBe('UTC')
    // docs/product.md §3's fields, plus the time zone the app shows times in from the first page on (decision 0023).
    expect(Object.keys(await api.login('paciente@innera.local'))).toContain('time_zone')
  })

  it('rejects invalid values with field errors', async () => {
    const response = await api.patch('/users/profile/update/', { birth_date: '17/05/1990', phone: 'call me', bio: 'x'.repeat(501) }, { token })
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      birth_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
      phone: ['Enter a valid phone number.'],
      bio: ['Ensure this field has no more than 500 characters.'],
    })
    const future = await api.patch('/users/profile/update/', { birth_date: '2999-01-01' }, { token })
    expect(future.json).toEqual({ birth_date: ['Birth date cannot be in the future.'] })
    // Issue 22, finding 9: names are letters, marks, spaces, apostrophes, hyphens and dots; blank is fine.
    const names = await api.patch('/users/profile/update/', { first_name: 'Mariana https://evil.example/pix', last_name: 'Alves\r\nBcc: x@evil.example' }, { token })
    expect(names).toMatchObject({
      status: 400,
      json: {
        first_name: ['Enter a name with letters, spaces, apostrophes, hyphens and dots only.'],
        last_name: ['Enter a name with letters, spaces, apostrophes, hyphens and dots only.'],
      },
    })
    expect((await api.patch('/users/profile/update/', { first_name: 'Pedro  Henrique', last_name: '' }, { token })).json).toMatchObject({ first_name: 'Pedro Henrique', last_name: '' })
    const ancient = await api.patch('/users/profile/update/', { birth_date: '0999-01-04' }, { token })
    expect(ancient).toMatchObject({ status: 400, json: { birth_date: ['Ensure this value is greater than or equal to 1900-01-01.'] } })
  })

  it('uploads a photo by multipart and serves it publicly with caching', async () => {
    const response = await api.patch('/users/profile/update/', photoForm(PNG, 'me.png', { bio: 'Com foto' }), { token })
    expect(response.status).toBe(200)
    expect(response.json.bio).toBe('Com foto')
    expect(response.json.photo).toMatch(new RegExp(`^${PUBLIC_URL}/media/photos/[0-9a-f]{32}\\.png$`))
    expect((await api.get('/users/me/', { token })).json.photo).toBe(response.json.photo)

    const photo = await app.request(response.json.photo)
    expect(photo.status).toBe(200)
    expect(photo.headers.get('content-type')).toBe('image/png')
    expect(photo.headers.get('cache-control')).toContain('immutable')
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(PNG)
    const cached = await app.request(response.json.photo, { headers: { 'if-none-match': photo.headers.get('etag')! } })
    expect(cached.status).toBe(304)

    // A new upload replaces the old file, which disappears.
    const replaced = await api.patch('/users/profile/update/', photoForm(JPEG, 'me.jpg'), { token })
    expect(replaced.json.photo).toMatch(/\.jpg$/)
    expect((await app.request(response.json.photo)).status).toBe(404)
    // An untouched file input in a form changes nothing; JSON null removes the photo.
    const untouched = new FormData()
    untouched.set('bio', 'Sem mudar a foto')
    untouched.set('photo', new File([], '', { type: 'application/octet-stream' }))
    expect((await api.patch('/users/profile/update/', untouched, { token })).json.photo).toBe(replaced.json.photo)
    expect((await api.patch('/users/profile/update/', { photo: null }, { token })).json.photo).toBeNull()
  })

  it('refuses files that are not JPEG/PNG/WebP, whatever their name, and files over 2 MB', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>')
    const fake = await api.patch('/users/profile/update/', photoForm(svg, 'me.png'), { token })
    expect(fake).toMatchObject({
      status: 400,
      json: { photo: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'] },
    })
    const big = new Uint8Array(2 * 1024 * 1024 + 1)
    big.set(PNG)
    const tooBig = await api.patch('/users/profile/update/', photoForm(big), { token })
    expect(tooBig).toMatchObject({ status: 400, json: { photo: ['The photo must be at most 2 MB.'] } })
  })

  it('serves 404 for unknown photos', async () => {
    expect((await api.get('/media/photos/0123456789abcdef0123456789abcdef.png')).status).toBe(404)
  })
})

describe('POST /users/change-password/', () => {
  it('changes the password when the old one is right', async () => {
    const response = await api.post('/users/change-password/', { old_password: 'innera-demo-2025', new_password: 'caminhada-matinal-8' }, { token })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ detail: 'Password updated successfully.', access: expect.any(String), refresh: expect.any(String) })
    await api.login('paciente@innera.local', 'caminhada-matinal-8')
  })

  // Issue 10, finding 2: a password change ends every session; the caller continues in a new one.
  it('ends every session, the current one too, and answers a working new pair', async () => {
    const current = await api.login('paciente@innera.local')
    const stolen = await api.login('paciente@innera.local')
    const response = await api.post('/users/change-password/', { old_password: 'innera-demo-2025', new_password: 'caminhada-matinal-8' }, { token: current.access })
    expect(response.status).toBe(200)
    for (const old of [current, stolen]) {
      expect((await api.get('/users/me/', { token: old.access })).status).toBe(401)
      expect((await api.post('/authentication/token/refresh/', { refresh: old.refresh })).status).toBe(401)
    }
    const { access, refresh } = response.json
    expect((await api.get('/users/me/', { token: access })).json.username).toBe('paciente')
    const renewed = await api.post('/authentication/token/refresh/', { refresh })
    expect(renewed.status).toBe(200)
    expect((await api.get('/users/me/', { token: renewed.json.access })).status).toBe(200)
    // Another user's sessions are not touched.
    const paula = await api.login('profissional@innera.local')
    await api.post('/users/change-password/', { old_password: 'caminhada-matinal-8', new_password: 'caminhada-noturna-9' }, { token: access })
    expect((await api.get('/users/me/', { token: paula.access })).status).toBe(200)
  })

  it('keeps the sessions when the change is refused', async () => {
    const refused = await api.post('/users/change-password/', { old_password: 'innera-demo-2025', new_password: 'qwerty12' }, { token })
    expect(refused).toMatchObject({ status: 400, json: { new_password: ['This password is too common.'] } })
    expect((await api.get('/users/me/', { token })).status).toBe(200)
  })

  // Issue 10, finding 15: the old-password check is a password oracle, throttled like login.
  it('throttles old-password guesses per user and per address with 429 and Retry-After', async () => {
    // The throttles read the wall clock (server/http/throttle.ts): Date follows the fake clock here.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(time.clock())
    onTestFinished(() => {
      vi.useRealTimers()
    })
    // Long-lived access tokens: the test waits out the 5-minute window.
    const throttledApp = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0', ACCESS_TOKEN_LIFETIME: '3600' } }))
    const token = (await throttledApp.login('paciente@innera.local')).access
    const guess = (address: string, access = token) =>
      throttledApp.call('POST', '/users/change-password/', {
        body: { old_password: 'guess-guess-guess', new_password: 'caminhada-matinal-8' },
        token: access,
        headers: { 'x-forwarded-for': address },
      })
    for (let index = 0; index < 10; index += 1) expect((await guess(`198.51.100.${index}`)).status).toBe(400)
    vi.setSystemTime(time.advance(60))
    const blocked = await guess('198.51.100.99')
    expect(blocked.status).toBe(429)
    expect(blocked.json).toEqual({ detail: 'Request was throttled. Expected available in 240 seconds.' })
    expect(blocked.headers.get('retry-after')).toBe('240')
    // The right old password is blocked too: the limit is on attempts, not on failures.
    const right = await throttledApp.call('POST', '/users/change-password/', {
      body: { old_password: 'innera-demo-2025', new_password: 'caminhada-matinal-8' },
      token,
      headers: { 'x-forwarded-for': '198.51.100.99' },
    })
    expect(right.status).toBe(429)
    vi.setSystemTime(time.advance(240))
    expect((await guess('198.51.100.99')).status).toBe(400)

    const perAddress = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0', THROTTLE_CHANGE_PASSWORD_PER_ADDRESS: '3/m' } }))
    const paula = (await api.login('profissional@innera.local')).access
    const fromOneAddress = (access: string) =>
      perAddress.call('POST', '/users/change-password/', { body: { old_password: 'x', new_password: 'caminhada-matinal-8' }, token: access, headers: { 'x-forwarded-for': '203.0.113.9' } })
    for (const access of [token, paula, token]) expect((await fromOneAddress(access)).status).toBe(400)
    const blockedAddress = await fromOneAddress(paula)
    expect(blockedAddress.status).toBe(429)
    expect(blockedAddress.headers.get('retry-after')).toBe('60')
  })

  it('refuses a wrong old password and a weak new one', async () => {
    const wrong = await api.post('/users/change-password/', { old_password: 'nope', new_password: 'caminhada-matinal-8' }, { token })
    expect(wrong).toMatchObject({ status: 400, json: { old_password: ['Wrong password.'] } })
    const weak = await api.post('/users/change-password/', { old_password: 'innera-demo-2025', new_password: 'pedro' }, { token })
    expect(weak.status).toBe(400)
    expect(weak.json.new_password).toContain('This password is too short. It must contain at least 8 characters.')
    expect((await api.post('/users/change-password/', {}, { token })).json).toEqual({
      old_password: ['This field is required.'],
      new_password: ['This field is required.'],
    })
    expect((await api.post('/users/change-password/', { old_password: 'a', new_password: 'b' })).status).toBe(401)
  })
})

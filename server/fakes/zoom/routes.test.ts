import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import { FAKE_ZOOM_ACCOUNT_ID, FAKE_ZOOM_CLIENT_ID } from '#server/config.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { createMemoryDatabase, fakeClock, PUBLIC_URL, testApp } from '#server/testing/harness.ts'
import { createZoomClient } from '#server/zoom/client.ts'

const ZOOM = `${PUBLIC_URL}/fake-zoom`
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

let database: DatabaseHandle
let app: ProviderApp
const time = fakeClock(Date.parse('2026-11-27T12:00:00Z'))
/** The fake's client secret: this test process's own (testing/harness.ts), as each install has its own. */
const clientSecret = () => app.services.config.zoom!.clientSecret!

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock })
})
afterAll(() => database.close())

async function call(method: string, url: string, { auth, body }: { auth?: string; body?: unknown } = {}) {
  const response = await app.request(url, {
    method,
    headers: { ...(auth && { authorization: auth }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let json
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: response.status, json, text, headers: response.headers }
}

const tokenUrl = (account = FAKE_ZOOM_ACCOUNT_ID, grant = 'account_credentials') => `${ZOOM}/oauth/token?grant_type=${grant}&account_id=${account}`

async function accessToken(): Promise<string> {
  return (await call('POST', tokenUrl(), { auth: basic(FAKE_ZOOM_CLIENT_ID, clientSecret()) })).json.access_token
}

describe('the fake Zoom', () => {
  it("gives a server-to-server token as Zoom's OAuth does, and refuses bad credentials as Zoom does", async () => {
    const ok = await call('POST', tokenUrl(), { auth: basic(FAKE_ZOOM_CLIENT_ID, clientSecret()) })
    expect(ok.status).toBe(200)
    expect(ok.json).toMatchObject({ access_token: expect.any(String), token_type: 'bearer', expires_in: 3600, scope: expect.any(String) })
    expect(await call('POST', tokenUrl(), { auth: basic(FAKE_ZOOM_CLIENT_ID, 'wrong') })).toMatchObject({ status: 400, json: { reason: 'Invalid client_id or client_secret', error: 'invalid_client' } })
    expect((await call('POST', tokenUrl())).json.error).toBe('invalid_client')
    expect((await call('POST', tokenUrl('someone-else'), { auth: basic(FAKE_ZOOM_CLIENT_ID, clientSecret()) })).status).toBe(400)
    expect((await call('POST', tokenUrl(FAKE_ZOOM_ACCOUNT_ID, 'client_credentials'), { auth: basic(FAKE_ZOOM_CLIENT_ID, clientSecret()) })).json.error).toBe('unsupported_grant_type')
  })

  it("creates, reads and deletes meetings in Zoom's shapes; a bad or expired token is 401 code 124", async () => {
    const token = await accessToken()
    const created = await call('POST', `${ZOOM}/v2/users/me/meetings`, {
      auth: `Bearer ${token}`,
      body: { topic: 'Yoga <para> dormir', type: 2, start_time: '2026-12-01T22:00:00Z', duration: 45, timezone: 'America/Sao_Paulo', settings: { join_before_host: false } },
    })
    expect(created.status).toBe(201)
    const meeting = created.json
    expect(meeting).toMatchObject({
      id: expect.any(Number),
      uuid: expect.any(String),
      host_id: expect.any(String),
      topic: 'Yoga <para> dormir',
      type: 2,
      start_time: '2026-12-01T22:00:00Z',
      duration: 45,
      timezone: 'America/Sao_Paulo',
      password: expect.any(String),
      created_at: expect.any(String),
    })
    expect(String(meeting.id)).toMatch(/^\d{11}$/)
    expect(meeting.join_url).toBe(`${ZOOM}/j/${meeting.id}?pwd=${meeting.password}`)
    expect(meeting.start_url).toMatch(new RegExp(`^${ZOOM}/s/${meeting.id}\\?zak=`))
    expect((await call('GET', `${ZOOM}/v2/meetings/${meeting.id}`, { auth: `Bearer ${token}` })).json).toEqual(meeting)

    // The join page says which meeting it is, escaped; a wrong password is refused.
    const page = await call('GET', meeting.join_url)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Yoga &lt;para&gt; dormir')
    expect(page.text).toContain(`data-meeting-id="${meeting.id}"`)
    expect((await call('GET', `${ZOOM}/j/${meeting.id}?pwd=000`)).status).toBe(404)
    expect((await call('GET', meeting.start_url)).text).toContain('data-role="host"')

    expect(await call('GET', `${ZOOM}/v2/meetings/${meeting.id}`, { auth: 'Bearer nonsense' })).toMatchObject({ status: 401, json: { code: 124, message: 'Invalid access token.' } })
    expect((await call('POST', `${ZOOM}/v2/users/me/meetings`, { body: { topic: 'x' } })).json).toEqual({ code: 124, message: 'Invalid access token.' })
    expect((await call('POST', `${ZOOM}/v2/users/me/meetings`, { auth: `Bearer ${token}`, body: { duration: 'long' } })).json).toMatchObject({ code: 300 })

    expect((await call('DELETE', `${ZOOM}/v2/meetings/${meeting.id}`, { auth: `Bearer ${token}` })).status).toBe(204)
    expect(await call('GET', `${ZOOM}/v2/meetings/${meeting.id}`, { auth: `Bearer ${token}` })).toMatchObject({ status: 404, json: { code: 3001 } })

    // An hour later the token has expired.
    time.advance(3601)
    expect((await call('GET', `${ZOOM}/v2/meetings/1`, { auth: `Bearer ${token}` })).json.code).toBe(124)
  })

  it('is what the Zoom client speaks to: one token, kept until shortly before it expires', async () => {
    let tokenRequests = 0
    const counting: typeof fetch = (input, init) => {
      if (String(input).includes('/oauth/token')) tokenRequests += 1
      return Promise.resolve(app.request(String(input), init))
    }
    const zoom = createZoomClient(app.services.config.zoom, { fetch: counting, clock: time.clock })
    const first = await zoom.createMeeting({ topic: 'Respiração', startsAt: new Date(time.clock() + 86_400_000), durationMinutes: 30, timeZone: 'America/Sao_Paulo' })
    await zoom.createMeeting({ topic: 'Respiração', startsAt: new Date(time.clock() + 86_400_000), durationMinutes: 30, timeZone: 'America/Sao_Paulo' })
    expect(tokenRequests).toBe(1)
    expect(first.joinUrl).toContain('/fake-zoom/j/')
    time.advance(3600 - 30)
    await zoom.deleteMeeting(first.id)
    expect(tokenRequests).toBe(2)
    const down = createZoomClient(app.services.config.zoom, { fetch: () => Promise.reject(new Error('ECONNREFUSED')), clock: time.clock })
    await expect(down.createMeeting({ topic: 'x', startsAt: new Date(), durationMinutes: 30, timeZone: 'UTC' })).rejects.toThrow('Zoom did not answer')
  })
})

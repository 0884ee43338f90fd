import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { answerConsent, calendarAuthorizationUrl, FAKE_GOOGLE, fakeCalendarTokens, tokenRequest } from '#server/testing/google-flow.ts'
import { client, createMemoryDatabase, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'

// Monday 2026-03-02, 09:00 in São Paulo.
const NOW = Date.parse('2026-03-02T12:00:00Z')
const EMAIL = 'ana.souza@gmail.test'
const REDIRECT_URI = 'http://app.test/auth/google/calendar-callback'
const EVENTS = `${FAKE_GOOGLE}/calendar/v3/calendars/primary/events`

let database: DatabaseHandle
const time = fakeClock(NOW)
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
  time.set(NOW)
  await resetDatabase(database.db)
  token = (await fakeCalendarTokens(app, EMAIL)).access_token
})

/** A call to the fake Calendar API with the account's access token. */
async function google(method: string, url: string, body?: unknown, bearer = token) {
  const response = await app.request(url, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : undefined }
}

const timed = (summary: string, start: string, end: string, extra: Record<string, unknown> = {}) => ({ summary, start: { dateTime: start }, end: { dateTime: end }, ...extra })
const list = (query = '') => google('GET', `${EVENTS}${query}`)

describe('fake Google consent for the calendar', () => {
  it('shows an accessible consent page with the hinted account checked', async () => {
    const page = await app.request(calendarAuthorizationUrl({ redirectUri: REDIRECT_URI, loginHint: 'profissional@innera.local' }))
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<h1>Innera wants to access your Google Calendar</h1>')
    expect(html).toContain('<legend>Google account</legend>')
    expect(html).toMatch(/<input type="radio" id="account-0" name="account" value="profissional@innera.local" checked><label for="account-0">profissional@innera.local<\/label>/)
    expect(html).toContain('<label for="account-1">Ana Souza (ana.souza@gmail.test)</label>')
    expect(html).toContain('<button type="submit" name="decision" value="allow">Allow</button>')
    expect(html).toContain('<button type="submit" name="decision" value="deny">Deny</button>')
    expect(html).toContain('name="access_type" value="offline"')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
  })

  it('redirects with access_denied and the state on Deny, with a code on Allow', async () => {
    const url = calendarAuthorizationUrl({ redirectUri: REDIRECT_URI, state: 'deny-state-0123456789' })
    const denied = await answerConsent(app, url, { decision: 'deny' })
    expect(`${denied.origin}${denied.pathname}`).toBe(REDIRECT_URI)
    expect(Object.fromEntries(denied.searchParams)).toEqual({ error: 'access_denied', state: 'deny-state-0123456789' })
    const allowed = await answerConsent(app, url, { account: 'bruno.lima@gmail.test' })
    expect(allowed.searchParams.get('code')).toMatch(/^4\//)
    expect(allowed.searchParams.get('state')).toBe('deny-state-0123456789')
  })

  it('grants refresh tokens for offline access; a revoked grant answers invalid_grant', async () => {
    const tokens = await fakeCalendarTokens(app, EMAIL)
    expect(tokens.refresh_token).toMatch(/^1\/\//)
    const refreshed = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
    expect(refreshed.status).toBe(200)
    expect(await refreshed.json()).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3599 })

    const revoke = await app.request(`${FAKE_GOOGLE}/revoke?token=${encodeURIComponent(tokens.refresh_token)}`, { method: 'POST' })
    expect(revoke.status).toBe(200)
    const refused = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' })
    // Its access tokens stop working too; another grant's do not.
    expect((await list()).status).toBe(200)
    expect((await google('GET', EVENTS, undefined, tokens.access_token)).status).toBe(401)
    expect((await app.request(`${FAKE_GOOGLE}/revoke?token=unknown`, { method: 'POST' })).status).toBe(400)
    expect((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'never-issued' })).status).toBe(400)
  })

  it('revokes every grant of an account through the dev helper', async () => {
    const other = await fakeCalendarTokens(app, EMAIL)
    expect(await api.post('/fake-google/dev/calendar/revoke/', { email: EMAIL })).toMatchObject({ status: 200, json: { revoked: 2 } })
    expect((await list()).status).toBe(401)
    expect((await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: other.refresh_token })).status).toBe(400)
  })
})

describe('fake Calendar v3', () => {
  it('answers the primary calendar, whose id is the account e-mail', async () => {
    expect(await google('GET', `${FAKE_GOOGLE}/calendar/v3/calendars/primary`)).toEqual({
      status: 200,
      json: { kind: 'calendar#calendar', etag: expect.any(String), id: EMAIL, summary: EMAIL, timeZone: 'America/Sao_Paulo' },
    })
    expect((await google('GET', `${FAKE_GOOGLE}/calendar/v3/calendars/${encodeURIComponent(EMAIL)}`)).status).toBe(200)
    const foreign = await google('GET', `${FAKE_GOOGLE}/calendar/v3/calendars/someone%40else.test`)
    expect(foreign).toMatchObject({ status: 404, json: { error: { code: 404, errors: [{ reason: 'notFound' }] } } })
  })

  it('refuses calls without a valid token, Google style', async () => {
    const response = await google('GET', EVENTS, undefined, 'not-a-token')
    expect(response).toEqual({
      status: 401,
      json: { error: { code: 401, message: 'Invalid Credentials', errors: [{ domain: 'global', reason: 'authError', message: 'Invalid Credentials' }], status: 'UNAUTHENTICATED' } },
    })
    // An access token past its hour is refused too (Google's client then refreshes it).
    time.advance(3600)
    expect((await list()).status).toBe(401)
  })

  it('inserts, reads, patches, replaces and deletes events with Google’s shapes', async () => {
    const created = await google('POST', EVENTS, timed('Dentista', '2026-03-03T13:00:00Z', '2026-03-03T14:00:00-00:00', { description: 'Levar exames', extendedProperties: { private: { innera: '1' } } }))
    expect(created.status).toBe(200)
    expect(created.json).toMatchObject({
      kind: 'calendar#event',
      id: expect.stringMatching(/^[a-v0-9]{26}$/),
      status: 'confirmed',
      summary: 'Dentista',
      description: 'Levar exames',
      start: { dateTime: '2026-03-03T13:00:00Z' },
      organizer: { email: EMAIL, self: true },
      extendedProperties: { private: { innera: '1' } },
      htmlLink: expect.stringContaining(`${FAKE_GOOGLE}/calendar/event?eid=`),
    })
    expect(created.json.transparency).toBeUndefined()
    const url = `${EVENTS}/${created.json.id}`
    expect((await google('GET', url)).json).toEqual(created.json)

    const patched = await google('PATCH', url, { summary: 'Dentista (remarcado)', extendedProperties: { private: { extra: 'x' } }, transparency: 'transparent' })
    expect(patched.json).toMatchObject({ summary: 'Dentista (remarcado)', description: 'Levar exames', transparency: 'transparent', sequence: 1, extendedProperties: { private: { innera: '1', extra: 'x' } } })
    const replaced = await google('PUT', url, timed('Só isto', '2026-03-03T15:00:00Z', '2026-03-03T16:00:00Z'))
    expect(replaced.json).toMatchObject({ summary: 'Só isto', sequence: 2 })
    expect(replaced.json.description).toBeUndefined()
    expect(replaced.json.extendedProperties).toBeUndefined()

    expect((await google('DELETE', url)).status).toBe(204)
    expect((await google('GET', url)).json.status).toBe('cancelled')
    expect(await google('DELETE', url)).toMatchObject({ status: 410, json: { error: { errors: [{ reason: 'deleted' }] } } })
    expect(await google('PATCH', `${EVENTS}/doesnotexist`, { summary: 'x' })).toMatchObject({ status: 404, json: { error: { errors: [{ reason: 'notFound' }] } } })
  })

  it('refuses events without times, with an empty range, or with mixed kinds of time', async () => {
    expect(await google('POST', EVENTS, { summary: 'x', start: { dateTime: '2026-03-03T13:00:00Z' } })).toMatchObject({ status: 400, json: { error: { errors: [{ reason: 'required' }] } } })
    expect(await google('POST', EVENTS, timed('x', '2026-03-03T13:00:00Z', '2026-03-03T13:00:00Z'))).toMatchObject({ status: 400, json: { error: { errors: [{ reason: 'timeRangeEmpty' }] } } })
    expect((await google('POST', EVENTS, { start: { date: '2026-03-03' }, end: { dateTime: '2026-03-04T00:00:00Z' } })).status).toBe(400)
    expect((await google('POST', EVENTS, timed('x', 'tomorrow', '2026-03-03T13:00:00Z'))).status).toBe(400)
    expect((await google('POST', EVENTS, { ...timed('x', '2026-03-03T12:00:00Z', '2026-03-03T13:00:00Z'), transparency: 'see-through' })).status).toBe(400)
  })

  it('lists by time, in pages, then hands out a sync token that gives only later changes, deletions included', async () => {
    const ids: string[] = []
    for (const day of ['03', '04', '05']) ids.push((await google('POST', EVENTS, timed(`Evento ${day}`, `2026-03-${day}T13:00:00Z`, `2026-03-${day}T14:00:00Z`))).json.id)
    await google('POST', EVENTS, { summary: 'Feriado', start: { date: '2026-03-06' }, end: { date: '2026-03-07' } })

    const first = await list('?maxResults=2&singleEvents=true')
    expect(first.json.items.map((item: { summary: string }) => item.summary)).toEqual(['Evento 03', 'Evento 04'])
    expect(first.json.nextPageToken).toEqual(expect.any(String))
    expect(first.json.nextSyncToken).toBeUndefined()
    const second = await list(`?maxResults=2&singleEvents=true&pageToken=${first.json.nextPageToken}`)
    expect(second.json.items.map((item: { summary: string }) => item.summary)).toEqual(['Evento 05', 'Feriado'])
    expect(second.json.nextPageToken).toBeUndefined()
    const syncToken = second.json.nextSyncToken
    expect(syncToken).toEqual(expect.any(String))

    // Nothing changed: nothing to report.
    expect((await list(`?syncToken=${syncToken}`)).json.items).toEqual([])
    await google('DELETE', `${EVENTS}/${ids[0]}`)
    await google('PATCH', `${EVENTS}/${ids[1]}`, { summary: 'Evento 04 (novo)' })
    const changes = await list(`?syncToken=${syncToken}&singleEvents=true`)
    expect(changes.json.items.map((item: { id: string; status: string; summary: string }) => [item.id, item.status, item.summary])).toEqual([
      [ids[0], 'cancelled', 'Evento 03'],
      [ids[1], 'confirmed', 'Evento 04 (novo)'],
    ])
    const next = changes.json.nextSyncToken
    expect((await list(`?syncToken=${next}`)).json.items).toEqual([])

    // A plain list leaves the deleted event out unless asked.
    expect((await list()).json.items).toHaveLength(3)
    expect((await list('?showDeleted=true')).json.items).toHaveLength(4)
  })

  it('filters by timeMin (the end) and timeMax (the start)', async () => {
    await google('POST', EVENTS, timed('Manhã', '2026-03-03T12:00:00Z', '2026-03-03T13:00:00Z'))
    await google('POST', EVENTS, timed('Tarde', '2026-03-03T17:00:00Z', '2026-03-03T18:00:00Z'))
    const summaries = async (query: string) => (await list(query)).json.items.map((item: { summary: string }) => item.summary)
    expect(await summaries('?timeMin=2026-03-03T13:00:00Z')).toEqual(['Tarde'])
    expect(await summaries('?timeMin=2026-03-03T12:59:00Z&timeMax=2026-03-03T17:00:00Z')).toEqual(['Manhã'])
    expect((await list('?timeMin=yesterday')).status).toBe(400)
  })

  it('answers 410 fullSyncRequired for an unknown or expired sync token, and 400 for a narrowed incremental sync', async () => {
    const syncToken = (await list()).json.nextSyncToken
    expect(await list('?syncToken=made-up')).toMatchObject({ status: 410, json: { error: { code: 410, errors: [{ reason: 'fullSyncRequired' }] } } })
    expect((await list(`?syncToken=${syncToken}&timeMin=2026-03-01T00:00:00Z`)).status).toBe(400)
    expect(await api.post('/fake-google/dev/calendar/expire-sync-tokens/', { email: EMAIL })).toMatchObject({ status: 200, json: { expired: 1 } })
    expect((await list(`?syncToken=${syncToken}`)).status).toBe(410)
    // Another account's token is unknown to this one.
    const bruno = (await fakeCalendarTokens(app, 'bruno.lima@gmail.test')).access_token
    const brunoToken = (await google('GET', EVENTS, undefined, bruno)).json.nextSyncToken
    expect((await list(`?syncToken=${brunoToken}`)).status).toBe(410)
  })

  it('answers freeBusy from the busy events: not transparent, cancelled or declined; merged and clipped', async () => {
    await google('POST', EVENTS, timed('A', '2026-03-03T12:00:00Z', '2026-03-03T13:00:00Z'))
    await google('POST', EVENTS, timed('B', '2026-03-03T12:30:00Z', '2026-03-03T14:00:00Z', { status: 'tentative' }))
    await google('POST', EVENTS, timed('Livre', '2026-03-03T15:00:00Z', '2026-03-03T16:00:00Z', { transparency: 'transparent' }))
    await api.post('/fake-google/dev/calendar/events/', { email: EMAIL, summary: 'Recusado', start: '2026-03-03T16:00:00Z', end: '2026-03-03T17:00:00Z', response_status: 'declined' })
    await api.post('/fake-google/dev/calendar/events/', { email: EMAIL, summary: 'Dia todo', date: '2026-03-04' })
    const answer = await google('POST', `${FAKE_GOOGLE}/calendar/v3/freeBusy`, {
      timeMin: '2026-03-03T12:15:00Z',
      timeMax: '2026-03-05T00:00:00Z',
      items: [{ id: 'primary' }, { id: 'other@calendar.test' }],
    })
    expect(answer.json).toEqual({
      kind: 'calendar#freeBusy',
      timeMin: '2026-03-03T12:15:00.000Z',
      timeMax: '2026-03-05T00:00:00.000Z',
      calendars: {
        primary: {
          busy: [
            { start: '2026-03-03T12:15:00.000Z', end: '2026-03-03T14:00:00.000Z' },
            // The all-day event: 4 March from midnight to midnight in São Paulo.
            { start: '2026-03-04T03:00:00.000Z', end: '2026-03-05T00:00:00.000Z' },
          ],
        },
        'other@calendar.test': { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] },
      },
    })
  })
})

describe('fake calendar dev helpers', () => {
  it('puts an external event (timed, all-day, invitations) in an account’s calendar and shows the calendar', async () => {
    const timedEvent = await api.post('/fake-google/dev/calendar/events/', {
      email: 'Profissional@Innera.local',
      summary: 'Reunião importante',
      description: 'Pauta',
      start: '2026-03-03T10:00:00-03:00',
      end: '2026-03-03T11:00:00-03:00',
      transparency: 'transparent',
    })
    expect(timedEvent.status).toBe(201)
    expect(timedEvent.json).toMatchObject({ summary: 'Reunião importante', description: 'Pauta', transparency: 'transparent', start: { dateTime: '2026-03-03T13:00:00.000Z' } })
    const invitation = await api.post('/fake-google/dev/calendar/events/', { email: 'profissional@innera.local', summary: 'Convite', date: '2026-03-04', days: 2, response_status: 'declined', status: 'tentative' })
    expect(invitation.json).toMatchObject({
      status: 'tentative',
      start: { date: '2026-03-04' },
      end: { date: '2026-03-06' },
      organizer: { email: 'organizer@example.test' },
      attendees: [
        { email: 'organizer@example.test', organizer: true, responseStatus: 'accepted' },
        { email: 'profissional@innera.local', responseStatus: 'declined', self: true },
      ],
    })
    const shown = await api.get('/fake-google/dev/calendar/events/?email=profissional@innera.local')
    expect(shown.json.items.map((item: { summary: string }) => item.summary)).toEqual(['Reunião importante', 'Convite'])
  })

  it('refuses bad input with DRF-style errors', async () => {
    expect(await api.post('/fake-google/dev/calendar/events/', { summary: 'x' })).toMatchObject({ status: 400, json: { email: ['This field is required.'] } })
    expect(await api.post('/fake-google/dev/calendar/events/', { email: EMAIL, summary: 'x' })).toMatchObject({
      status: 400,
      json: { non_field_errors: ['Give start and end (instants), or date (an all-day event).'] },
    })
    expect(await api.post('/fake-google/dev/calendar/events/', { email: EMAIL, date: '2026-02-30', transparency: 'clear' })).toMatchObject({
      status: 400,
      json: { date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'], transparency: ['"clear" is not a valid choice.'] },
    })
    expect(await api.post('/fake-google/dev/calendar/events/', { email: EMAIL, start: '2026-03-03T11:00:00Z', end: '2026-03-03T10:00:00Z' })).toMatchObject({
      status: 400,
      json: { non_field_errors: ['The specified time range is empty.'] },
    })
    expect((await api.get('/fake-google/dev/calendar/events/?email=nope')).status).toBe(400)
  })

  it('is not mounted without FAKE_GOOGLE', async () => {
    const real = testApp(database.db, { env: { FAKE_GOOGLE: 'off' } })
    expect((await real.request(`${FAKE_GOOGLE}/dev/calendar/revoke/`, { method: 'POST' })).status).toBe(404)
    expect((await real.request(`${EVENTS}`)).status).toBe(404)
  })
})

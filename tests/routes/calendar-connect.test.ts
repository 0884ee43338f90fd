import { HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { STATE_TTL_MS } from '#app/features/calendar/calendar-connect.server.ts'
import { loader as callback } from '#app/routes/auth_.google.calendar-callback.ts'
import { loader as connect } from '#app/routes/agenda_.calendario_.conectar.ts'
import { sessionStorage } from '#app/session/session.server.ts'
import { calendarProvider } from '#tests/mocks/calendar.ts'
import { getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/**
 * Connecting Google Calendar (docs/product.md §4, §8; decision 0025): the start keeps a random `state` in the
 * session and sends the professional to Google's consent page; the callback checks the `state`
 * once before anything else, then the provider exchanges the code. Full page: a redirect with a
 * toast; in the popup: a page that tells its opener.
 */

const CALLBACK = 'http://app.test/auth/google/calendar-callback'
const REDIRECT_URI = 'http://localhost:3000/auth/google/calendar-callback'

type Pending = { state: string; popup: boolean; createdAt: number }

/** A professional's session, with an authorization waiting when given. */
async function paulaCookie(pending?: Pending, user = demoProfessional) {
  const session = await sessionStorage().getSession(await signedIn(user, { checked: true }))
  if (pending) session.set('calendarOAuth', pending)
  return (await sessionStorage().commitSession(session)).split(';')[0]!
}

/** The session a response leaves: the browser's cookie after it (the one sent when none is set). */
async function sessionAfter(result: { headers: Headers }, sent: string) {
  const set = result.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='))
  const cookie = set ? set.split(';')[0]! : sent
  return { cookie, pending: (await sessionStorage().getSession(cookie)).get('calendarOAuth') ?? null }
}

const get = (loader: typeof callback, url: string, cookie: string) => run(loader, getRequest(url, cookie))
const STATE = 'Zq3v_8mR-2LtY6pW0sN4bK9cX1hJ5gF7dA3eU2iO0yT'

describe('the start', () => {
  test('a fresh state in the session, the provider asked for the consent URL with the app’s callback, then a redirect to it', async () => {
    const asked = calendarProvider()
    const cookie = await paulaCookie()
    const result = await get(connect, 'http://app.test/agenda/calendario/conectar', cookie)
    const { pending } = await sessionAfter(result, cookie)
    expect(pending).toMatchObject({ popup: false })
    expect(pending!.state).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(asked.authorization).toEqual([{ redirect_uri: REDIRECT_URI, state: pending!.state }])
    expect(result.status).toBe(302)
    expect(result.location).toBe(`http://provider.test/fake-google/authorize?scope=calendar&state=${pending!.state}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`)
  })

  test('each start makes a new state; ?popup=1 remembers the popup', async () => {
    calendarProvider()
    const cookie = await paulaCookie()
    const first = (await sessionAfter(await get(connect, 'http://app.test/agenda/calendario/conectar', cookie), cookie)).pending
    const second = (await sessionAfter(await get(connect, 'http://app.test/agenda/calendario/conectar?popup=1', cookie), cookie)).pending
    expect(second).toMatchObject({ popup: true })
    expect(second!.state).not.toBe(first!.state)
  })

  test('the provider failing: back to the page with “Não foi possível conectar ao Google Calendar”; in the popup, told to the opener', async () => {
    calendarProvider({ authorizationAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    const cookie = await paulaCookie()
    const page = await get(connect, 'http://app.test/agenda/calendario/conectar', cookie)
    expect(page.location).toBe('/agenda/calendario')
    expect(await toastOf(page)).toMatchObject({ type: 'error', message: { text: 'Não foi possível conectar ao Google Calendar' } })
    expect((await sessionAfter(page, cookie)).pending).toBeNull()
    const popup = await get(connect, 'http://app.test/agenda/calendario/conectar?popup=1', cookie)
    expect(popup.status).toBe(200)
    expect(String(popup.data)).toContain('"outcome":"error","message":"Não foi possível conectar ao Google Calendar"')
  })

  test('only professionals', async () => {
    const asked = calendarProvider()
    expect((await get(connect, 'http://app.test/agenda/calendario/conectar', await paulaCookie(undefined, demoPatient))).status).toBe(403)
    expect(asked.authorization).toEqual([])
  })
})

describe('the callback, full page', () => {
  const pending = (overrides: Partial<Pending> = {}): Pending => ({ state: STATE, popup: false, createdAt: Date.now(), ...overrides })

  test('the code goes to POST /calendar/ with integration_type=enable; “Google Calendar conectado com sucesso”; the state is used up', async () => {
    const asked = calendarProvider()
    const cookie = await paulaCookie(pending())
    const result = await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}&scope=calendar`, cookie)
    expect(asked.connected).toEqual([{ auth_code: '4/abc', integration_type: 'enable', redirect_uri: REDIRECT_URI }])
    expect(result.status).toBe(303)
    expect(result.location).toBe('/agenda/calendario')
    expect(await toastOf(result)).toMatchObject({ type: 'success', message: { key: 'calendar:connection.connectedToast' } })
    const after = await sessionAfter(result, cookie)
    expect(after.pending).toBeNull()

    // The same callback again (a replay): refused, and the provider is not asked.
    const replay = await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}`, after.cookie)
    expect(await toastOf(replay)).toMatchObject({ type: 'error', message: { key: 'calendar:errors.state' } })
    expect(asked.connected).toHaveLength(1)
  })

  test.each([
    ['a forged state', `?code=4%2Fabc&state=${STATE.replace('Z', 'Y')}`],
    ['no state', '?code=4%2Fabc'],
    ['a state of another length', '?code=4%2Fabc&state=abc'],
  ])('%s is refused with a clear message, without asking the provider; the real one still works', async (_name, search) => {
    const asked = calendarProvider()
    const cookie = await paulaCookie(pending())
    const forged = await get(callback, `${CALLBACK}${search}`, cookie)
    expect(forged.location).toBe('/agenda/calendario')
    expect(await toastOf(forged)).toMatchObject({ type: 'error', message: { key: 'calendar:errors.state' } })
    expect(asked.connected).toEqual([])
    const { cookie: after } = await sessionAfter(forged, cookie)
    expect((await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}`, after)).location).toBe('/agenda/calendario')
    expect(asked.connected).toHaveLength(1)
  })

  test('no authorization started in this session, or one too old: refused', async () => {
    const asked = calendarProvider()
    const none = await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}`, await paulaCookie())
    expect(await toastOf(none)).toMatchObject({ message: { key: 'calendar:errors.state' } })
    const old = await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}`, await paulaCookie(pending({ createdAt: Date.now() - STATE_TTL_MS - 1000 })))
    expect(await toastOf(old)).toMatchObject({ message: { key: 'calendar:errors.state' } })
    expect(asked.connected).toEqual([])
  })

  test('a denied consent (error=access_denied) is “cancelled”, not an error; the provider is not asked', async () => {
    const asked = calendarProvider()
    const result = await get(callback, `${CALLBACK}?error=access_denied&state=${STATE}`, await paulaCookie(pending()))
    expect(await toastOf(result)).toMatchObject({ type: 'info', message: { key: 'calendar:popup.cancelled' } })
    expect(asked.connected).toEqual([])
  })

  test('another error from Google: “Não foi possível conectar ao Google Calendar”', async () => {
    calendarProvider()
    const result = await get(callback, `${CALLBACK}?error=server_error&state=${STATE}`, await paulaCookie(pending()))
    expect(await toastOf(result)).toMatchObject({ type: 'error', message: { key: 'calendar:errors.connect' } })
  })

  test.each([
    ['400 (a bad or used code)', () => HttpResponse.json({ detail: 'Bad code.', code: 'invalid_grant' }, { status: 400 }), 'calendar:errors.invalidCode'],
    ['400 with another code', () => HttpResponse.json({ detail: 'Expired.', code: 'authorization_expired' }, { status: 400 }), 'calendar:errors.invalidCode'],
    ['400 with field errors', () => HttpResponse.json({ auth_code: ['Ensure this field has no more than 2048 characters.'] }, { status: 400 }), 'calendar:errors.invalidCode'],
    ['400 that is not JSON', () => new HttpResponse('Bad Request', { status: 400, headers: { 'Content-Type': 'text/plain' } }), 'calendar:errors.invalidCode'],
    ['403', () => HttpResponse.json({ detail: 'You do not have permission to perform this action.' }, { status: 403 }), 'calendar:errors.connect'],
    ['502 (Google failing)', () => HttpResponse.json({ detail: 'Google failed.', code: 'google_error' }, { status: 502 }), 'calendar:errors.connect'],
    ['500', () => HttpResponse.json({ detail: 'boom' }, { status: 500 }), 'calendar:errors.connect'],
    ['no answer', () => HttpResponse.error(), 'calendar:errors.connect'],
    ['a success that is not one', () => HttpResponse.json({ success: false }), 'calendar:errors.connect'],
  ])('the exchange answering %s: its message', async (_name, answer, key) => {
    calendarProvider({ connectAnswer: answer })
    const result = await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}`, await paulaCookie(pending()))
    expect(result.location).toBe('/agenda/calendario')
    expect(await toastOf(result)).toMatchObject({ type: 'error', message: { key } })
  })

  test('only professionals; a visitor signs in first', async () => {
    calendarProvider()
    expect((await get(callback, `${CALLBACK}?code=x&state=${STATE}`, await paulaCookie(pending(), demoPatient))).status).toBe(403)
    const anonymous = await run(callback, new Request(`${CALLBACK}?code=x&state=${STATE}`))
    expect(anonymous.location).toMatch(/^\/auth\?mode=login&redirectTo=/)
  })
})

describe('the callback, in the popup', () => {
  const pending = (): Pending => ({ state: STATE, popup: true, createdAt: Date.now() })

  test('a tiny page that posts the outcome to its opener (and the same-origin channel) and closes; its script runs by its nonce only', async () => {
    calendarProvider()
    const result = await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}`, await paulaCookie(pending()))
    expect(result.status).toBe(200)
    expect(result.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(result.headers.get('Cache-Control')).toBe('no-store')
    const html = String(result.data)
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1]
    expect(nonce).toBeTruthy()
    expect(result.headers.get('Content-Security-Policy')).toBe(`default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
    expect(html).toContain('var m={"type":"innera:calendar","outcome":"success"}')
    expect(html).toContain('window.opener.postMessage(m,window.location.origin)')
    expect(html).toContain('new BroadcastChannel("innera:calendar").postMessage(m)')
    expect(html).toContain('window.close()')
    expect(html).toContain('<p role="status">Google Calendar conectado com sucesso</p>')
    expect(html).toContain('<html lang="pt-BR">')
  })

  test('an error travels with its text; a denied consent is “cancelled”', async () => {
    calendarProvider({ connectAnswer: () => HttpResponse.json({ detail: 'Bad code.', code: 'invalid_grant' }, { status: 400 }) })
    const failed = String((await get(callback, `${CALLBACK}?code=4%2Fabc&state=${STATE}`, await paulaCookie(pending()))).data)
    expect(failed).toContain('{"type":"innera:calendar","outcome":"error","message":"Código de autorização inválido ou expirado"}')
    const denied = String((await get(callback, `${CALLBACK}?error=access_denied&state=${STATE}`, await paulaCookie(pending()))).data)
    expect(denied).toContain('{"type":"innera:calendar","outcome":"cancelled"}')
    expect(denied).toContain('Autorização cancelada: o Google Calendar não foi conectado.')
  })

  test('a forged state in the popup: refused there too, in the visitor’s language', async () => {
    const asked = calendarProvider()
    const html = String((await get(callback, `${CALLBACK}?code=4%2Fabc&state=forged-state-of-some-length&lng=en`, await paulaCookie(pending()))).data)
    expect(html).toContain('"outcome":"error","message":"This authorization was not started in this session or was already used.')
    expect(html).toContain('<html lang="en">')
    expect(asked.connected).toEqual([])
  })

  test('nothing from the URL reaches the page unescaped', async () => {
    calendarProvider()
    const html = String((await get(callback, `${CALLBACK}?error=%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=${STATE}`, await paulaCookie(pending()))).data)
    expect(html).not.toContain('alert(1)')
    expect(html.match(/<script/g)).toHaveLength(1)
  })
})

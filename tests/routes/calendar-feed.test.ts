import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { getEnv } from '#app/env.server.ts'
import { loader as feedLoader } from '#app/routes/calendario.$token[.]ics.ts'
import { action as settingsAction, loader as settingsLoader } from '#app/routes/configuracoes.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/**
 * The private calendar feed in the app (issue 12): /calendario/<token>.ics asks the provider with
 * the token alone and answers iCalendar that no shared cache keeps, with titles in the reader's
 * language and nothing but the other person's first name; unknown tokens are 404s; the token never
 * reaches a log. Settings create (shown once), replace and revoke the link with plain forms.
 */

const TOKEN = 'q3Vx8Jm2-Lr5Tn7Wc1Yz4Ab6Ed9Gh0Kp_Sv2Xf5Hj8N'
const FEED = '/appointments/calendar-feed/'

const feed = {
  time_zone: 'Europe/Lisbon',
  appointments: [
    { id: 31, status: 'scheduled', start_time: '2026-12-02T12:00:00.000Z', end_time: '2026-12-02T12:50:00.000Z', other_first_name: 'Paula' },
    { id: 32, status: 'cancelled', start_time: '2026-12-09T12:00:00.000Z', end_time: '2026-12-09T12:50:00.000Z', other_first_name: 'Rafael' },
  ],
}

/** The provider's feed endpoint; records the Authorization header of each call. */
function servesFeed(answer: () => Response = () => HttpResponse.json(feed)) {
  const calls: { token: string; authorization: string | null }[] = []
  providerMock.use(
    http.get(providerUrl(`${FEED}:token/`), ({ request, params }) => {
      calls.push({ token: String(params.token), authorization: request.headers.get('Authorization') })
      return answer()
    }),
  )
  return calls
}

const getFeed = (token = TOKEN, headers: Record<string, string> = {}) =>
  run(feedLoader, new Request(`http://app.test/calendario/${token}.ics`, { headers }), { token })

/** The iCalendar text unfolded (RFC 5545 folds long lines at 75 octets). */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '')

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('/calendario/<token>.ics', () => {
  test('answers the feed as iCalendar: the title with the first name, the time in UTC, the link, cancelled ones marked', async () => {
    const calls = servesFeed()
    const result = await getFeed()
    expect(calls).toEqual([{ token: TOKEN, authorization: null }])
    expect(result.status).toBe(200)
    expect(result.headers.get('Content-Type')).toBe('text/calendar; charset=utf-8')
    // Private: never kept by a shared cache, and re-read within 5 minutes so a revoked link dies soon.
    expect(result.headers.get('Cache-Control')).toBe('private, max-age=300')
    expect(result.headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
    const ics = unfold(String(result.data))
    expect(ics).toContain('X-WR-TIMEZONE:Europe/Lisbon')
    expect(ics).toContain('X-WR-CALNAME:Consultas Innera')
    expect(ics).toContain('SUMMARY:Consulta Innera com Paula')
    expect(ics).toContain('SUMMARY:Consulta Innera com Rafael')
    expect(ics).toContain('DTSTART:20261202T120000Z')
    expect(ics).toContain('DTEND:20261202T125000Z')
    expect(ics).toContain(`URL;VALUE=URI:${getEnv().APP_PUBLIC_URL}/consultas/31`)
    expect(ics).toContain('UID:appointment-31@innera')
    expect(ics.match(/STATUS:\w+/g)).toEqual(['STATUS:CONFIRMED', 'STATUS:CANCELLED'])
  })

  test('speaks the language the calendar asks for', async () => {
    servesFeed()
    const ics = unfold(String((await getFeed(TOKEN, { 'Accept-Language': 'en-US,en;q=0.9' })).data))
    expect(ics).toContain('SUMMARY:Innera consultation with Paula')
    expect(ics).toContain('X-WR-CALNAME:Innera consultations')
  })

  test('an unknown or revoked token is a 404, a malformed one never reaches the provider', async () => {
    const calls = servesFeed(() => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }))
    const gone = await getFeed()
    expect(gone).toMatchObject({ status: 404, data: 'Not found' })
    expect(gone.headers.get('Cache-Control')).toBe('no-store')
    for (const bad of ['short', 'has.dot.in.it.and.is.long.enough', `${'x'.repeat(129)}`]) expect((await getFeed(bad)).status).toBe(404)
    expect(calls).toHaveLength(1)
  })

  test('the provider unreachable: 503 with Retry-After (the calendar tries again); a provider error: 502', async () => {
    servesFeed(() => HttpResponse.error())
    const down = await getFeed()
    expect(down.status).toBe(503)
    expect(down.headers.get('Retry-After')).toBe('300')
    servesFeed(() => HttpResponse.json({ detail: 'boom' }, { status: 500 }))
    expect((await getFeed()).status).toBe(502)
    servesFeed(() => HttpResponse.json({ time_zone: 'UTC', appointments: [{ id: 1, notes: 'x' }] }))
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    expect((await getFeed()).status).toBe(502)
  })

  test('the token never reaches a log line, even with every provider call logged', async () => {
    vi.stubEnv('LOG_LEVEL', 'debug')
    const lines: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true))
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true))
    servesFeed()
    await getFeed()
    servesFeed(() => HttpResponse.json({ time_zone: 'UTC' }))
    await getFeed()
    expect(lines.join('\n')).toContain('/appointments/calendar-feed/:token/')
    expect(lines.join('\n')).not.toContain(TOKEN)
  })
})

describe('settings: the calendar link', () => {
  const settings = 'http://app.test/configuracoes'
  const load = async (cookie?: string) => run(settingsLoader, new Request(settings, { headers: { Cookie: cookie ?? (await signedIn()) } }))
  const post = async (fields: Record<string, string>, cookie?: string) => run(settingsAction, formRequest(settings, fields, { Cookie: cookie ?? (await signedIn()) }))
  test('says whether a link is active, and since when, in the user’s zone and language', async () => {
    providerMock.use(http.get(providerUrl(FEED), () => HttpResponse.json({ active: false, created_at: null })))
    expect((await load()).data).toMatchObject({ calendar: { active: false, createdAt: null } })
    providerMock.use(http.get(providerUrl(FEED), () => HttpResponse.json({ active: true, created_at: '2026-11-30T12:00:00.000Z' })))
    expect((await load(await signedIn(demoProfessional))).data).toMatchObject({ calendar: { active: true, createdAt: 'segunda-feira, 30 de novembro de 2026 às 09:00' } })
  })

  test('the rest of the page works when the provider cannot say', async () => {
    providerMock.use(http.get(providerUrl(FEED), () => HttpResponse.json({ detail: 'boom' }, { status: 500 })))
    const result = await load()
    expect(result.status).toBe(200)
    expect(result.data).toMatchObject({ calendar: null })
  })

  test('creating shows the full URL once, in this answer only', async () => {
    let created = 0
    providerMock.use(
      http.post(providerUrl(FEED), ({ request }) => {
        created += 1
        expect(request.headers.get('Authorization')).toMatch(/^Bearer /)
        return HttpResponse.json({ token: TOKEN }, { status: 201 })
      }),
    )
    const result = await post({ intent: 'calendar-create' })
    expect(created).toBe(1)
    expect(result.status).toBe(200)
    expect(result.location).toBeNull()
    expect(result.data).toEqual({ calendarUrl: `${getEnv().APP_PUBLIC_URL}/calendario/${TOKEN}.ics`, calendarError: null })
  })

  test('revoking deletes it and says so in a toast after a redirect', async () => {
    let revoked = 0
    providerMock.use(
      http.delete(providerUrl(FEED), () => {
        revoked += 1
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const result = await post({ intent: 'calendar-revoke' }, await signedIn(demoPatient))
    expect(revoked).toBe(1)
    expect(result.location).toBe('/configuracoes')
    expect(await toastOf(result.headers)).toMatchObject({ type: 'success', message: { key: 'account:settings.calendar.revoked' } })
  })

  test('a provider failure is said in the section, in the user’s language', async () => {
    providerMock.use(http.post(providerUrl(FEED), () => HttpResponse.error()))
    const result = await post({ intent: 'calendar-create' })
    expect(result.status).toBe(400)
    expect(result.data).toMatchObject({ calendarUrl: null, calendarError: expect.stringMatching(/conexão/i) })
  })

  test('the password form (no intent) still changes the password', async () => {
    let body: unknown
    providerMock.use(
      http.post(providerUrl('/users/change-password/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ detail: 'Password changed.' })
      }),
    )
    const result = await post({ old_password: 'innera-demo-2025', new_password: 'caminhada-ao-sol-7', confirm_password: 'caminhada-ao-sol-7' })
    // No box ticked: the provider is told to revoke the calendar link with the sessions (decision 0037).
    expect(body).toEqual({ old_password: 'innera-demo-2025', new_password: 'caminhada-ao-sol-7', keep_calendar_feed: false })
    expect(result.location).toBe('/configuracoes')
  })

  test('every call needs a session', async () => {
    const result = await run(settingsAction, formRequest(settings, { intent: 'calendar-create' }))
    expect(result.location).toMatch(/^\/auth\?mode=login/)
  })
})

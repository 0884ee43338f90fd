import { http, HttpResponse, delay } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as rootLoader } from '#app/root.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/route.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { run } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, fakeJwt, sessionCookie, sessionFrom } from '#tests/mocks/session.ts'

type Counters = { refresh: number; me: number; meTokens: string[] }

function provider({ refresh = 'ok', me = 'ok', user = demoPatient }: { refresh?: 'ok' | 'fail' | 'network' | 'no-access'; me?: 'ok' | 'fail' | 'network' | '401-once'; user?: typeof demoPatient } = {}) {
  const counters: Counters = { refresh: 0, me: 0, meTokens: [] }
  let rejected = false
  providerMock.use(
    http.post(providerUrl('/authentication/token/refresh/'), async () => {
      counters.refresh += 1
      await delay(20)
      if (refresh === 'network') return HttpResponse.error()
      if (refresh === 'fail') return HttpResponse.json({ detail: 'Token is invalid or expired', code: 'token_not_valid' }, { status: 401 })
      if (refresh === 'no-access') return HttpResponse.json({})
      return HttpResponse.json({ access: fakeJwt(300, { fresh: true }) })
    }),
    http.get(providerUrl('/users/me/'), ({ request }) => {
      counters.me += 1
      counters.meTokens.push(request.headers.get('Authorization') ?? '')
      if (me === 'network') return HttpResponse.error()
      if (me === 'fail') return HttpResponse.json({ detail: 'boom' }, { status: 500 })
      if (me === '401-once' && !rejected) {
        rejected = true
        return HttpResponse.json({ detail: 'Given token not valid for any token type' }, { status: 401 })
      }
      return HttpResponse.json(user)
    }),
  )
  return counters
}

const request = (cookie?: string, url = 'http://app.test/') => new Request(url, { headers: cookie ? { Cookie: cookie } : {} })
const rootData = (data: unknown) => data as { user: { name: string } | null; toast: { message: { key?: string; text?: string } } | null; accessExpiresAt: number | null }

describe('session start (docs/product.md §4)', () => {
  test('no tokens: signed out, no provider call, no cookie', async () => {
    const counters = provider()
    const result = await run(rootLoader, request())
    expect(rootData(result.data).user).toBeNull()
    expect(counters).toMatchObject({ refresh: 0, me: 0 })
    expect(await sessionFrom(result)).toBeUndefined()
  })

  test('an expired refresh token clears the session', async () => {
    const counters = provider()
    const cookie = await sessionCookie({ access: fakeJwt(-100), refresh: fakeJwt(-10), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(rootData(result.data).user).toBeNull()
    expect(rootData(result.data).toast?.message).toEqual({ text: 'Sessão expirada. Faça login novamente.' })
    expect(counters.refresh).toBe(0)
    expect((await sessionFrom(result))?.cleared).toBe(true)
  })

  test('an expired access token is refreshed first, then the user is fetched with the new one', async () => {
    const counters = provider()
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(counters.refresh).toBe(1)
    expect(counters.me).toBe(1)
    const stored = await sessionFrom(result)
    expect(stored?.access).toBeDefined()
    expect(counters.meTokens[0]).toBe(`Bearer ${stored?.access}`)
    expect(rootData(result.data).user?.name).toBe('Pedro Santos')
    expect(rootData(result.data).accessExpiresAt).toBeGreaterThan(Date.now() / 1000)
  })

  test('a valid session fetches and stores the current user', async () => {
    const counters = provider({ user: { ...demoPatient, first_name: 'Pedrinho' } })
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(counters).toMatchObject({ refresh: 0, me: 1 })
    expect((await sessionFrom(result))?.user?.first_name).toBe('Pedrinho')
  })

  test('a network error keeps the stored session', async () => {
    provider({ me: 'network' })
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(rootData(result.data).user?.name).toBe('Pedro Santos')
    expect(await sessionFrom(result)).toBeUndefined()
  })

  test('a network error during the refresh keeps the stored session', async () => {
    provider({ refresh: 'network', me: 'network' })
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(rootData(result.data).user?.name).toBe('Pedro Santos')
    expect((await sessionFrom(result))?.cleared).not.toBe(true)
  })

  test('a provider that answers slower than the timeout is a network error', async () => {
    providerMock.use(http.get(providerUrl('/users/me/'), async () => {
      await delay(1_500)
      return HttpResponse.json(demoPatient)
    }))
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(rootData(result.data).user?.name).toBe('Pedro Santos')
  })

  test('any other error clears the session and sends the request to sign in, saying it expired', async () => {
    provider({ me: 'fail' })
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient })
    // The page's own loaders ran beside the user fetch with the session: the page must not be shown.
    const result = await run(rootLoader, request(cookie, 'http://app.test/configuracoes'))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/auth?mode=login&redirectTo=%2Fconfiguracoes')
    expect(result.headers.get('Set-Cookie')).toContain('innera_toast=')
    expect((await sessionFrom(result))?.cleared).toBe(true)
  })

  test('a refresh failure clears the session and says it expired', async () => {
    const counters = provider({ refresh: 'fail' })
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(counters.me).toBe(0)
    expect(rootData(result.data).user).toBeNull()
    expect(rootData(result.data).toast?.message).toEqual({ text: 'Sessão expirada. Faça login novamente.' })
    expect((await sessionFrom(result))?.cleared).toBe(true)
  })

  test('a refresh failure on a signed-in page sends the visitor to sign in with the expired message', async () => {
    provider({ refresh: 'fail' })
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(dashboardLoader, request(cookie, 'http://app.test/dashboard'))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/auth?mode=login&redirectTo=%2Fdashboard')
    expect(result.headers.get('Set-Cookie')).toContain('innera_toast=')
    expect((await sessionFrom(result))?.cleared).toBe(true)
  })

  test('a refresh answer without an access token is a failure', async () => {
    provider({ refresh: 'no-access' })
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(rootData(result.data).user).toBeNull()
  })
})

describe('401 retry', () => {
  test('a 401 triggers one refresh and one retry with the new token', async () => {
    const counters = provider({ me: '401-once' })
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(rootLoader, request(cookie))
    expect(counters).toMatchObject({ refresh: 1, me: 2 })
    expect(counters.meTokens[0]).not.toBe(counters.meTokens[1])
    expect(rootData(result.data).user?.name).toBe('Pedro Santos')
    expect((await sessionFrom(result))?.access).toBeDefined()
  })

  test('when the refresh fails, the user goes to the login page with the message', async () => {
    provider({ refresh: 'fail' })
    providerMock.use(http.get(providerUrl('/appointments/dashboard/'), () => HttpResponse.json({ detail: 'nope' }, { status: 401 })))
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoProfessional })
    const result = await run(dashboardLoader, request(cookie, 'http://app.test/dashboard'))
    expect(result.status).toBe(303)
    expect(result.location).toBe('/auth?mode=login&redirectTo=%2Fdashboard')
    expect((await sessionFrom(result))?.cleared).toBe(true)
    expect(result.headers.getSetCookie().some((cookie) => cookie.startsWith('innera_toast='))).toBe(true)
  })
})

describe('one refresh per request', () => {
  test('parallel loaders of one request share a single refresh', async () => {
    const counters = provider()
    let agendaCalls = 0
    providerMock.use(
      http.get(providerUrl('/appointments/dashboard/'), () => {
        agendaCalls += 1
        return HttpResponse.json({ time_zone: 'America/Sao_Paulo', start: '2026-11-23', end: '2026-11-29', appointments: [] })
      }),
    )
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoProfessional })
    const shared = request(cookie, 'http://app.test/dashboard')
    const [root, dashboard] = await Promise.all([run(rootLoader, shared), run(dashboardLoader, shared)])
    expect(counters.refresh).toBe(1)
    expect(agendaCalls).toBe(1)
    expect((await sessionFrom(root))?.access).toBe((await sessionFrom(dashboard))?.access)
  })
})

describe('the session cookie is written in one place', () => {
  test('a route with no header code of its own still commits a refreshed token', async () => {
    const counters = provider()
    const { loader: settingsLoader } = await import('#app/routes/configuracoes.tsx')
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoPatient })
    const result = await run(settingsLoader, request(cookie, 'http://app.test/configuracoes'))
    expect(counters.refresh).toBe(1)
    const stored = await sessionFrom(result)
    const claims = JSON.parse(Buffer.from(stored!.access!.split('.')[1]!, 'base64url').toString()) as { fresh?: boolean }
    expect(claims.fresh, 'the refreshed token is the one stored').toBe(true)
  })
})

describe('how fresh the stored user is (decision 0018)', () => {
  test('a user confirmed less than a minute ago is taken as stored: no call to /users/me/', async () => {
    const counters = provider()
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient, userCheckedAt: Date.now() - 30_000 })
    const result = await run(rootLoader, request(cookie))
    expect(counters.me).toBe(0)
    expect(rootData(result.data).user?.name).toBe('Pedro Santos')
  })

  test('an older one, or one never confirmed, is asked again and the time is kept', async () => {
    const counters = provider({ user: { ...demoPatient, first_name: 'Pedrinho' } })
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient, userCheckedAt: Date.now() - 61_000 })
    const result = await run(rootLoader, request(cookie))
    expect(counters.me).toBe(1)
    expect(rootData(result.data).user?.name).toBe('Pedrinho Santos')
    const { sessionStorage } = await import('#app/session/session.server.ts')
    const stored = await sessionStorage().getSession(result.headers.getSetCookie().find((value) => value.startsWith('__session='))!.split(';')[0])
    expect(Date.now() - (stored.get('userCheckedAt') as number)).toBeLessThan(5_000)
  })

  test('a clock that went backwards does not keep a user forever', async () => {
    const counters = provider()
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient, userCheckedAt: Date.now() + 3_600_000 })
    await run(rootLoader, request(cookie))
    expect(counters.me).toBe(1)
  })
})

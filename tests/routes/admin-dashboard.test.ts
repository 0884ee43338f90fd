import { HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { dashboardToday, quickPeriod } from '#app/routes/admin.dashboard/admin-dashboard.server.ts'
import { loader as layoutLoader } from '#app/routes/admin.tsx'
import { loader } from '#app/routes/admin.dashboard/route.tsx'
import { dashboardAnswer, dashboardAnswers } from '#tests/mocks/admin-dashboard.ts'
import { getRequest, run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/** /admin/dashboard (issue 26, decision 0062): the users by role and the period's indicators, admins only. */

const cookieOf = (user: typeof demoAdmin) => signedIn(user)
const get = async (search = '', user = demoAdmin) => run(loader, getRequest(`http://app.test/admin/dashboard${search}`, await cookieOf(user)))
const NBSP = '\u00a0'

type Loaded = {
  stats: { total: number }
  form: { from: string; to: string; problem: string | null }
  quickLinks: { key: string; href: string; current: boolean }[]
  period: { from: string; to: string; bucket: string; label: string }
  totals: { key: string; value: string }[]
  charts: { key: string; total: string; bars: { label: string; shown: string[] }[] }[]
}

describe('/admin/dashboard loader', () => {
  test('asks the provider for the period and answers its numbers ready to draw, kept by no cache', async () => {
    const queries = dashboardAnswers()
    const result = await get('?from=2025-03-01&to=2025-03-03')
    expect(result.status).toBe(200)
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(queries).toEqual([{ from: '2025-03-01', to: '2025-03-03', tz: 'America/Sao_Paulo' }])
    const loaded = result.data as Loaded
    // The users by role stay.
    expect(loaded.stats.total).toBe(9)
    expect(loaded.form).toEqual({ from: '2025-03-01', to: '2025-03-03', problem: null })
    expect(loaded.period).toMatchObject({ from: '2025-03-01', to: '2025-03-03', bucket: 'day' })
    expect(loaded.totals.find((total) => total.key === 'revenue_card_cents')?.value).toBe(`R$${NBSP}1.484,56`)
    const revenue = loaded.charts.find((chart) => chart.key === 'revenue')!
    expect(revenue.total).toBe(`R$${NBSP}1.584,56`)
    expect(revenue.bars[0]).toMatchObject({ label: 'sáb., 1 de mar.', shown: [`R$${NBSP}100,00`, `R$${NBSP}250,00`] })
  })

  test('without a period: the last 30 days up to today in São Paulo, the 30-day link current', async () => {
    const queries = dashboardAnswers()
    const loaded = (await get()).data as Loaded
    const today = dashboardToday(new Date())
    expect(queries).toEqual([{ ...quickPeriod('30d', today), tz: 'America/Sao_Paulo' }])
    expect(loaded.form).toEqual({ from: '', to: '', problem: null })
    expect(loaded.quickLinks.filter((link) => link.current).map((link) => link.key)).toEqual(['30d'])
  })

  test('words the page in the reader’s language', async () => {
    dashboardAnswers()
    const loaded = (await get('?from=2025-03-01&to=2025-03-03&lng=en')).data as Loaded
    expect(loaded.totals.find((total) => total.key === 'revenue_card_cents')?.value).toBe('R$1,484.56')
    expect(loaded.charts[0]!.bars[0]!.label).toBe('Sat, Mar 1')
  })

  test('a period it cannot show: the last 30 days instead, what was typed and why', async () => {
    const queries = dashboardAnswers()
    const today = dashboardToday(new Date())
    for (const [search, problem] of [
      ['?from=2025-03-10&to=2025-03-01', 'order'],
      ['?from=2020-01-01&to=2025-01-01', 'tooLong'],
      ['?from=31/12/2024', 'invalid'],
    ] as const) {
      const loaded = (await get(search)).data as Loaded
      expect(loaded.form.problem, search).toBe(problem)
      expect(loaded.quickLinks.some((link) => link.current)).toBe(false)
    }
    expect(((await get('?from=31/12/2024')).data as Loaded).form).toEqual({ from: '31/12/2024', to: '', problem: 'invalid' })
    expect(new Set(queries.map((query) => JSON.stringify(query)))).toEqual(new Set([JSON.stringify({ ...quickPeriod('30d', today), tz: 'America/Sao_Paulo' })]))
  })

  test('the provider failing is the error page: down is 503; its 5xx, or an answer the app cannot read, a 500', async () => {
    dashboardAnswers(() => HttpResponse.error())
    expect((await get()).status).toBe(503)
    dashboardAnswers(() => HttpResponse.json({ detail: 'A server error occurred.' }, { status: 500 }))
    expect((await get()).status).toBe(500)
    dashboardAnswers(() => HttpResponse.json({ ...dashboardAnswer(), bucket: 'hour' }))
    expect((await get()).status).toBe(500)
  })

  test('no one else sees it, the page nor its .data: patients and professionals 403, visitors to sign in', async () => {
    const queries = dashboardAnswers()
    for (const user of [demoPatient, demoProfessional]) {
      const request = getRequest('http://app.test/admin/dashboard.data', await cookieOf(user))
      // Remix runs the layout's loader and the page's for a .data request: both refuse.
      expect((await run(layoutLoader, request)).status).toBe(403)
      expect((await run(loader, request)).status).toBe(403)
    }
    const visitor = await run(loader, new Request('http://app.test/admin/dashboard?from=2025-03-01'))
    expect(visitor.location).toBe('/auth?mode=login&redirectTo=%2Fadmin%2Fdashboard%3Ffrom%3D2025-03-01')
    expect(queries).toEqual([])
  })
})

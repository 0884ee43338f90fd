import { http, HttpResponse } from 'msw'
import { providerMock, providerUrl } from './provider.ts'

/**
 * The admin dashboard as the provider answers it (docs/decisions/0062-admin-dashboard.md), for the
 * route tests: three days of March 2025 with a little of everything, any field replaced.
 */

const zero = {
  new_users: 0,
  assessments: 0,
  appointments_booked: 0,
  appointments_cancelled: 0,
  appointments_no_show: 0,
  revenue_pix_cents: 0,
  revenue_card_cents: 0,
  refunds_cents: 0,
  conversations_started: 0,
  messages_sent: 0,
}
type Point = typeof zero & { start: string }

export const dashboardSeries: Point[] = [
  { ...zero, start: '2025-03-01', new_users: 7, assessments: 2, revenue_pix_cents: 10_000, revenue_card_cents: 25_000 },
  { ...zero, start: '2025-03-02', new_users: 1, appointments_booked: 3, appointments_cancelled: 1, refunds_cents: 5_000, conversations_started: 1, messages_sent: 4 },
  { ...zero, start: '2025-03-03', appointments_no_show: 1, revenue_card_cents: 123_456 },
]

export function dashboardAnswer(overrides: Record<string, unknown> = {}) {
  const series = (overrides.series as Point[] | undefined) ?? dashboardSeries
  const totals = { ...zero }
  for (const point of series) for (const key of Object.keys(zero) as (keyof typeof zero)[]) totals[key] += point[key]
  return {
    from: series[0]?.start ?? '2025-03-01',
    to: series.at(-1)?.start ?? '2025-03-03',
    time_zone: 'America/Sao_Paulo',
    bucket: 'day',
    series,
    totals,
    active_subscriptions: 4,
    active_subscriptions_at_end: 3,
    ...overrides,
  }
}

export const userStatsAnswer = { total: 9, active: 8, by_group: { admin: 1, profissional: 4, paciente: 4 } }

/** The page's two reads answered; returns the dashboard's queries as they arrived. */
export function dashboardAnswers(answer: () => Response = () => HttpResponse.json(dashboardAnswer())) {
  const queries: Record<string, string>[] = []
  providerMock.use(
    http.get(providerUrl('/users/stats/'), () => HttpResponse.json(userStatsAnswer)),
    http.get(providerUrl('/admin/dashboard/'), ({ request }) => {
      queries.push(Object.fromEntries(new URL(request.url).searchParams))
      return answer()
    }),
  )
  return queries
}

import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { EARLIEST_DATE, LATEST_DATE } from '#app/domain/date-range.ts'
import { dashboardToday, dashboardView, quickLinks, readDashboardQuery } from './admin-dashboard.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getAdminDashboard } from '#app/provider/admin-dashboard.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { getUserStats } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { ChartFigure } from '#app/ui/charts/chart-figure.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-dashboard'] }

/** The users by role, and the period's indicators (issue 26, decision 0062). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  // The days are the admin's own zone's, named in the lead (decision 0077).
  const timeZone = timeZoneOr(user.time_zone)
  const today = dashboardToday(new Date(), timeZone)
  const query = readDashboardQuery(new URL(request.url), today)
  const [t, language, stats, dashboard] = await Promise.all([
    getFixedT(request, 'admin'),
    languageOf(request),
    getUserStats(auth).catch(errorResponseFor),
    getAdminDashboard(auth, query, timeZone).catch(errorResponseFor),
  ])
  return data(
    {
      meta: { title: `${t('dashboard.title')} · Innera`, description: t('dashboard.lead') },
      stats,
      form: { ...query.typed, problem: query.problem },
      quickLinks: quickLinks(query, today),
      zone: timeZoneLabel(timeZone, language, new Date()),
      ...dashboardView(dashboard, language),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminDashboard() {
  const { stats, form, quickLinks, zone, period, totals, charts } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin')
  const { t: td } = useTranslation('admin-dashboard')
  const cards = [
    { key: 'total', value: stats.total, to: '/admin/users' },
    { key: 'paciente', value: stats.by_group.paciente, to: '/admin/users?group=paciente' },
    { key: 'profissional', value: stats.by_group.profissional, to: '/admin/users?group=profissional' },
    { key: 'admin', value: stats.by_group.admin, to: '/admin/users?group=admin' },
  ]
  const problemId = 'period-problem'
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('dashboard.title')}</h1>
      <p className="mt-2 text-muted">{t('dashboard.lead')}</p>
      <h2 className="mt-8 text-xl font-semibold">{t('dashboard.usersByRole')}</h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((card) => (
          <div key={card.key} className="rounded-2xl bg-white p-6 shadow-sm">
            <dt className="text-sm font-semibold text-muted">{t(`dashboard.cards.${card.key}`)}</dt>
            <dd className="mt-2 text-4xl font-bold text-brand-800">
              <Link to={card.to} className="rounded hover:underline">
                {card.value}
              </Link>
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-sm text-muted">{t('dashboard.active', { count: stats.active })}</p>

      <section aria-labelledby="period-heading" className="mt-12">
        <h2 id="period-heading" className="text-xl font-semibold">
          {td('heading')}
        </h2>
        <p className="mt-2 max-w-3xl text-muted">{td('lead', { zone })}</p>
        {/* A GET form: it works without JavaScript, and the address says which period is shown. */}
        <Form key={`${form.from}|${form.to}`} method="get" aria-label={td('form.label')} className="mt-6 flex flex-wrap items-end gap-3">
          {(['from', 'to'] as const).map((name) => (
            <div key={name}>
              <label htmlFor={`period-${name}`} className="block font-medium">
                {td(`form.${name}`)}
              </label>
              <input
                id={`period-${name}`}
                name={name}
                type="date"
                min={EARLIEST_DATE}
                max={LATEST_DATE}
                defaultValue={form[name] || period[name]}
                aria-invalid={form.problem ? true : undefined}
                aria-describedby={form.problem ? `${problemId} period-hint` : 'period-hint'}
                className="mt-1 block min-h-11 rounded-lg border border-gray-400 bg-white px-3"
              />
            </div>
          ))}
          <button type="submit" className="btn-primary">
            {td('form.submit')}
          </button>
          <p id="period-hint" className="w-full text-sm text-muted sm:w-auto sm:self-center">
            {td('form.hint')}
          </p>
        </Form>
        {form.problem ? (
          <p id={problemId} role="alert" className="mt-3 rounded-lg bg-red-50 px-4 py-3 text-red-800">
            {td(`form.problems.${form.problem}`)}
          </p>
        ) : null}
        <nav aria-label={td('quick.label')} className="mt-4">
          <ul className="flex flex-wrap gap-2">
            {quickLinks.map((link) => (
              <li key={link.key}>
                <Link
                  to={link.href}
                  aria-current={link.current ? 'page' : undefined}
                  className={link.current ? 'btn bg-brand-700 text-white hover:bg-brand-800' : 'btn-secondary'}
                >
                  {td(`quick.${link.key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="mt-6 font-medium" data-testid="period-shown">
          {td(`showing.${period.bucket}`, { period: period.label })}
        </p>

        <dl className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {totals.map((total) => (
            <div key={total.key} className="rounded-2xl bg-white p-4 shadow-sm">
              <dt className="text-sm font-semibold text-muted">{td(`totals.${total.key}`)}</dt>
              <dd className="mt-1 text-2xl font-bold text-brand-800 tabular-nums">{total.value}</dd>
            </div>
          ))}
        </dl>

        <div className="mt-6 grid gap-6 lg:grid-cols-2">
          {charts.map((chart) => {
            const revenue = chart.key === 'revenue'
            const [first, last] = [chart.bars[0], chart.bars.at(-1)]
            const description = revenue
              ? chart.peak
                ? td('chart.revenueSummary', { pix: chart.totals[0], card: chart.totals[1], total: chart.total, peak: chart.peak.value, when: chart.peak.label })
                : td('chart.revenueSummaryEmpty')
              : chart.peak
                ? td('chart.summary', { total: chart.total, peak: chart.peak.value, when: chart.peak.label })
                : td('chart.summaryEmpty')
            const columns = chart.metrics.map((metric) => td(`series.${metric}`))
            return (
              <ChartFigure
                key={chart.key}
                id={chart.key}
                title={td(`charts.${chart.key}`)}
                total={chart.total}
                chart={{
                  description,
                  bars: chart.bars.map((bar) => ({ key: bar.start, heights: bar.heights })),
                  tones: revenue ? ['solid', 'light'] : ['solid'],
                  ticks: chart.ticks,
                  first: first?.axisLabel ?? '',
                  last: last?.axisLabel ?? '',
                }}
                legend={revenue ? columns.map((label, index) => ({ label, tone: index === 0 ? 'solid' : 'light' })) : undefined}
                table={{
                  periodHeader: td(`chart.bucket.${period.bucket}`),
                  columns: revenue ? [...columns, td('series.total')] : columns,
                  rows: chart.bars.map((bar) => ({ key: bar.start, label: bar.label, cells: revenue ? [...bar.shown, bar.total] : bar.shown })),
                  total: { label: td('chart.total'), cells: revenue ? [...chart.totals, chart.total] : chart.totals },
                }}
                showTable={td('chart.showTable')}
              />
            )
          })}
        </div>

        <details className="group mt-8 max-w-3xl">
          <summary className="inline-flex min-h-11 list-none items-center gap-2 font-medium text-brand-800 hover:text-brand-600">
            <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
              ▸
            </span>
            <span className="underline underline-offset-4">{td('rules.title')}</span>
          </summary>
          <ul className="mt-2 list-disc space-y-2 pl-6 text-muted">
            {(['people', 'appointments', 'revenue', 'subscriptions'] as const).map((rule) => (
              <li key={rule}>{td(`rules.${rule}`)}</li>
            ))}
          </ul>
        </details>
      </section>
    </main>
  )
}

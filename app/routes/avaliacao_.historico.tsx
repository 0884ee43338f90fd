import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { formatWhen, getDefinition, getTrends, languageOf, listResults, pillarNames } from '#app/provider/questionnaire.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { Pagination } from '#app/ui/list-controls.tsx'
import { TrendLineChart } from '#app/ui/score-chart.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam } from '#app/utils/pagination.ts'

const PAGE_SIZE = 20

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['assessment'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'paciente' })
  const timeZone = timeZoneOr(user.time_zone)
  const [t, language, definition, results, trends] = await Promise.all([
    getFixedT(request, 'assessment'),
    languageOf(request),
    getDefinition().catch(errorResponseFor),
    pageOrLast((page) => listResults(auth, page, PAGE_SIZE), pageParam(new URL(request.url)), PAGE_SIZE).catch(errorResponseFor),
    getTrends(auth).catch(errorResponseFor),
  ])
  const names = pillarNames(definition, language)
  const charted = Math.max(0, ...trends.pillars.map((pillar) => pillar.series.length))
  // The dates the answers were sent on where the patient is (decision 0077).
  const shortDate = new Intl.DateTimeFormat(language === 'pt' ? 'pt-BR' : language, { day: '2-digit', month: '2-digit', timeZone })
  return data(
    {
      meta: { title: `${t('history.title')} · Innera`, description: t('history.lead') },
      count: results.list.count,
      page: results.page,
      results: results.list.results.map((result) => ({
        id: result.id,
        submittedAt: formatWhen(result.submitted_at, language, timeZone),
        focus: result.focus_pillars.map((slug) => names[slug] ?? slug),
      })),
      trends:
        trends.count >= 2
          ? trends.pillars.map((pillar) => ({
              slug: pillar.slug,
              name: names[pillar.slug] ?? pillar.slug,
              latest: pillar.latest,
              change: pillar.change,
              points: pillar.series.map((point) => ({ id: point.id, label: shortDate.format(new Date(point.submitted_at)), score: point.score })),
            }))
          : [],
      // The provider charts the newest submissions only (decision 0032): say so when there are more.
      trendsOf: trends.count >= 2 && trends.count > charted ? charted : null,
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function HistoryPage() {
  const { results, trends, trendsOf, count, page } = useLoaderData<typeof loader>()
  const { t } = useTranslation('assessment')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('history.title')}</h1>
      <p className="mt-2 text-muted">{t('history.lead')}</p>
      {results.length === 0 ? (
        <div className="mt-6 rounded-2xl bg-white p-6">
          <p>{t('history.empty')}</p>
          <Link className="btn-primary mt-4" to="/avaliacao">
            {t('history.start')}
          </Link>
        </div>
      ) : (
        <ul className="mt-6 space-y-3" data-testid="history-list">
          {results.map((result) => (
            <li key={result.id} className="rounded-2xl bg-white p-4 shadow-sm">
              <Link className="font-medium text-brand-800 underline" to={`/avaliacao/resultado/${result.id}`}>
                {t('history.open', { date: result.submittedAt })}
              </Link>
              <p className="text-sm text-muted">
                {t('result.focus')}: {result.focus.join(', ')}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pagination count={count} page={page} pageSize={PAGE_SIZE} />
      {trends.length ? (
        <section aria-labelledby="trends-title" className="mt-10" data-testid="trends">
          <h2 id="trends-title" className="text-2xl font-semibold">
            {t('history.trends')}
          </h2>
          {trendsOf ? <p className="mt-1 text-sm text-muted">{t('history.trendsRecent', { count: trendsOf })}</p> : null}
          <ul className="mt-4 grid gap-4 md:grid-cols-2">
            {trends.map((pillar) => (
              <li key={pillar.slug} className="rounded-2xl bg-white p-4 shadow-sm">
                <h3 className="text-lg font-semibold">{pillar.name}</h3>
                <TrendLineChart points={pillar.points} title={t('history.trendChart', { name: pillar.name })} />
                <p className="text-sm text-muted">
                  {pillar.points.map((point) => `${point.label}: ${point.score}`).join(' · ')}
                  {pillar.change !== null ? ` · ${t('history.change', { change: pillar.change > 0 ? `+${pillar.change}` : pillar.change })}` : null}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  )
}

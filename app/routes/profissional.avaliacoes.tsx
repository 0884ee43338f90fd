import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { formatWhen, getDefinition, languageOf, listSharedWithMe, pillarNames } from '#app/provider/questionnaire.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { Pagination } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam } from '#app/utils/pagination.ts'

const PAGE_SIZE = 20

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['assessment'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'profissional' })
  const [t, language, definition, shared] = await Promise.all([
    getFixedT(request, 'assessment'),
    languageOf(request),
    getDefinition().catch(errorResponseFor),
    pageOrLast((page) => listSharedWithMe(auth, page, PAGE_SIZE), pageParam(new URL(request.url)), PAGE_SIZE).catch(errorResponseFor),
  ])
  const names = pillarNames(definition, language)
  return data(
    {
      meta: { title: `${t('shared.title')} · Innera`, description: t('shared.lead') },
      count: shared.list.count,
      page: shared.page,
      results: shared.list.results.map((result) => ({
        id: result.id,
        patient: `${result.patient.first_name} ${result.patient.last_name}`.trim() || result.patient.username,
        submittedAt: formatWhen(result.submitted_at, language, timeZoneOr(user.time_zone)),
        focus: result.focus_pillars.map((slug) => names[slug] ?? slug),
      })),
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function SharedWithMePage() {
  const { results, count, page } = useLoaderData<typeof loader>()
  const { t } = useTranslation('assessment')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('shared.title')}</h1>
      <p className="mt-2 text-muted">{t('shared.lead')}</p>
      {results.length === 0 ? (
        <p className="mt-6 rounded-2xl bg-white p-6">{t('shared.empty')}</p>
      ) : (
        <ul className="mt-6 space-y-3" data-testid="shared-list">
          {results.map((result) => (
            <li key={result.id} className="rounded-2xl bg-white p-4 shadow-sm">
              <Link className="font-medium text-brand-800 underline" to={`/avaliacao/resultado/${result.id}`}>
                {t('shared.open', { name: result.patient, date: result.submittedAt })}
              </Link>
              <p className="text-sm text-muted">
                {t('result.focus')}: {result.focus.join(', ')}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pagination count={count} page={page} pageSize={PAGE_SIZE} />
    </main>
  )
}

import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { formatWhen, getDefinition, languageOf, listSharedWithMe, pillarNames } from '#app/provider/questionnaire.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['assessment'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'profissional' })
  const [t, language, definition, shared] = await Promise.all([
    getFixedT(request, 'assessment'),
    languageOf(request),
    getDefinition().catch(errorResponseFor),
    listSharedWithMe(auth).catch(errorResponseFor),
  ])
  const names = pillarNames(definition, language)
  return data(
    {
      meta: { title: `${t('shared.title')} · Innera`, description: t('shared.lead') },
      results: shared.results.map((result) => ({
        id: result.id,
        patient: `${result.patient.first_name} ${result.patient.last_name}`.trim() || result.patient.username,
        submittedAt: formatWhen(result.submitted_at, language),
        focus: result.focus_pillars.map((slug) => names[slug] ?? slug),
      })),
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function SharedWithMePage() {
  const { results } = useLoaderData<typeof loader>()
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
    </main>
  )
}

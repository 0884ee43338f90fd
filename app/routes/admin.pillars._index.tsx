import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { formatShortDateTime } from '#app/domain/appointments.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAdminPillars } from '#app/provider/admin-catalogue.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { StateBadges } from '#app/ui/content-editor-parts.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-catalogue'] }

/** The six pillars' texts for an admin (decision 0065): each pillar, whether it has a draft, a link to its editor. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const [t, language, list] = await Promise.all([getFixedT(request, 'admin-catalogue'), languageOf(request), listAdminPillars(auth).catch(errorResponseFor)])
  return data(
    {
      meta: { title: `${t('pillars.title')} · Innera`, description: t('pillars.lead') },
      pillars: list.results.map((pillar) => ({
        slug: pillar.slug,
        name: pillar.name[language],
        draftSince: pillar.draft ? formatShortDateTime(pillar.draft.updated_at, user.time_zone, language) : null,
      })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminPillars() {
  const { pillars } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin-catalogue')
  const { t: tAdmin } = useTranslation('admin')
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('pillars.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('pillars.lead')}</p>
      <ul className="mt-6 space-y-3">
        {pillars.map((pillar) => (
          <li key={pillar.slug} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
            <div>
              <h2 className="text-lg font-semibold">{pillar.name}</h2>
              <p className="mt-1">
                <StateBadges published draft={pillar.draftSince !== null} />
              </p>
              {pillar.draftSince ? <p className="mt-1 text-sm text-muted">{tAdmin('content.draftSince', { date: pillar.draftSince })}</p> : null}
            </div>
            <Link className="btn-secondary" to={`/admin/pillars/${pillar.slug}`}>
              {t('pillars.edit')}
              <span className="sr-only"> ({pillar.name})</span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  )
}

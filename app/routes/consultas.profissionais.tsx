import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { inPillarOrder, isPillarSlug } from '#app/domain/pillars.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { listBookableProfessionals } from '#app/provider/appointments.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { hasRole } from '#app/session/roles.ts'
import { ProfessionalCard } from '#app/ui/appointments/professional-card.tsx'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import { professionalView } from '#app/features/appointments/appointment-views.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['appointments'] }

/** The directory of accredited professionals, filtered by pillar with plain links (`?pilar=`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const requested = new URL(request.url).searchParams.get('pilar')
  const pillar = isPillarSlug(requested) ? requested : null
  const [t, language, professionals, pillars] = await Promise.all([
    getFixedT(request, 'appointments'),
    languageOf(request),
    listBookableProfessionals(auth, pillar ?? undefined).catch(errorResponseFor),
    pillarsForDisplay().catch(errorResponseFor),
  ])
  const patientZone = timeZoneOr(user.time_zone)
  return data({
    meta: { title: `${t('directory.title')} · Innera`, description: t('directory.lead') },
    pillar,
    canBook: hasRole(user.groups, 'paciente'),
    pillars: inPillarOrder(pillars).map((item) => ({ slug: item.slug, name: item.name[language] ?? item.name.en, icon: item.icon })),
    professionals: professionals.map((professional) => professionalView(professional, { language, patientZone, pillars })),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function DirectoryPage() {
  const { pillar, pillars, professionals, canBook } = useLoaderData<typeof loader>()
  const { t } = useTranslation('appointments')
  const filter = (active: boolean) =>
    `flex min-h-11 items-center gap-2 rounded-full border px-4 text-sm font-medium ${active ? 'border-brand-700 bg-brand-700 text-white' : 'border-brand-100 bg-white text-brand-800 hover:bg-brand-50'}`
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('directory.title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('directory.lead')}</p>
      <nav aria-label={t('directory.filter')} className="mt-6">
        <ul className="flex flex-wrap gap-2">
          <li>
            <Link to="/consultas/profissionais" className={filter(pillar === null)} aria-current={pillar === null ? 'page' : undefined}>
              {t('directory.allPillars')}
            </Link>
          </li>
          {pillars.map((item) => (
            <li key={item.slug}>
              <Link to={`?pilar=${item.slug}`} className={filter(pillar === item.slug)} aria-current={pillar === item.slug ? 'page' : undefined}>
                <PillarIcon icon={item.icon} className="size-5" />
                {item.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {professionals.length === 0 ? (
        <p className="mt-6 rounded-2xl bg-white p-6">{pillar ? t('directory.emptyPillar') : t('directory.empty')}</p>
      ) : (
        <ul className="mt-6 space-y-4" data-testid="professionals">
          {professionals.map((professional) => (
            <li key={professional.id}>
              <ProfessionalCard professional={professional}>
                {canBook ? (
                  <Link className="btn-primary mt-2" to={`/consultas/agendar/${professional.id}`}>
                    {t('directory.book')}
                    <span className="sr-only">: {professional.name}</span>
                  </Link>
                ) : null}
              </ProfessionalCard>
            </li>
          ))}
        </ul>
      )}
      {canBook ? (
        <p className="mt-8">
          <Link className="link" to="/consultas">
            {t('directory.mine')}
          </Link>
        </p>
      ) : null}
    </main>
  )
}

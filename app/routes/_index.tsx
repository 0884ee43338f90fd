import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { isProviderError } from '#app/provider/errors.ts'
import { listPillars } from '#app/provider/pillars.server.ts'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common, which every page loads: the home page's texts are here only). */
export const handle = { i18n: ['home'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const [t, locale, pillars] = await Promise.all([
    getFixedT(request, 'home'),
    i18nServer().getLocale(request),
    // The home page still serves its visitors when the provider is away; the pillars say so.
    listPillars().catch((error: unknown) => {
      if (isProviderError(error)) return null
      throw error
    }),
  ])
  return {
    meta: { title: t('metaTitle'), description: t('metaDescription') },
    pillars: pillars?.map((pillar) => ({
      id: pillar.id,
      slug: pillar.slug,
      icon: pillar.icon,
      position: pillar.position,
      name: pillar.name[locale as 'pt'] ?? pillar.name.en,
      description: pillar.description[locale as 'pt'] ?? pillar.description.en,
    })),
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function Home() {
  const { pillars } = useLoaderData<typeof loader>()
  const { t } = useTranslation('home')
  return (
    <main id="main">
      <section className="bg-brand-800 text-white">
        <div className="container-page py-16 sm:py-24">
          <h1 className="max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">{t('heroTitle')}</h1>
          <p className="mt-6 max-w-2xl text-lg text-brand-50 sm:text-xl">{t('heroLead')}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/programa" className="btn bg-white text-brand-800 hover:bg-brand-50">
              {t('heroCta')}
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="pillars-title" className="container-page py-16">
        <h2 id="pillars-title" className="text-3xl font-bold tracking-tight">
          {t('pillarsTitle')}
        </h2>
        <p className="mt-2 text-lg text-muted">{t('pillarsLead')}</p>
        {pillars ? (
          <ol className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {pillars.map((pillar) => (
              <li key={pillar.id} id={`pilar-${pillar.slug}`} className="rounded-2xl border border-brand-100 bg-white p-6 shadow-sm">
                <PillarIcon icon={pillar.icon} className="size-10 text-brand-700" />
                <h3 className="mt-4 text-xl font-semibold">{pillar.name}</h3>
                <p className="mt-2 text-muted">{pillar.description}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p role="status" className="mt-8 rounded-xl bg-white p-6 text-muted">
            {t('pillarsUnavailable')}
          </p>
        )}
      </section>

      <section aria-label={t('programTitle')} className="container-page grid gap-4 pb-16 md:grid-cols-2">
        {(
          [
            { key: 'program', to: '/programa' },
            { key: 'assessment', to: '/avaliacao' },
          ] as const
        ).map((card) => (
          <div key={card.key} className="rounded-2xl bg-white p-6 shadow-sm">
            <h2 className="text-2xl font-bold tracking-tight">{t(`${card.key}Title`)}</h2>
            <p className="mt-2 text-lg text-muted">{t(`${card.key}Body`)}</p>
            <Link to={card.to} className="btn-primary mt-4">
              {t(`${card.key}Cta`)}
            </Link>
          </div>
        ))}
      </section>
    </main>
  )
}

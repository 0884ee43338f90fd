import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getAdminContentSummary } from '#app/provider/admin-content.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin'] }

/**
 * The content editor's front page (issue 26, decision 0064): each kind of content, how much of it
 * is published and how many drafts wait, with the way to its editor.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const [t, summary] = await Promise.all([getFixedT(request, 'admin'), getAdminContentSummary(auth).catch(errorResponseFor)])
  const sections = [
    { key: 'pillars', to: '/admin/pillars', counts: [t('content.hub.pillarsCount', { count: summary.pillars.published })], drafts: summary.pillars.drafts },
    {
      key: 'products',
      to: '/admin/products',
      counts: [t('content.hub.productsCount', { count: summary.products.published }), t('content.hub.onSale', { count: summary.products.on_sale })],
      drafts: summary.products.drafts,
    },
    {
      key: 'courses',
      to: '/admin/courses',
      counts: [t('content.hub.coursesCount', { count: summary.courses.published }), t('content.hub.lessonsCount', { count: summary.courses.lessons })],
      drafts: summary.courses.drafts,
    },
    { key: 'liveClasses', to: '/admin/live-classes', counts: [t('content.hub.upcomingClasses', { count: summary.live_classes.upcoming })], drafts: summary.live_classes.drafts },
    {
      key: 'questionnaire',
      to: '/admin/questionnaire',
      counts: [
        t('content.hub.versionsCount', { count: summary.questionnaire.versions }),
        summary.questionnaire.current ? t('content.hub.currentVersion', { version: summary.questionnaire.current }) : t('content.hub.noCurrentVersion'),
      ],
      drafts: summary.questionnaire.drafts,
    },
  ]
  return data(
    { meta: { title: `${t('content.hub.title')} · Innera`, description: t('content.hub.lead') }, sections },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminContent() {
  const { sections } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin')
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('content.hub.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('content.hub.lead')}</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {sections.map((section) => (
          <li key={section.key} className="flex flex-col rounded-2xl bg-white p-6 shadow-sm">
            <h2 className="text-xl font-semibold">
              <Link className="link" to={section.to}>
                {t(`content.hub.sections.${section.key}.title`)}
              </Link>
            </h2>
            <p className="mt-1 text-muted">{t(`content.hub.sections.${section.key}.lead`)}</p>
            <ul className="mt-3 space-y-1 text-sm">
              {section.counts.map((line) => (
                <li key={line}>{line}</li>
              ))}
              <li className={section.drafts > 0 ? 'font-semibold text-amber-900' : 'text-muted'}>{t('content.hub.drafts', { count: section.drafts })}</li>
            </ul>
          </li>
        ))}
      </ul>
    </main>
  )
}

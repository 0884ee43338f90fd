import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { getUserStats } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const [t, stats] = await Promise.all([getFixedT(request, 'admin'), getUserStats(auth).catch(errorResponseFor)])
  return data({ meta: { title: `${t('dashboard.title')} · Innera`, description: t('dashboard.lead') }, stats })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminDashboard() {
  const { stats } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin')
  const cards = [
    { key: 'total', value: stats.total, to: '/admin/users' },
    { key: 'paciente', value: stats.by_group.paciente, to: '/admin/users?group=paciente' },
    { key: 'profissional', value: stats.by_group.profissional, to: '/admin/users?group=profissional' },
    { key: 'admin', value: stats.by_group.admin, to: '/admin/users?group=admin' },
  ]
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
    </main>
  )
}

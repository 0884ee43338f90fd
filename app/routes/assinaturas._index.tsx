import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { subscriptionView } from '#app/features/purchases/subscription.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { listSubscriptions } from '#app/provider/subscriptions.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { EmptyShopList } from '#app/ui/shop/add-to-cart.tsx'
import { SubscriptionSummary } from '#app/ui/shop/subscription-summary.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['orders', 'shop'] }

/** My subscriptions (`/assinaturas`, decision 0052): newest first, each with where it stands and a link to its page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request)
  const [t, language, list] = await Promise.all([getFixedT(request, ['orders', 'shop']), languageOf(request), listSubscriptions(auth).catch(errorResponseFor)])
  return data(
    { meta: { title: `${t('subscriptions.title')} · Innera`, description: t('subscriptions.lead') }, subscriptions: list.results.map((item) => subscriptionView(item, language)) },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function SubscriptionsPage() {
  const { subscriptions } = useLoaderData<typeof loader>()
  const { t } = useTranslation('orders')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/compras" className="link">
          {t('purchases.title')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('subscriptions.title')}</h1>
      <p className="mt-2 text-muted">{t('subscriptions.lead')}</p>
      {subscriptions.length === 0 ? (
        <EmptyShopList message={t('subscriptions.empty')} />
      ) : (
        <ul className="mt-6 space-y-3" data-testid="subscriptions">
          {subscriptions.map((subscription) => (
            <li key={subscription.id} className="rounded-2xl border border-brand-100 bg-white p-5">
              <h2 className="text-lg font-semibold">
                <Link to={`/assinaturas/${subscription.id}`} className="hover:underline">
                  {subscription.plan}
                </Link>
              </h2>
              <SubscriptionSummary subscription={subscription} />
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}

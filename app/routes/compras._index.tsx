import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { formatMoney } from '#app/domain/money.ts'
import { formatInstantDate } from '#app/domain/viewer-times.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { listPurchases } from '#app/provider/purchases.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { Pagination } from '#app/ui/list-controls.tsx'
import { EmptyShopList } from '#app/ui/shop/add-to-cart.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam } from '#app/utils/pagination.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['orders', 'shop'] }

const PURCHASES_PAGE_SIZE = 20

/** My purchases (`/compras`, docs/product.md §2): newest first, 20 a page, each linking to its page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const page = pageParam(new URL(request.url))
  const [t, language, found] = await Promise.all([
    getFixedT(request, ['orders', 'shop']),
    languageOf(request),
    pageOrLast((at) => listPurchases(auth, at, PURCHASES_PAGE_SIZE), page, PURCHASES_PAGE_SIZE).catch(errorResponseFor),
  ])
  return data(
    {
      meta: { title: `${t('purchases.title')} · Innera`, description: t('purchases.lead') },
      count: found.list.count,
      page: found.page,
      purchases: found.list.results.map((purchase) => ({
        id: purchase.id,
        status: purchase.status,
        // The date it was made on where the buyer is (decision 0077).
        date: formatInstantDate(purchase.created_at, timeZoneOr(user.time_zone), language, 'medium'),
        total: formatMoney(purchase.total_cents, language),
        names: purchase.items.map((item) => item.name[language]),
      })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function PurchasesPage() {
  const { count, page, purchases } = useLoaderData<typeof loader>()
  const { t } = useTranslation('orders')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('purchases.title')}</h1>
      <p className="mt-2">
        <Link to="/assinaturas" className="link">
          {t('subscriptions.link')}
        </Link>
      </p>
      {purchases.length === 0 ? (
        <EmptyShopList message={t('purchases.empty')} />
      ) : (
        <ul className="mt-6 space-y-3" data-testid="purchases">
          {purchases.map((purchase) => (
            <li key={purchase.id} className="rounded-2xl border border-brand-100 bg-white p-5">
              <div className="flex flex-wrap items-baseline justify-between gap-3">
                <h2 className="text-lg font-semibold">
                  <Link to={`/compras/${purchase.id}`} className="hover:underline">
                    {t('purchase.title', { id: purchase.id })}
                  </Link>
                </h2>
                <span className="font-bold text-brand-800">{purchase.total}</span>
              </div>
              <p className="mt-1 text-sm text-muted">
                {purchase.date} · {t(`purchase.status.${purchase.status}`)}
              </p>
              <p className="mt-1">{purchase.names.join(', ')}</p>
            </li>
          ))}
        </ul>
      )}
      <Pagination count={count} page={page} pageSize={PURCHASES_PAGE_SIZE} />
    </main>
  )
}

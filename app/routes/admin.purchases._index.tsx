import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { filterParams, providerQuery, purchaseRow, readPurchaseQuery } from '#app/features/admin/admin-purchases.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAdminPurchases } from '#app/provider/admin-purchases.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { PAYMENT_METHODS, PURCHASE_STATUSES } from '#app/provider/purchase-schemas.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { DateRangeFilter } from '#app/ui/date-range-filter.tsx'
import { Pagination, SearchFilter, SelectFilter } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageInfo } from '#app/utils/pagination.ts'

const PAGE_SIZE = 20

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-purchases'] }

/**
 * Every buyer's purchases (`/admin/purchases`, decision 0061): a GET filter form (status, method,
 * dates, a search in the buyer or the number) that works without JavaScript, 20 a page, each
 * opening its history, and the same filters as a CSV export. Dates and times are the admin's
 * zone's, named beside the form (decision 0077).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const timeZone = timeZoneOr(user.time_zone)
  const query = readPurchaseQuery(new URL(request.url))
  const [t, language, { list, page }] = await Promise.all([
    getFixedT(request, 'admin-purchases'),
    languageOf(request),
    pageOrLast((page) => listAdminPurchases(auth, providerQuery(query, timeZone), page, PAGE_SIZE), query.page, PAGE_SIZE).catch(errorResponseFor),
  ])
  return data(
    {
      meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
      query: { ...query, page },
      count: list.count,
      zone: timeZoneLabel(timeZone, language, new Date()),
      exportUrl: `/admin/purchases/export${filterParams(query)}`,
      // The choices come with the data: the schemas' module (zod) stays out of the page's first load.
      statuses: PURCHASE_STATUSES,
      methods: PAYMENT_METHODS,
      purchases: list.results.map((purchase) => purchaseRow(purchase, language, timeZone)),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminPurchases() {
  const { query, count, zone, purchases, exportUrl, statuses, methods } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin-purchases')
  const info = pageInfo({ count, page: query.page, pageSize: PAGE_SIZE })
  const filtered = Boolean(query.search || query.status || query.method || query.from || query.to)
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('list.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('list.lead')}</p>
      <Form method="get" role="search" aria-label={t('list.filters')} className="mt-6 flex flex-wrap items-end gap-3">
        <SearchFilter label={t('list.search')} defaultValue={query.search} />
        <SelectFilter
          name="status"
          label={t('list.status')}
          defaultValue={query.status}
          allLabel={t('list.allStatuses')}
          options={statuses.map((status) => ({ value: status, label: t(`status.${status}`) }))}
        />
        <SelectFilter name="method" label={t('list.method')} defaultValue={query.method} allLabel={t('list.allMethods')} options={methods.map((method) => ({ value: method, label: t(`method.${method}`) }))} />
        <DateRangeFilter from={query.from} to={query.to} labels={{ from: t('list.from'), to: t('list.to') }} describedBy="dates-hint" />
        <button type="submit" className="btn-primary">
          {t('list.apply')}
        </button>
        {filtered ? (
          <Link to="/admin/purchases" className="btn-secondary">
            {t('list.clear')}
          </Link>
        ) : null}
      </Form>
      <p id="dates-hint" className="mt-2 text-sm text-muted">
        {t('list.datesHint', { zone })}
      </p>
      {query.reversed ? (
        <p role="alert" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
          {t('list.reversedDates')}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted" role="status">
          {t('list.showing', { first: info.first, last: info.last, count })}
        </p>
        {/* A file, not a page: the browser downloads it (the filters as the list shows them). */}
        <a href={exportUrl} download className="btn-secondary" aria-describedby="export-hint">
          {t('list.export')}
        </a>
      </div>
      <p id="export-hint" className="sr-only">
        {t('list.exportHint')}
      </p>
      {purchases.length > 0 ? (
        <div className="mt-4 overflow-x-auto rounded-2xl bg-white shadow-sm">
          <table className="w-full text-left" data-testid="admin-purchases">
            <caption className="sr-only">{t('list.title')}</caption>
            <thead className="border-b border-brand-100 text-sm text-muted">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {t('list.number')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('list.date')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('list.buyer')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('list.items')}
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  {t('list.total')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('list.status')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-brand-100">
              {purchases.map((purchase) => (
                <tr key={purchase.id}>
                  <td className="px-4 py-3">
                    <Link className="link font-medium" to={`/admin/purchases/${purchase.id}`} aria-label={t('list.open', { id: purchase.id })}>
                      {purchase.id}
                    </Link>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <time dateTime={purchase.createdAt}>{purchase.created}</time>
                  </td>
                  <td className="px-4 py-3">
                    <span className="font-medium">{purchase.buyer.name}</span>
                    <span className="block break-all text-sm text-muted">{purchase.buyer.email}</span>
                  </td>
                  <td className="px-4 py-3 text-sm">{purchase.items.join(', ')}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap">
                    {purchase.total}
                    <span className="block text-sm text-muted">{t(`method.${purchase.method}`)}</span>
                    {purchase.refunded ? <span className="block text-sm text-muted">{t('list.refunded', { amount: purchase.refunded })}</span> : null}
                  </td>
                  <td className="px-4 py-3">{t(`status.${purchase.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="mt-4 rounded-2xl bg-white p-6 text-muted">{t('list.empty')}</p>
      )}
      <Pagination count={count} page={query.page} pageSize={PAGE_SIZE} />
    </main>
  )
}

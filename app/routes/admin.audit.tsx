import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { AUDIT_ACTION_FILTERS, actionKey, auditFilterParams, auditProviderQuery, auditRow, readAuditQuery } from '#app/features/admin/admin-audit.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAuditEntries } from '#app/provider/admin-audit.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { DateRangeFilter } from '#app/ui/date-range-filter.tsx'
import { Pagination, SearchFilter, SelectFilter } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageInfo } from '#app/utils/pagination.ts'

const PAGE_SIZE = 50

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin'] }

/**
 * The audit log (`/admin/audit`, decision 0059): every admin change and every staff read of a
 * patient's health data, newest first; a GET filter form (action, who, whose, dates) that works
 * without JavaScript, 50 a page, and the same filters as a CSV export. Dates and times are the
 * admin's zone's, named beside the form (decision 0077).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const timeZone = timeZoneOr(user.time_zone)
  const query = readAuditQuery(new URL(request.url))
  const [t, language, { list, page }] = await Promise.all([
    getFixedT(request, 'admin'),
    languageOf(request),
    pageOrLast((page) => listAuditEntries(auth, auditProviderQuery(query, timeZone), page, PAGE_SIZE), query.page, PAGE_SIZE).catch(errorResponseFor),
  ])
  return data(
    {
      meta: { title: `${t('audit.title')} · Innera`, description: t('audit.lead') },
      query: { ...query, page },
      count: list.count,
      zone: timeZoneLabel(timeZone, language, new Date()),
      exportUrl: `/admin/audit/export${auditFilterParams(query)}`,
      actions: AUDIT_ACTION_FILTERS.map((action) => ({ value: action, label: t(actionKey(action)) })),
      entries: list.results.map((entry) => auditRow(entry, { language, timeZone, t })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminAudit() {
  const { query, count, zone, entries, actions, exportUrl } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin')
  const info = pageInfo({ count, page: query.page, pageSize: PAGE_SIZE })
  const filtered = Boolean(query.action || query.actor || query.subject || query.from || query.to)
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('audit.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('audit.lead')}</p>
      <Form method="get" role="search" aria-label={t('audit.filters')} className="mt-6 flex flex-wrap items-end gap-3">
        <SelectFilter name="action" label={t('audit.action')} defaultValue={query.action} allLabel={t('audit.allActions')} options={actions} />
        <SearchFilter name="actor" label={t('audit.actor')} defaultValue={query.actor} />
        <SearchFilter name="subject" label={t('audit.subject')} defaultValue={query.subject} />
        <DateRangeFilter from={query.from} to={query.to} labels={{ from: t('audit.from'), to: t('audit.to') }} describedBy="audit-hint" />
        <button type="submit" className="btn-primary">
          {t('audit.apply')}
        </button>
        {filtered ? (
          <Link to="/admin/audit" className="btn-secondary">
            {t('audit.clear')}
          </Link>
        ) : null}
      </Form>
      <p id="audit-hint" className="mt-2 text-sm text-muted">
        {t('audit.hint', { zone })}
      </p>
      {query.dropped ? (
        <p role="alert" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
          {t('audit.dropped')}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted" role="status">
          {t('audit.showing', { first: info.first, last: info.last, count })}
        </p>
        {/* A file, not a page: the browser downloads it (the filters as the list shows them). */}
        <a href={exportUrl} download className="btn-secondary" aria-describedby="export-hint">
          {t('audit.export')}
        </a>
      </div>
      <p id="export-hint" className="sr-only">
        {t('audit.exportHint')}
      </p>
      {entries.length > 0 ? (
        <div className="mt-4 overflow-x-auto rounded-2xl bg-white shadow-sm">
          <table className="w-full text-left text-sm" data-testid="audit-entries">
            <caption className="sr-only">{t('audit.title')}</caption>
            <thead className="border-b border-brand-100 text-muted">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {t('audit.when')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('audit.who')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('audit.what')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('audit.whose')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('audit.changes')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-brand-100 align-top">
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="whitespace-nowrap px-4 py-3">
                    <time dateTime={entry.at}>{entry.when}</time>
                  </td>
                  <td className="px-4 py-3">
                    {entry.actor ? (
                      <>
                        <Link className="link font-medium" to={`/admin/users/${entry.actor.id}`}>
                          {entry.actor.name}
                        </Link>
                        <span className="block break-all text-muted">{entry.actor.email}</span>
                        <span className="block text-muted">{entry.actor.role}</span>
                      </>
                    ) : (
                      <span className="text-muted">{t('audit.system')}</span>
                    )}
                  </td>
                  <td className="px-4 py-3">
                    <span className="font-medium">{entry.action}</span>
                    <span className="block text-muted">{entry.target}</span>
                  </td>
                  <td className="px-4 py-3">
                    {entry.subject ? (
                      <Link className="link" to={`/admin/users/${entry.subject.id}`}>
                        {entry.subject.name}
                      </Link>
                    ) : (
                      <span className="text-muted">—</span>
                    )}
                  </td>
                  <td className="px-4 py-3">
                    {entry.changes.length > 0 ? (
                      <ul className="space-y-1">
                        {entry.changes.map((change) => (
                          <li key={change.field}>
                            <span className="font-medium">{change.field}</span>: {t('audit.change', { before: change.before ?? '—', after: change.after ?? '—' })}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                    {entry.reason ? <p className="mt-1 whitespace-pre-line break-words">{t('audit.reason', { reason: entry.reason })}</p> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="mt-4 rounded-2xl bg-white p-6 text-muted">{t('audit.empty')}</p>
      )}
      <Pagination count={count} page={query.page} pageSize={PAGE_SIZE} />
    </main>
  )
}

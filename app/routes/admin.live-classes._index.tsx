import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { classRow, draftRow } from '#app/features/admin/admin-classes.server.ts'
import { pillarNamesOf } from '#app/features/courses/courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAdminClasses } from '#app/provider/admin-classes.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { StateBadge } from '#app/ui/admin-class-forms.tsx'
import { Pagination } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam } from '#app/utils/pagination.ts'

const PAGE_SIZE = 20

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-classes'] }

/**
 * The live classes for an admin (`/admin/live-classes`, decision 0067): the classes ahead (or,
 * `?when=past`, those started), each with its time in the admin's zone, seats taken of the total,
 * its state and whether a draft waits; the drafts of classes not yet published; a new class.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const url = new URL(request.url)
  const when = url.searchParams.get('when') === 'past' ? 'past' : 'upcoming'
  const timeZone = timeZoneOr(user.time_zone)
  const [t, language, pillars, { list, page }] = await Promise.all([
    getFixedT(request, 'admin-classes'),
    languageOf(request),
    pillarsForDisplay().catch(() => []),
    pageOrLast((page) => listAdminClasses(auth, { when, page, pageSize: PAGE_SIZE }), pageParam(url), PAGE_SIZE).catch(errorResponseFor),
  ])
  const pillarNames = pillarNamesOf(pillars, language)
  return data(
    {
      meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
      when,
      page,
      count: list.count,
      classes: list.results.map((cls) => classRow(cls, { language, timeZone, pillarNames })),
      drafts: list.new_drafts.map((draft) => draftRow(draft, { language, timeZone })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminLiveClasses() {
  const { when, page, count, classes, drafts } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin-classes')
  const { t: tAdmin } = useTranslation('admin')
  const tab = (target: 'upcoming' | 'past') => (
    <Link to={target === 'past' ? '?when=past' : '?'} aria-current={when === target ? 'page' : undefined} className={when === target ? 'btn-primary' : 'btn-secondary'}>
      {t(`list.${target}`)}
    </Link>
  )
  return (
    <main id="main">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{t('list.title')}</h1>
          <p className="mt-2 max-w-3xl text-muted">{t('list.lead')}</p>
        </div>
        <Link to="/admin/live-classes/new" className="btn-primary">
          {t('list.new')}
        </Link>
      </div>

      {drafts.length > 0 ? (
        <section aria-labelledby="drafts-title" className="mt-6">
          <h2 id="drafts-title" className="text-xl font-semibold">
            {t('list.newDrafts')}
          </h2>
          <ul className="mt-3 space-y-3">
            {drafts.map((draft) => (
              <li key={draft.slug} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm">
                <div>
                  <Link className="link font-semibold" to={`/admin/live-classes/${draft.slug}`}>
                    {draft.title}
                  </Link>
                  <p className="text-sm text-muted">{draft.when ?? t('list.noDate')}</p>
                </div>
                <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900">{tAdmin('content.draft')}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <nav aria-label={t('list.which')} className="mt-6 flex flex-wrap gap-3">
        {tab('upcoming')}
        {tab('past')}
      </nav>

      {classes.length > 0 ? (
        <ul className="mt-4 space-y-3" data-testid="admin-classes">
          {classes.map((cls) => (
            <li key={cls.slug} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <h2 className="text-lg font-semibold">
                    <Link className="link" to={`/admin/live-classes/${cls.slug}`}>
                      {cls.title}
                    </Link>
                  </h2>
                  <p className="text-muted">{cls.when}</p>
                  <p className="text-sm text-muted">
                    {cls.pillar} · {cls.teacher}
                  </p>
                  <p className="mt-1">{t('list.seats', { taken: cls.seatsTaken, total: cls.seats })}</p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <StateBadge state={cls.state} />
                  {cls.hasDraft ? <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900">{tAdmin('content.draft')}</span> : null}
                </div>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 rounded-2xl bg-white p-6 text-muted">{t(when === 'past' ? 'list.emptyPast' : 'list.empty')}</p>
      )}
      <Pagination count={count} page={page} pageSize={PAGE_SIZE} />
    </main>
  )
}

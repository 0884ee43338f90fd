import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { draftDate, inLanguage } from '#app/features/admin/admin-content-courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAdminCourses } from '#app/provider/admin-content-courses.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { StateBadges } from '#app/ui/content-editor-parts.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-courses', 'admin'] }

/**
 * The courses for the content editor (`/admin/courses`, decisions 0064 and 0066): every course,
 * active or not, with its state (published, a draft waiting), the drafts of courses not yet
 * published, and "Novo curso".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const [t, language, list] = await Promise.all([getFixedT(request, 'admin-courses'), languageOf(request), listAdminCourses(auth).catch(errorResponseFor)])
  const pillarName = new Map(list.choices.pillars.map((pillar) => [pillar.slug, inLanguage(pillar.name, language)]))
  return data(
    {
      meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
      courses: list.results.map((course) => ({
        slug: course.slug,
        title: inLanguage(course.title, language),
        pillar: pillarName.get(course.pillar) ?? course.pillar,
        lessons: course.lessons_count,
        active: course.active,
        free: course.product_id === null,
        draft: course.draft ? draftDate(course.draft.updated_at, language, timeZoneOr(user.time_zone)) : null,
      })),
      newDrafts: list.new_drafts.map((draft) => ({ slug: draft.key, title: inLanguage(draft.title, language), since: draftDate(draft.updated_at, language, timeZoneOr(user.time_zone)) })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AdminCourses() {
  const { courses, newDrafts } = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin-courses')
  return (
    <main id="main">
      <p>
        <Link to="/admin/content" className="link">
          {t('list.back')}
        </Link>
      </p>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t('list.title')}</h1>
        <Link to="/admin/courses/new" className="btn-primary">
          {t('list.newCourse')}
        </Link>
      </div>
      <p className="mt-2 max-w-3xl text-muted">{t('list.lead')}</p>
      {courses.length > 0 ? (
        <ul className="mt-6 space-y-3" aria-label={t('list.title')}>
          {courses.map((course) => (
            <li key={course.slug} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
              <h2 className="text-lg font-semibold">
                <Link className="link" to={`/admin/courses/${course.slug}`}>
                  {course.title}
                </Link>
              </h2>
              <div className="mt-2">
                <StateBadges published draft={course.draft !== null} />
              </div>
              <p className="mt-2 text-sm text-muted">
                {[t('list.pillar', { name: course.pillar }), t('list.lessons', { count: course.lessons }), course.free ? t('list.free') : t('list.sold')].join(' · ')}
              </p>
              {course.active ? null : <p className="mt-1 text-sm font-semibold text-amber-900">{t('list.inactive')}</p>}
              {course.draft ? <p className="mt-1 text-sm text-muted">{t('list.draftSince', { date: course.draft })}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-6 rounded-2xl bg-white p-6 text-muted">{t('list.empty')}</p>
      )}
      {newDrafts.length > 0 ? (
        <section aria-labelledby="new-drafts" className="mt-8">
          <h2 id="new-drafts" className="text-xl font-semibold">
            {t('list.newDrafts')}
          </h2>
          <ul className="mt-3 space-y-3">
            {newDrafts.map((draft) => (
              <li key={draft.slug} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
                <h3 className="text-lg font-semibold">
                  <Link className="link" to={`/admin/courses/${draft.slug}`}>
                    {draft.title || t('list.untitled', { slug: draft.slug })}
                  </Link>
                </h3>
                <div className="mt-2">
                  <StateBadges published={false} draft />
                </div>
                <p className="mt-1 text-sm text-muted">{t('list.draftSince', { date: draft.since })}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  )
}

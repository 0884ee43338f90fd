import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { courseAction, courseDefaults, courseOptions, draftDate, inLanguage, slugParam } from '#app/features/admin/admin-content-courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getAdminCourse, listAdminLessons } from '#app/provider/admin-content-courses.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { DiscardDraftForm, StateBadges } from '#app/ui/content-editor-parts.tsx'
import { CourseEditorForm } from '#app/ui/admin-course-forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-courses', 'admin'] }

/**
 * One course in the content editor (`/admin/courses/{slug}`, decisions 0064 and 0066): its form
 * (the draft's values when there is one), "discard draft", and its lessons with their states and
 * "Nova aula" (or why no lesson can be added: no video without a lesson in the media folder).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const slug = slugParam(params.slug, 80)
  // The lessons are asked for beside the course, not after it. A course that is not published has
  // none (the provider answers 404), and then the answer, whatever it is, is not used.
  const lessonsCall = listAdminLessons(auth, slug).then(
    (lessons) => () => lessons,
    (error: unknown) => () => nullWhileResubmitting(error),
  )
  const [t, language, course, lessonsAnswer] = await Promise.all([getFixedT(request, 'admin-courses'), languageOf(request), getAdminCourse(auth, slug).catch(nullWhileResubmitting), lessonsCall])
  if (!course) throw data({ reason: 'provider' }, { status: 503 })
  const lessons = course.published ? lessonsAnswer() : null
  const name = inLanguage(course.published?.title ?? course.draft?.title ?? { pt: '', en: '', es: '' }, language) || slug
  return data(
    {
      meta: { title: `${t('course.title', { name })} · Innera`, description: t('course.lead') },
      slug,
      name,
      memberId: course.published?.active ? course.published.id : null,
      state: { published: course.published !== null, draft: course.draft !== null },
      draftSince: course.draft ? draftDate(course.draft.updated_at, language, timeZoneOr(user.time_zone)) : null,
      defaults: courseDefaults(course.published, course.draft),
      options: courseOptions(course.choices, slug, language, t),
      lessons: lessons && {
        results: lessons.results.map((lesson) => ({ slug: lesson.slug, number: lesson.number, title: inLanguage(lesson.title, language), free: lesson.free, draft: lesson.draft !== null })),
        newDrafts: lessons.new_drafts.map((draft) => ({ slug: draft.key, number: draft.number, title: inLanguage(draft.title, language) })),
        videos: lessons.videos.length,
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  return courseAction(request, auth, slugParam(params.slug, 80))
}

export default function AdminCoursePage() {
  const { slug, name, memberId, state, draftSince, defaults, options, lessons } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('admin-courses')
  const { t: tAdmin } = useTranslation('admin')
  return (
    <main id="main">
      <p>
        <Link to="/admin/courses" className="link">
          {t('course.back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('course.title', { name })}</h1>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <StateBadges {...state} />
        {memberId ? (
          <Link to={`/cursos/${memberId}`} className="link text-sm">
            {t('course.viewAsMember')}
          </Link>
        ) : null}
      </div>
      <p className="mt-2 max-w-3xl text-muted">{t('course.lead')}</p>
      {draftSince ? <DiscardDraftForm name={name} since={tAdmin('content.draftSince', { date: draftSince })} /> : null}
      <CourseEditorForm key={slug} isNew={false} name={name} defaults={defaults} options={options} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />
      <section aria-labelledby="lessons-title" className="mt-10 max-w-3xl">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="lessons-title" className="text-2xl font-semibold">
            {t('lessons.title')}
          </h2>
          {lessons && lessons.videos > 0 ? (
            <Link to={`/admin/courses/${slug}/lessons/new`} className="btn-secondary">
              {t('lessons.newLesson')}
            </Link>
          ) : null}
        </div>
        {lessons === null ? (
          <p className="mt-3 text-muted">{t('lessons.publishFirst')}</p>
        ) : (
          <>
            {lessons.videos === 0 ? <p className="mt-3 rounded-xl border border-gray-300 bg-white p-4">{t('lessons.noVideo')}</p> : null}
            {lessons.results.length > 0 ? (
              <ol className="mt-4 space-y-3">
                {lessons.results.map((lesson) => (
                  <li key={lesson.slug} className="rounded-2xl bg-white p-4 shadow-sm">
                    <p className="text-sm text-muted">{t('lessons.number', { number: lesson.number })}</p>
                    <h3 className="font-semibold">
                      <Link className="link" to={`/admin/courses/${slug}/lessons/${lesson.slug}`}>
                        {lesson.title}
                      </Link>
                    </h3>
                    <div className="mt-2 flex flex-wrap items-center gap-2">
                      <StateBadges published draft={lesson.draft} />
                      {lesson.free ? <span className="text-sm text-muted">{t('lessons.preview')}</span> : null}
                    </div>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="mt-3 text-muted">{t('lessons.empty')}</p>
            )}
            {lessons.newDrafts.length > 0 ? (
              <>
                <h3 className="mt-6 text-lg font-semibold">{t('lessons.newDrafts')}</h3>
                <ul className="mt-3 space-y-3">
                  {lessons.newDrafts.map((draft) => (
                    <li key={draft.slug} className="rounded-2xl bg-white p-4 shadow-sm">
                      <Link className="link font-semibold" to={`/admin/courses/${slug}/lessons/${draft.slug}`}>
                        {draft.title || draft.slug}
                      </Link>
                      <div className="mt-2">
                        <StateBadges published={false} draft />
                      </div>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        )}
      </section>
    </main>
  )
}

import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { courseView, lessonView, pillarNamesOf } from '#app/features/courses/courses.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getCourse, listLessons } from '#app/provider/courses.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { AccessBadge, CheckIcon, CoursePrice, CourseProgress, LockBox, LockIcon } from '#app/ui/courses/course-parts.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['courses'] }

/**
 * A course (`/cursos/{id}`, decision 0057): its progress and what to do next (start, continue, or
 * watch again), its lessons in order, and, locked, how to get it. Two provider calls in parallel
 * (the course, its lessons); the pillar's name from the process's copy (decision 0030).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request)
  const id = routeId(params)
  const [t, language, course, lessons, pillars] = await Promise.all([
    getFixedT(request, 'courses'),
    languageOf(request),
    getCourse(auth, id).catch(errorResponseFor),
    listLessons(auth, id).catch(errorResponseFor),
    pillarsForDisplay().catch(() => []),
  ])
  const view = courseView(course, { language, pillarNames: pillarNamesOf(pillars, language) })
  const items = lessons.map((lesson) => lessonView(lesson, course, language))
  const first = items[0]
  const preview = view.access === null ? items.find((lesson) => !lesson.locked) : undefined
  return data(
    {
      meta: { title: `${view.title} · ${t('list.title')} · Innera`, description: view.description },
      course: view,
      lessons: items,
      /** The primary action: where "Começar", "Continuar" or "Rever desde o início" goes. */
      next: view.access === null ? null : view.stage === 'done' ? (first?.id ?? null) : (view.nextLessonId ?? first?.id ?? null),
      previewId: preview?.id ?? null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function CoursePage() {
  const { course, lessons, next, previewId } = useLoaderData<typeof loader>()
  const { t } = useTranslation('courses')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/cursos" className="link">
          {t('course.back')}
        </Link>
      </p>
      <div className="mt-4 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
            <Link to={`/cursos?pilar=${course.pillar.slug}`} className="hover:underline">
              {course.pillar.name}
            </Link>
          </p>
          <h1 className="mt-1 text-3xl font-bold">{course.title}</h1>
          <p className="mt-2 text-muted">{t('course.facts', { lessons: t('card.lessons', { count: course.lessons }), duration: course.duration })}</p>
          <p className="mt-4 max-w-2xl whitespace-pre-line text-lg">{course.description}</p>
          <div className="mt-4 flex flex-wrap items-center gap-2">
            {course.access === null || course.access === 'free' ? <CoursePrice price={course.price} /> : null}
            <AccessBadge access={course.access} />
          </div>
          {course.access !== null ? <CourseProgress id="course-progress" done={course.progress.done} total={course.progress.total} className="mt-6 max-w-md" /> : null}
          <div className="mt-6 flex flex-wrap items-center gap-3">
            {course.stage === 'done' && course.access !== null ? (
              <p className="inline-flex items-center gap-1 font-semibold text-brand-800">
                <CheckIcon className="size-5" />
                {t('course.done')}
              </p>
            ) : null}
            {next ? (
              <Link to={`/aula/${next}`} className={course.stage === 'done' ? 'btn-secondary' : 'btn-primary'}>
                {t(course.stage === 'new' ? 'course.start' : course.stage === 'done' ? 'course.restart' : 'course.continue')}
              </Link>
            ) : null}
            {previewId ? (
              <Link to={`/aula/${previewId}`} className="btn-secondary">
                {t('course.preview')}
              </Link>
            ) : null}
          </div>
        </div>
        {course.poster ? <img src={course.poster} alt="" width={640} height={360} className="aspect-video w-full rounded-2xl bg-brand-50 object-cover" /> : null}
      </div>

      {course.access === null ? (
        <div className="mt-8 max-w-3xl">
          <LockBox id="lock-title" title={t('lock.courseTitle')} why={t('lock.courseWhy')} price={course.price} productId={course.productId} />
        </div>
      ) : null}

      <section aria-labelledby="lessons-title" className="mt-10 max-w-3xl">
        <h2 id="lessons-title" className="text-2xl font-semibold">
          {t('course.lessons')}
        </h2>
        <ol className="mt-4 space-y-3" data-testid="lessons">
          {lessons.map((lesson) => (
            <li key={lesson.id} className="flex gap-4 rounded-2xl bg-white p-4 shadow-sm sm:p-5">
              <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800">
                {lesson.number}
              </span>
              <div className="min-w-0 flex-1">
                <h3 className="text-lg font-semibold">
                  <Link to={`/aula/${lesson.id}`} className="hover:underline">
                    <span className="sr-only">{t('course.lessonNumber', { number: lesson.number })}: </span>
                    {lesson.title}
                  </Link>
                </h3>
                <p className="mt-1 text-muted">{lesson.summary}</p>
                <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
                  <span>
                    <span className="sr-only">{t('course.duration')}: </span>
                    {lesson.duration}
                  </span>
                  {lesson.done ? (
                    <span className="inline-flex items-center gap-1 font-semibold text-brand-800">
                      <CheckIcon />
                      {t('course.lessonDone')}
                    </span>
                  ) : null}
                  {lesson.preview ? <span className="rounded-full bg-brand-50 px-2 py-0.5 font-medium text-brand-800">{t('course.previewBadge')}</span> : null}
                  {lesson.locked ? (
                    <span className="inline-flex items-center gap-1 text-muted">
                      <LockIcon />
                      {t('course.lessonLocked')}
                    </span>
                  ) : null}
                </p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </main>
  )
}

import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { draftDate, duration, inLanguage, lessonAction, lessonDefaults, slugParam } from '#app/features/admin/admin-content-courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getAdminLesson } from '#app/provider/admin-content-courses.server.ts'
import { errorResponseFor, nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { DiscardDraftForm, StateBadges } from '#app/ui/content-editor-parts.tsx'
import { LessonEditorForm } from '#app/ui/admin-course-forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-courses', 'admin'] }

/**
 * One lesson of a course in the content editor (`/admin/courses/{slug}/lessons/{lesson}`,
 * decisions 0064 and 0066): its texts, number and free-preview flag, saved as a draft or
 * published; its video is named by the lesson and stays. Another course's lesson is a 404 here.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const course = slugParam(params.slug, 80)
  const slug = slugParam(params.lesson)
  const [t, language, lesson] = await Promise.all([getFixedT(request, 'admin-courses'), languageOf(request), getAdminLesson(auth, slug).catch(nullWhileResubmitting)])
  if (!lesson) throw data({ reason: 'provider' }, { status: 503 })
  if ((lesson.published?.course ?? lesson.draft?.course) !== course) throw data({ reason: 'not-found' }, { status: 404 })
  const name = inLanguage(lesson.published?.title ?? lesson.draft?.title ?? { pt: '', en: '', es: '' }, language) || slug
  return data(
    {
      meta: { title: `${t('lesson.title', { name })} · Innera`, description: t('lesson.lead') },
      course,
      slug,
      name,
      state: { published: lesson.published !== null, draft: lesson.draft !== null },
      draftSince: lesson.draft ? draftDate(lesson.draft.updated_at, language, timeZoneOr(user.time_zone)) : null,
      video: t('lesson.videoFile', { file: `${slug}.mp4`, duration: lesson.published ? duration(lesson.published.duration_seconds) : '—' }),
      defaults: lessonDefaults(lesson.published, lesson.draft),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const lesson = await getAdminLesson(auth, slugParam(params.lesson)).catch(errorResponseFor)
  const course = slugParam(params.slug, 80)
  if ((lesson.published?.course ?? lesson.draft?.course) !== course) throw data({ reason: 'not-found' }, { status: 404 })
  return lessonAction(request, auth, course, slugParam(params.lesson))
}

export default function AdminLessonPage() {
  const { course, slug, name, state, draftSince, video, defaults } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('admin-courses')
  const { t: tAdmin } = useTranslation('admin')
  return (
    <main id="main">
      <p>
        <Link to={`/admin/courses/${course}`} className="link">
          {t('lesson.back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('lesson.title', { name })}</h1>
      <div className="mt-2">
        <StateBadges {...state} />
      </div>
      <p className="mt-2 max-w-3xl text-muted">{video}</p>
      <p className="mt-1 max-w-3xl text-sm text-muted">{t('lesson.noRemoval')}</p>
      {draftSince ? <DiscardDraftForm name={name} since={tAdmin('content.draftSince', { date: draftSince })} /> : null}
      <LessonEditorForm key={slug} name={name} defaults={defaults} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />
    </main>
  )
}

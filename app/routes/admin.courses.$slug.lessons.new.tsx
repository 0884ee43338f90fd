import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { inLanguage, lessonAction, lessonDefaults, slugParam, videoOption } from '#app/features/admin/admin-content-courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAdminLessons } from '#app/provider/admin-content-courses.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { LessonEditorForm } from '#app/ui/admin-course-forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-courses', 'admin'] }

/**
 * A new lesson of a course (`/admin/courses/{slug}/lessons/new`, decision 0066): it shows one of
 * the media folder's videos that no lesson uses yet (its file names the lesson; its length, size
 * and captions come from the media), or the page says there is none.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const course = slugParam(params.slug, 80)
  const [t, language, lessons] = await Promise.all([getFixedT(request, 'admin-courses'), languageOf(request), listAdminLessons(auth, course).catch(errorResponseFor)])
  const used = new Set(lessons.results.map((lesson) => lesson.number))
  const next = Array.from({ length: 200 }, (_, index) => index + 1).find((number) => !used.has(number))
  return data(
    {
      meta: { title: `${t('lesson.titleNew')} · Innera`, description: t('lesson.leadNew') },
      course,
      courseName: inLanguage(lessons.course.title, language),
      videos: lessons.videos.map((video) => videoOption(video, t)),
      defaults: { ...lessonDefaults(null, null), number: next ? String(next) : '', video: lessons.videos.length === 1 ? lessons.videos[0]!.slug : '' },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  return lessonAction(request, auth, slugParam(params.slug, 80), null)
}

export default function AdminNewLessonPage() {
  const { course, courseName, videos, defaults } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('admin-courses')
  return (
    <main id="main">
      <p>
        <Link to={`/admin/courses/${course}`} className="link">
          {t('lesson.back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('lesson.titleNew')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('lesson.leadNewIn', { course: courseName })}</p>
      {videos.length > 0 ? (
        <LessonEditorForm videos={videos} name={t('lesson.titleNew')} defaults={defaults} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />
      ) : (
        <p className="mt-6 max-w-3xl rounded-2xl bg-white p-6">{t('lessons.noVideo')}</p>
      )}
    </main>
  )
}

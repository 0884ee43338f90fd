import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { courseAction, courseDefaults, courseOptions } from '#app/features/admin/admin-content-courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAdminCourses } from '#app/provider/admin-content-courses.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { CourseEditorForm } from '#app/ui/admin-course-forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-courses', 'admin'] }

/**
 * A new course (`/admin/courses/new`, decisions 0064 and 0066): its address (slug) first, then the
 * same form as a course's; saving keeps it as a draft named by the slug, publishing creates it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const [t, language, list] = await Promise.all([getFixedT(request, 'admin-courses'), languageOf(request), listAdminCourses(auth).catch(errorResponseFor)])
  return data(
    {
      meta: { title: `${t('course.titleNew')} · Innera`, description: t('course.leadNew') },
      defaults: { ...courseDefaults(null, null), slug: '' },
      options: courseOptions(list.choices, null, language, t),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  return courseAction(request, auth, null)
}

export default function AdminNewCoursePage() {
  const { defaults, options } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('admin-courses')
  return (
    <main id="main">
      <p>
        <Link to="/admin/courses" className="link">
          {t('course.back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('course.titleNew')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('course.leadNew')}</p>
      <CourseEditorForm isNew name={t('course.titleNew')} defaults={defaults} options={options} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />
    </main>
  )
}

import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { coursePillarNames, courseView, coursesFor, readCourseQuery } from '#app/features/courses/courses.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { listCoursePillars } from '#app/provider/courses.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { CourseCard } from '#app/ui/courses/course-parts.tsx'
import { PillarFilterForm } from '#app/ui/list-controls.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['courses'] }

/**
 * The courses (`/cursos`, decision 0057): signed in, every course by pillar, `?pilar=` from a GET
 * form that works without JavaScript (an unknown pillar shows them all). Two provider calls, in
 * parallel: the pillars that have courses, and the courses.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request)
  const query = readCourseQuery(new URL(request.url))
  const [t, language, pillars, courses] = await Promise.all([
    getFixedT(request, 'courses'),
    languageOf(request),
    listCoursePillars(auth).catch(errorResponseFor),
    coursesFor(auth, query.pilar).catch(errorResponseFor),
  ])
  const pillarNames = coursePillarNames(pillars, language)
  const views = courses.page.results.map((course) => courseView(course, { language, pillarNames }))
  // In the pillars' order (the provider's), each with its courses; a pillar it did not list comes last.
  const order = [...pillars.map((item) => item.pillar), ...views.map((course) => course.pillar.slug)]
  const groups = [...new Set(order)]
    .map((slug) => ({ slug, name: pillarNames[slug] ?? slug, courses: views.filter((course) => course.pillar.slug === slug) }))
    .filter((group) => group.courses.length > 0)
  return data(
    {
      meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
      pilar: courses.filtered ? query.pilar : '',
      pillars: pillars.map((item) => ({ value: item.pillar, label: pillarNames[item.pillar] ?? item.pillar })),
      count: views.length,
      groups,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function CoursesPage() {
  const { pilar, pillars, count, groups } = useLoaderData<typeof loader>()
  const { t } = useTranslation('courses')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('list.title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('list.lead')}</p>
      <PillarFilterForm
        clearTo="/cursos"
        pilar={pilar}
        pillars={pillars}
        texts={{ filters: t('list.filters'), pillar: t('list.pillar'), allPillars: t('list.allPillars'), apply: t('list.apply'), clear: t('list.clear') }}
      />
      <p className="mt-6 text-muted" role="status">
        {t('list.count', { count })}
      </p>
      {groups.length === 0 ? (
        <p className="mt-4 rounded-2xl bg-white p-6">{t('list.empty')}</p>
      ) : (
        groups.map((group) => (
          <section key={group.slug} aria-labelledby={`pillar-${group.slug}`} className="mt-8">
            <h2 id={`pillar-${group.slug}`} className="text-2xl font-semibold">
              {group.name}
            </h2>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid={`courses-${group.slug}`}>
              {group.courses.map((course) => (
                <li key={course.id}>
                  <CourseCard course={course} />
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </main>
  )
}

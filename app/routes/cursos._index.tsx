import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { coursePillarNames, courseView, coursesFor, readCourseQuery } from '#app/features/courses/courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { listCoursePillars } from '#app/provider/courses.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { CourseCard } from '#app/ui/courses/course-parts.tsx'
import { PillarFilteredList } from '#app/ui/pillar-filtered-list.tsx'
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
  return (
    <PillarFilteredList
      namespace="courses"
      clearTo="/cursos"
      pilar={pilar}
      pillars={pillars}
      count={count}
      sections={groups.map((group) => ({ key: group.slug, title: group.name, items: group.courses }))}
      idPrefix="pillar"
      testIdPrefix="courses"
      renderItem={(course) => <CourseCard course={course} />}
    />
  )
}

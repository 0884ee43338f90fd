import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { CLASSES_PAGE_SIZE, classesFor, groupByDay, liveClassView, readClassQuery } from '#app/features/live-classes/live-classes.server.ts'
import { pillarNamesOf } from '#app/features/courses/courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { LiveClassCard } from '#app/ui/classes/class-parts.tsx'
import { Pagination } from '#app/ui/list-controls.tsx'
import { PillarFilteredList } from '#app/ui/pillar-filtered-list.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['classes'] }

/**
 * The live classes (`/aulas-ao-vivo`, decision 0058): signed in, the upcoming classes by day in
 * the user's zone, `?pilar=` from a GET form that works without JavaScript (an unknown pillar shows
 * them all), the provider's pages beyond the first. One provider call (the classes); the pillars'
 * names from the process's copy (decision 0030).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const query = readClassQuery(new URL(request.url))
  const [t, language, pillars, classes] = await Promise.all([
    getFixedT(request, 'classes'),
    languageOf(request),
    pillarsForDisplay().catch(() => []),
    classesFor(auth, query).catch(errorResponseFor),
  ])
  const pillarNames = pillarNamesOf(pillars, language)
  const timeZone = timeZoneOr(user.time_zone)
  const now = new Date()
  const views = classes.page.results.map((cls) => liveClassView(cls, { language, timeZone, pillarNames, now }))
  return data(
    {
      meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
      pilar: classes.filtered ? query.pilar : '',
      pillars: pillars.map((pillar) => ({ value: pillar.slug, label: pillarNames[pillar.slug] ?? pillar.slug })),
      count: classes.page.count,
      page: query.page,
      pageSize: CLASSES_PAGE_SIZE,
      days: groupByDay(views, language),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function LiveClassesPage() {
  const { pilar, pillars, count, page, pageSize, days } = useLoaderData<typeof loader>()
  return (
    <PillarFilteredList
      namespace="classes"
      clearTo="/aulas-ao-vivo"
      pilar={pilar}
      pillars={pillars}
      count={count}
      sections={days.map((day) => ({ key: day.day, title: day.title, items: day.classes }))}
      idPrefix="day"
      testIdPrefix="classes"
      titleClassName="first-letter:uppercase"
      renderItem={(cls) => <LiveClassCard cls={cls} />}
    >
      <Pagination count={count} page={page} pageSize={pageSize} />
    </PillarFilteredList>
  )
}

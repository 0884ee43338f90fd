import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { archiveAction, trackAction } from '#app/features/habits/habits.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getHabitStats, listArchivedHabits, listHabits } from '#app/provider/habits.server.ts'
import { pageOrLast } from '#app/provider/pages.server.ts'
import { listPillars } from '#app/provider/pillars.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { FormError } from '#app/ui/forms.tsx'
import { HabitCard } from '#app/ui/habits/habit-card.tsx'
import { Pagination } from '#app/ui/list-controls.tsx'
import { shortDate } from '#app/domain/habits.ts'
import { habitCardView, habitsByPillar, pillarNames } from '#app/features/habits/habit-views.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { pageParam } from '#app/utils/pagination.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['habits'] }

/** Archived habits come by pages of this many (decision 0032); a patient may keep up to 170 of them. */
const ARCHIVED_PAGE_SIZE = 20

/** `?arquivados=1&page=N`: the list to come back to after restoring from it. */
function archivedUrl(page: number) {
  return page > 1 ? `/habitos?arquivados=1&page=${page}` : '/habitos?arquivados=1'
}

/**
 * My habits (issue 14): today's and this week's answers per pillar; `?arquivados=1` adds the
 * archived ones, a page at a time (`&page=N`; a page past the end shows the last one).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const url = new URL(request.url)
  const showArchived = url.searchParams.get('arquivados') === '1'
  const [t, language, habits, pillars, archived, stats] = await Promise.all([
    getFixedT(request, 'habits'),
    languageOf(request),
    listHabits(auth).catch(errorResponseFor),
    listPillars().catch(errorResponseFor),
    showArchived ? pageOrLast((page) => listArchivedHabits(auth, page, ARCHIVED_PAGE_SIZE), pageParam(url), ARCHIVED_PAGE_SIZE).catch(errorResponseFor) : null,
    // Each pillar's completion over its last days; the list shows without it when it cannot be read.
    getHabitStats(auth).catch(orNull),
  ])
  const names = pillarNames(pillars, language)
  const context = { language, names, today: habits.today, timeZone: habits.time_zone }
  return data({
    meta: { title: `${t('list.title')} · Innera`, description: t('list.lead') },
    today: shortDate(habits.today, language),
    groups: habitsByPillar(habits.results.map((habit) => habitCardView(habit, context)), pillars, names, stats?.pillars ?? null),
    archived: archived
      ? { habits: archived.list.results.map((habit) => habitCardView(habit, context)), count: archived.list.count, page: archived.page, pageSize: ARCHIVED_PAGE_SIZE }
      : null,
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

/** A day's answer (`intent=track`) or bringing an archived habit back (`intent=restore`). */
export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const form = await readFormData(request)
  const url = new URL(request.url)
  const back = url.searchParams.get('arquivados') === '1' ? archivedUrl(pageParam(url)) : '/habitos'
  if (form.get('intent') === 'restore') {
    const id = parseId(form.get('habit'))
    if (!id) throw data({ reason: 'invalid' }, { status: 400 })
    return archiveAction(request, auth, id, false, back)
  }
  return trackAction(request, auth, form, (habit) => `${back}#habito-${habit}`)
}

export default function HabitsPage() {
  const { groups, archived, today } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('habits')
  const failure = actionData && 'track' in actionData ? actionData.track : null
  const restoreError = actionData && 'error' in actionData ? actionData.error : null
  const empty = groups.length === 0
  return (
    <main id="main" className="container-page py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{t('list.title')}</h1>
          <p className="mt-2 max-w-2xl text-lg text-muted">{t('list.lead')}</p>
          <p className="mt-1 text-sm text-muted">{t('list.today', { date: today })}</p>
        </div>
        {empty ? null : (
          <Link to="/habitos/novo" className="btn-primary">
            {t('list.new')}
          </Link>
        )}
      </div>

      {empty ? (
        <div className="mt-6 rounded-2xl bg-white p-6">
          <p>{t('list.empty')}</p>
          <Link to="/habitos/novo" className="btn-primary mt-4">
            {t('list.createFirst')}
          </Link>
        </div>
      ) : (
        groups.map((group) => (
          <section key={group.pillar} aria-labelledby={`pillar-${group.pillar}`} className="mt-8">
            <h2 id={`pillar-${group.pillar}`} className="text-2xl font-semibold">
              {group.name}
            </h2>
            {group.rate ? (
              <p className="mt-1 text-sm text-muted">
                {group.rate.percent === null ? t('list.pillarRateNone', { days: group.rate.days }) : t('list.pillarRate', { percent: group.rate.percent, days: group.rate.days })}
              </p>
            ) : null}
            <div className="mt-4 space-y-4">
              {group.habits.map((habit) => (
                <HabitCard key={habit.id} habit={habit} failure={failure} />
              ))}
            </div>
          </section>
        ))
      )}

      <section aria-labelledby="archived-title" className="mt-10">
        <h2 id="archived-title" className="text-2xl font-semibold">
          {t('list.archivedTitle')}
        </h2>
        {archived === null ? (
          <p className="mt-2">
            <Link to="/habitos?arquivados=1" className="link" preventScrollReset>
              {t('list.showArchived')}
            </Link>
          </p>
        ) : (
          <>
            <div className="mt-2">
              <FormError errors={restoreError ? [restoreError] : null} />
            </div>
            {archived.habits.length === 0 ? (
              <p className="mt-2 text-muted">{t('list.noArchived')}</p>
            ) : (
              <ul className="mt-4 space-y-3">
                {archived.habits.map((habit) => (
                  <li key={habit.id} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm">
                    <div>
                      <Link to={`/habitos/${habit.id}`} className="link font-semibold">
                        {habit.name}
                      </Link>
                      <p className="text-sm text-muted">
                        {habit.pillarName}
                        {habit.archivedOn ? ` · ${t('list.archivedOn', { date: habit.archivedOn })}` : null}
                      </p>
                    </div>
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="intent" value="restore" />
                      <input type="hidden" name="habit" value={habit.id} />
                      <button type="submit" className="btn-secondary">
                        {t('list.restore')}
                        <span className="sr-only">: {habit.name}</span>
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
            <Pagination count={archived.count} page={archived.page} pageSize={archived.pageSize} preventScrollReset />
            <p className="mt-3">
              <Link to="/habitos" className="link" preventScrollReset>
                {t('list.hideArchived')}
              </Link>
            </p>
          </>
        )}
      </section>
    </main>
  )
}

import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { z } from 'zod'
import { MAX_WEEKS, MIN_WEEKS, progressPercent, weekOf } from '#app/domain/program.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { listCoursePillars } from '#app/provider/courses.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { listPillars } from '#app/provider/pillars.server.ts'
import { createProgram, getProgram, setGoalDone } from '#app/provider/program.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { listHabits } from '#app/provider/habits.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { FormError } from '#app/ui/forms.tsx'
import { failureText } from '#app/utils/messages.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { readPillarCookies } from '#app/features/pillars/pillar-cookies.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { MAX_ID } from '#app/utils/ids.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['program'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const [t, locale, program, pillars, cookies, habits, coursePillars] = await Promise.all([
    getFixedT(request, 'program'),
    i18nServer().getLocale(request),
    getProgram(auth).catch(errorResponseFor),
    listPillars().catch(errorResponseFor),
    readPillarCookies(request),
    // The habits beside this week's goals; without them the page still shows the program.
    listHabits(auth).catch(orNull),
    // The pillars that have courses (decision 0057): a goal's pillar links to them; without them, no link.
    listCoursePillars(auth).catch(orNull),
  ])
  const withCourses = new Set(coursePillars?.filter((item) => item.courses_count > 0).map((item) => item.pillar))
  const lng = locale as Language
  const names = Object.fromEntries(pillars.map((pillar) => [pillar.slug, pillar.name[lng] ?? pillar.name.en]))
  const goal = (item: NonNullable<typeof program>['schedule'][number]['goals'][number]) => ({
    id: item.id,
    pillar: names[item.pillar] ?? item.pillar,
    focus: item.focus,
    text: item.text[lng] ?? item.text.en,
    done: item.done,
  })
  return data(
    {
      meta: { title: `${t('title')} · Innera`, description: t('lead') },
      selectedPillars: cookies.selection?.selected.map((slug) => names[slug] ?? slug) ?? [],
      program: program
        ? {
            weeks: program.weeks,
            currentWeek: program.current_week,
            finished: program.finished,
            startsOn: program.starts_on,
            endsOn: program.ends_on,
            progress: { ...program.progress, percent: progressPercent(program.progress) },
            focus: program.focus_pillars.map((slug) => names[slug] ?? slug),
            // Each goal of this week with the habits of its pillar, the way to reach it (issue 14).
            thisWeek: (weekOf(program.schedule, program.current_week)?.goals ?? []).map((item) => ({
              ...goal(item),
              habits: habits ? { pillar: item.pillar, list: habits.results.filter((habit) => habit.pillar === item.pillar).map(({ id, name }) => ({ id, name })) } : null,
              coursesPillar: withCourses.has(item.pillar) ? item.pillar : null,
            })),
            schedule: program.schedule.map((week) => ({ week: week.week, startsOn: week.starts_on, endsOn: week.ends_on, goals: week.goals.map(goal) })),
          }
        : null,
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

const actionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('create'),
    source: z.enum(['questionnaire', 'selection']),
    weeks: z.union([z.literal('auto'), z.coerce.number().int().min(MIN_WEEKS).max(MAX_WEEKS)]),
  }),
  z.object({ intent: z.literal('goal'), goal: z.coerce.number().int().positive().max(MAX_ID), done: z.enum(['true', 'false']) }),
])

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const parsed = actionSchema.safeParse(Object.fromEntries(await readFormData(request)))
  const t = await getFixedT(request, ['common', 'program'])
  if (!parsed.success) return data({ error: t('program:invalid') }, { status: 400 })
  const input = parsed.data
  try {
    if (input.intent === 'goal') {
      await setGoalDone(auth, input.goal, input.done === 'true')
      return redirectWithToast('/meu-programa', { type: 'success', message: { key: input.done === 'true' ? 'program:goalDone' : 'program:goalUndone' } })
    }
    const weeks = input.weeks === 'auto' ? undefined : input.weeks
    let focus: string[] | undefined
    if (input.source === 'selection') {
      focus = (await readPillarCookies(request)).selection?.selected.filter((slug) => (PILLAR_ORDER as readonly string[]).includes(slug))
      if (!focus?.length) return data({ error: t('program:noSelection') }, { status: 400 })
    }
    await createProgram(auth, { weeks, focus_pillars: focus })
  } catch (error) {
    const message = error instanceof ProviderError && error.status === 409 ? t('program:needsAssessment') : failureText(t, error)
    return data({ error: message }, { status: 400 })
  }
  return redirectWithToast('/meu-programa', { type: 'success', message: { key: 'program:created' } })
}

type GoalHabits = { pillar: string; list: { id: number; name: string }[] } | null

function GoalToggle({ goal }: { goal: { id: number; pillar: string; text: string; done: boolean; focus: boolean; habits?: GoalHabits; coursesPillar?: string | null } }) {
  const { t } = useTranslation('program')
  return (
    <li className="flex flex-wrap items-start gap-3 rounded-xl border border-brand-100 bg-white p-4">
      <div className="min-w-48 flex-1">
        <p className="text-sm font-semibold text-brand-700">
          {goal.pillar}
          {goal.focus ? <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs text-brand-800">{t('focus')}</span> : null}
        </p>
        <p className={goal.done ? 'text-muted line-through' : ''}>{goal.text}</p>
        {goal.habits ? <GoalHabitLinks habits={goal.habits} goal={goal.text} /> : null}
        {goal.coursesPillar ? (
          <p className="mt-1 text-sm">
            <Link to={`/cursos?pilar=${goal.coursesPillar}`} className="link">
              {t('goalCourses', { pillar: goal.pillar })}
            </Link>
          </p>
        ) : null}
      </div>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="goal" />
        <input type="hidden" name="goal" value={goal.id} />
        <input type="hidden" name="done" value={goal.done ? 'false' : 'true'} />
        <button type="submit" className={goal.done ? 'btn-secondary' : 'btn-primary'} aria-pressed={goal.done}>
          {goal.done ? t('undo') : t('markDone')}
          <span className="sr-only">: {goal.text}</span>
        </button>
      </Form>
    </li>
  )
}

/** The habits that work towards a goal (those of its pillar), or the way to start one. */
function GoalHabitLinks({ habits, goal }: { habits: NonNullable<GoalHabits>; goal: string }) {
  const { t } = useTranslation('program')
  if (habits.list.length === 0) {
    return (
      <p className="mt-2 text-sm">
        <Link to={`/habitos/novo?pillar=${habits.pillar}`} className="link">
          {t('goalHabits.create')}
          <span className="sr-only">: {goal}</span>
        </Link>
      </p>
    )
  }
  return (
    <p className="mt-2 text-sm">
      <span className="text-muted">{t('goalHabits.label')} </span>
      {habits.list.map((habit, index) => (
        <span key={habit.id}>
          {index > 0 ? ', ' : null}
          <Link to={`/habitos/${habit.id}`} className="link">
            {habit.name}
          </Link>
        </span>
      ))}
    </p>
  )
}

export default function MyProgram() {
  const { program, selectedPillars } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('program')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('lead')}</p>
      <div className="mt-4">
        <FormError errors={actionData?.error ? [actionData.error] : null} />
      </div>
      {program ? (
        <>
          <section aria-labelledby="progress-title" className="mt-6 rounded-2xl bg-white p-6 shadow-sm">
            <h2 id="progress-title" className="text-xl font-semibold">
              {t('weekOf', { week: program.currentWeek, weeks: program.weeks })}
            </h2>
            <p className="mt-1 text-muted">{t('focusList', { pillars: program.focus.join(', ') })}</p>
            <label htmlFor="program-progress" className="mt-4 block font-medium">
              {t('progress', { done: program.progress.done, total: program.progress.total, percent: program.progress.percent })}
            </label>
            <progress id="program-progress" max={program.progress.total || 1} value={program.progress.done} className="mt-2 h-3 w-full accent-brand-700" />
          </section>
          <section aria-labelledby="this-week-title" className="mt-8">
            <h2 id="this-week-title" className="text-2xl font-semibold">
              {t('thisWeek')}
            </h2>
            <ul className="mt-4 space-y-3">
              {program.thisWeek.map((goal) => (
                <GoalToggle key={goal.id} goal={goal} />
              ))}
            </ul>
          </section>
          <section aria-labelledby="schedule-title" className="mt-10">
            <h2 id="schedule-title" className="text-2xl font-semibold">
              {t('schedule')}
            </h2>
            <div className="mt-4 space-y-2">
              {program.schedule.map((week) => (
                <details key={week.week} className="rounded-xl bg-white p-4 shadow-sm" open={week.week === program.currentWeek || undefined}>
                  <summary className="font-semibold">
                    {t('weekLabel', { week: week.week, done: week.goals.filter((goal) => goal.done).length, total: week.goals.length })}
                  </summary>
                  <ul className="mt-3 space-y-3">
                    {week.goals.map((goal) => (
                      <GoalToggle key={goal.id} goal={goal} />
                    ))}
                  </ul>
                </details>
              ))}
            </div>
          </section>
        </>
      ) : (
        <section aria-labelledby="create-title" className="mt-6 max-w-2xl rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="create-title" className="text-xl font-semibold">
            {t('create.title')}
          </h2>
          <Form method="post" className="mt-4 space-y-5">
            <input type="hidden" name="intent" value="create" />
            <fieldset>
              <legend className="font-medium">{t('create.source')}</legend>
              <label className="mt-2 flex min-h-11 items-start gap-3">
                <input type="radio" name="source" value="questionnaire" defaultChecked className="mt-1 size-5 accent-brand-700" />
                <span>{t('create.fromAssessment')}</span>
              </label>
              <label className="flex min-h-11 items-start gap-3">
                <input type="radio" name="source" value="selection" className="mt-1 size-5 accent-brand-700" />
                <span>
                  {selectedPillars.length > 0 ? t('create.fromSelection', { pillars: selectedPillars.join(', ') }) : t('create.fromSelectionEmpty')}{' '}
                  <Link to="/pilares" className="link">
                    {t('create.choosePillars')}
                  </Link>
                </span>
              </label>
            </fieldset>
            <div>
              <label htmlFor="weeks" className="block font-medium">
                {t('create.weeks')}
              </label>
              <select id="weeks" name="weeks" defaultValue="auto" className="mt-1 block min-h-11 rounded-lg border border-gray-400 bg-white px-3">
                <option value="auto">{t('create.weeksAuto')}</option>
                {Array.from({ length: MAX_WEEKS - MIN_WEEKS + 1 }, (_, index) => MIN_WEEKS + index).map((weeks) => (
                  <option key={weeks} value={weeks}>
                    {t('create.weeksN', { count: weeks })}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn-primary">
              {t('create.submit')}
            </button>
          </Form>
        </section>
      )}
    </main>
  )
}

import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { weekdayNames } from '#app/domain/habits.ts'
import { archiveAction, trackAction } from '#app/features/habits/habits.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { deleteHabit, getHabit } from '#app/provider/habits.server.ts'
import { listPillars } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { DayForm } from '#app/ui/habits/habit-card.tsx'
import { HabitFigures, frequencyText } from '#app/ui/habits/habit-figures.tsx'
import { HabitHeatMap, WeeklyRates } from '#app/ui/habits/heat-map.tsx'
import { habitDetailView, pillarNames } from '#app/features/habits/habit-views.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['habits'] }

/** One habit: its streaks, strength, six months as a heat map and twelve weeks of completion; `?excluir=1` asks before deleting. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'paciente' })
  const id = routeId(params)
  const [language, habit, pillars] = await Promise.all([languageOf(request), getHabit(auth, id).catch(errorResponseFor), listPillars().catch(errorResponseFor)])
  const t = await getFixedT(request, 'habits')
  const today = habit.today.date
  const view = habitDetailView(habit, { language, names: pillarNames(pillars, language), today, timeZone: timeZoneOr(user.time_zone) })
  return data({
    meta: { title: `${habit.name} · Innera`, description: t('detail.lead') },
    habit: view,
    weekdayLabels: weekdayNames(language),
    confirmDelete: new URL(request.url).searchParams.get('excluir') === '1',
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

/** A day's answer, archive, restore, or delete (after the confirmation). */
export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const id = routeId(params)
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'track') return trackAction(request, auth, form, () => `/habitos/${id}`)
  if (intent === 'archive' || intent === 'restore') return archiveAction(request, auth, id, intent === 'archive', `/habitos/${id}`)
  if (intent !== 'delete') throw data({ reason: 'invalid' }, { status: 400 })
  try {
    await deleteHabit(auth, id)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, ['habits', 'common'])
    return data({ error: failureText(t, error), habit: id }, failureInit(error))
  }
  return redirectWithToast('/habitos', { type: 'success', message: { key: 'habits:toast.deleted' } })
}

export default function HabitPage() {
  const { habit, weekdayLabels, confirmDelete } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('habits')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to={habit.archived ? '/habitos?arquivados=1' : `/habitos#habito-${habit.id}`} className="link">
          {t('backToList')}
        </Link>
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold">{habit.name}</h1>
        {habit.archived ? <span className="rounded-full bg-gray-200 px-3 py-1 text-sm font-medium">{t('detail.archivedBadge')}</span> : null}
      </div>
      <p className="mt-2 text-muted">
        {habit.pillarName} · {frequencyText(t, habit.frequency)}
        {habit.target !== null ? ` · ${t('card.target', { target: habit.targetText, unit: habit.unit })}` : null}
        {habit.reminderTime ? ` · ${t('card.reminder', { time: habit.reminderTime })}` : null}
      </p>
      <p className="text-sm text-muted">{t('detail.since', { date: habit.createdOn })}</p>
      <div className="mt-4">
        <FormError errors={actionData && 'error' in actionData ? [actionData.error] : null} />
      </div>

      <HabitFigures streak={habit.streak} best={habit.bestStreak} strength={habit.strength} className="mt-6" />

      {habit.archived ? null : (
        <section aria-labelledby="week-title" className="mt-8 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
          <h2 id="week-title" className="text-xl font-semibold">
            {t('detail.thisWeekDays')}
          </h2>
          <div className="mt-1 grid gap-x-6 lg:grid-cols-2">
            {habit.days
              .filter((day) => day.trackable)
              .map((day) => (
                <DayForm key={day.date} habit={habit} day={day} failure={actionData && 'track' in actionData ? actionData.track : null} action={`/habitos/${habit.id}`} />
              ))}
          </div>
        </section>
      )}

      <section aria-labelledby="heat-title" className="mt-8 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="heat-title" className="text-xl font-semibold">
          {t('detail.heatMap')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('detail.heatMapSummary', habit.heatMap.tally)}</p>
        <HabitHeatMap heatMap={habit.heatMap} weekdayLabels={weekdayLabels} />
      </section>

      <section aria-labelledby="weeks-title" className="mt-8 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="weeks-title" className="text-xl font-semibold">
          {t('detail.weeks')}
        </h2>
        <WeeklyRates weeks={habit.weeks} />
      </section>

      {confirmDelete ? (
        <section aria-labelledby="delete-title" className="mt-8 max-w-2xl rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
          <h2 id="delete-title" className="text-xl font-semibold">
            {t('detail.deleteTitle', { name: habit.name })}
          </h2>
          <p className="mt-2">{t('detail.deleteWarning')}</p>
          <Form method="post" className="mt-4 flex flex-wrap gap-3">
            <SubmitButton name="intent" value="delete" className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('detail.deleting')}>
              {t('detail.deleteConfirm')}
            </SubmitButton>
            <Link to="." className="btn-secondary" preventScrollReset>
              {t('detail.deleteKeep')}
            </Link>
          </Form>
        </section>
      ) : (
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={`/habitos/${habit.id}/editar`} className="btn-secondary">
            {t('detail.edit')}
          </Link>
          <Form method="post">
            <button type="submit" name="intent" value={habit.archived ? 'restore' : 'archive'} className="btn-secondary">
              {habit.archived ? t('detail.restore') : t('detail.archive')}
            </button>
          </Form>
          <Link to="?excluir=1" className="btn-secondary border-red-700 text-red-800" preventScrollReset>
            {t('detail.delete')}
          </Link>
        </div>
      )}
    </main>
  )
}

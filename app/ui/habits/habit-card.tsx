import { Link, useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type TFunction } from '#app/i18n/translator.ts'
import type { DayView, HabitCardView } from '#app/features/habits/habit-views.server.ts'
import { showClientToast } from '../toast-state.ts'
import { HabitFigures, frequencyText } from './habit-figures.tsx'

/** A failed tap as the action answered it (JavaScript off: the page's action data). */
export type TrackFailure = { habit: number | null; date: string; amount: string; error: string }

type Status = 'done' | 'not_done' | 'skipped'
const STATUS_BUTTONS: Status[] = ['done', 'not_done', 'skipped']

/** True once the page runs in the browser: the day forms then ask for data instead of a redirect. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}

/**
 * One habit on the habits page: its figures, today's answer and, folded, the six days before.
 * Each day is its own small form, so a tap works without JavaScript (a post, then back here).
 */
export function HabitCard({ habit, failure }: { habit: HabitCardView; failure: TrackFailure | null }) {
  const { t } = useTranslation('habits')
  const [today, ...earlier] = habit.days
  const failedEarlier = failure?.habit === habit.id && earlier.some((day) => day.date === failure.date)
  return (
    <article id={`habito-${habit.id}`} aria-labelledby={`habit-${habit.id}-name`} className="scroll-mt-24 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={`habit-${habit.id}-name`} className="text-xl font-semibold">
            <Link to={`/habitos/${habit.id}`} className="link">
              {habit.name}
            </Link>
          </h3>
          <p className="text-sm text-muted">
            {frequencyText(t, habit.frequency)}
            {habit.target !== null ? ` · ${t('card.target', { target: habit.targetText, unit: habit.unit })}` : null}
            {habit.reminderTime ? ` · ${t('card.reminder', { time: habit.reminderTime })}` : null}
          </p>
        </div>
      </div>
      <HabitFigures streak={habit.streak} strength={habit.strength} className="mt-3" />
      {today ? <DayForm habit={habit} day={today} failure={failure} /> : null}
      {earlier.length ? (
        <details className="mt-3 rounded-xl border border-gray-200 p-3" open={failedEarlier || undefined}>
          <summary className="min-h-11 py-2 font-medium text-brand-800">{t('card.earlierDays')}</summary>
          <div className="mt-2 space-y-3">
            {earlier.map((day) => (
              <DayForm key={day.date} habit={habit} day={day} failure={failure} />
            ))}
          </div>
        </details>
      ) : null}
    </article>
  )
}

function dayTitle(t: TFunction, day: DayView) {
  return day.relative ? t(`card.${day.relative}`, { date: day.label }) : day.label
}

/**
 * One day: done, not done, skipped (pressed again, an answer is taken back), and the amount when
 * the habit counts one. `action`: the page it is on, whose action takes `intent=track` (the habits
 * list by default), so that a post without JavaScript comes back to that page, also on a refusal.
 * `compact`: the dashboard's form of today, titled with the habit's name.
 */
export function DayForm({ habit, day, failure, action = '/habitos?index', compact = false }: { habit: HabitCardView; day: DayView; failure: TrackFailure | null; action?: string; compact?: boolean }) {
  const { t } = useTranslation('habits')
  const fetcher = useFetcher<{ track?: TrackFailure; tracked?: unknown }>()
  const hydrated = useHydrated()
  const fetchFailure = fetcher.state === 'idle' ? fetcher.data?.track : undefined
  // A refused tap: the answer goes back to the saved one, and a toast says why (the reason also
  // stays beside the day, with what was typed).
  useEffect(() => {
    if (fetchFailure) showClientToast({ type: 'error', message: { text: fetchFailure.error } })
  }, [fetchFailure])
  const title = dayTitle(t, day)
  if (!day.trackable) {
    return (
      <p className="mt-3 text-sm text-muted">
        <span className="font-medium text-ink">{title}</span>: {t('card.beforeStart')}
      </p>
    )
  }
  // While the tap is on its way, the page already shows its answer; a refusal puts the saved one back.
  const pending = fetcher.formData
  const sent = pending?.get('status')
  const optimistic: Status | null | undefined =
    typeof sent === 'string'
      ? sent === 'none'
        ? null
        : sent === 'amount'
          ? habit.target !== null && Number(String(pending?.get('amount') ?? '').replace(',', '.')) >= habit.target
            ? 'done'
            : 'not_done'
          : (sent as Status)
      : undefined
  const status = optimistic === undefined ? day.status : optimistic
  const shownFailure = fetchFailure ?? (failure && failure.habit === habit.id && failure.date === day.date ? failure : null)
  const errorId = `track-${habit.id}-${day.date}-error`
  const statusId = `track-${habit.id}-${day.date}-status`
  const amountId = `track-${habit.id}-${day.date}-amount`
  return (
    <fetcher.Form method="post" action={action} preventScrollReset className={compact ? 'mt-2' : 'mt-3'} aria-busy={pending ? true : undefined}>
      <fieldset aria-describedby={[statusId, shownFailure ? errorId : null].filter(Boolean).join(' ')}>
        {/* On the dashboard a day form stands for its habit: the name leads and links to it. */}
        {compact ? (
          <legend className="font-semibold">
            <Link to={`/habitos/${habit.id}`} className="link">
              {habit.name}
            </Link>
            <span className="sr-only"> · {title}</span>
          </legend>
        ) : (
          <legend className="font-medium">
            {title}
            <span className="sr-only"> · {habit.name}</span>
          </legend>
        )}
        <input type="hidden" name="intent" value="track" />
        <input type="hidden" name="habit" value={habit.id} />
        <input type="hidden" name="date" value={day.date} />
        {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
        <p id={statusId} aria-live="polite" className="text-sm text-muted">
          {statusText(t, status, day, habit)}
          {!day.due ? ` · ${t('card.notDue')}` : null}
        </p>
        <div className="mt-2 flex flex-wrap items-end gap-2">
          {habit.target !== null ? (
            <div className="flex items-end gap-2">
              <div>
                <label htmlFor={amountId} className="block text-sm font-medium">
                  {t('card.amount', { unit: habit.unit || t('card.amountNoUnit') })}
                </label>
                <input
                  key={`${day.date}-${day.amount ?? ''}`}
                  id={amountId}
                  name="amount"
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  defaultValue={shownFailure && !fetchFailure ? shownFailure.amount : (day.amountText ?? '')}
                  aria-invalid={shownFailure ? true : undefined}
                  aria-describedby={shownFailure ? errorId : undefined}
                  className="mt-1 block min-h-11 w-24 rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
                />
              </div>
              <input type="hidden" name="target" value={habit.target} />
              <button type="submit" name="status" value="amount" className="btn-secondary px-4">
                {t('card.saveAmount')}
              </button>
            </div>
          ) : null}
          {STATUS_BUTTONS.map((value) => {
            const pressed = status === value
            return (
              <button
                key={value}
                type="submit"
                name="status"
                value={pressed ? 'none' : value}
                aria-pressed={pressed}
                className="btn min-w-24 border border-brand-700 bg-white px-4 text-brand-800 hover:bg-brand-50 aria-pressed:bg-brand-700 aria-pressed:text-white aria-pressed:hover:bg-brand-800"
              >
                {pressed ? <span aria-hidden="true">✓</span> : null}
                {t(`status.${value}`)}
              </button>
            )
          })}
        </div>
        {shownFailure ? (
          <p id={errorId} role={fetchFailure ? undefined : 'alert'} className="mt-2 text-sm font-medium text-red-700">
            {shownFailure.error}
          </p>
        ) : null}
      </fieldset>
    </fetcher.Form>
  )
}

function statusText(t: TFunction, status: Status | null, day: DayView, habit: HabitCardView) {
  const amount = day.amount !== null && habit.target !== null && status !== 'skipped' ? ` · ${t('card.amountOf', { amount: day.amountText, target: habit.targetText, unit: habit.unit })}` : ''
  return `${t(`state.${status ?? 'none'}`)}${amount}`
}

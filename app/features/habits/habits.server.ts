import { type Submission } from '@conform-to/react'
import { data } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { trackHabit, updateHabit } from '#app/provider/habits.server.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { trackSchema } from '#app/forms/habit-forms.ts'

/**
 * The habit pages' actions (issue 14). A tap on a day is a small form posted to the page it is on
 * (the habits list, a habit's page, the dashboard): without JavaScript it comes back there (303
 * with a toast), and a refusal re-renders that same page with the message beside the day; with
 * JavaScript the fetcher marks it `via=fetcher` and gets data instead, so nothing reloads. A
 * refusal or a provider failure answers 400 with the message and what was typed, both ways.
 */

const TRACK_TOASTS = { done: 'habits:toast.done', not_done: 'habits:toast.notDone', skipped: 'habits:toast.skipped', none: 'habits:toast.cleared' } as const

type TrackFailure = { habit: number | null; date: string; amount: string; error: string }

/** `back(habitId)`: where a post without JavaScript returns once the answer is saved. */
export async function trackAction(request: Request, auth: SignedInCaller, form: FormData, back: (habitId: number) => string) {
  const fields = Object.fromEntries([...form].filter(([, value]) => typeof value === 'string' && value.trim() !== '')) as Record<string, string>
  const typed = { habit: parseId(fields.habit) ?? null, date: String(fields.date ?? ''), amount: String(form.get('amount') ?? '').slice(0, 20) }
  const byFetcher = fields.via === 'fetcher'
  const t = await getFixedT(request, ['habits', 'common'])
  const refuse = (key: string) => data({ track: { ...typed, error: t(key) } satisfies TrackFailure }, { status: 400 })
  // "Save the amount": done when it reaches the target, else the day's progress (not done yet).
  if (fields.status === 'amount') {
    if (!fields.amount) return refuse('habits:validation.amount')
    const target = Number(fields.target)
    const amount = Number(String(fields.amount ?? '').replace(',', '.'))
    fields.status = fields.amount && Number.isFinite(target) && target > 0 && amount >= target ? 'done' : 'not_done'
  }
  const parsed = trackSchema.safeParse(fields)
  if (!parsed.success) return refuse(parsed.error.issues.some((issue) => issue.path[0] === 'amount') ? 'habits:validation.amount' : 'habits:track.invalid')
  const input = parsed.data
  try {
    const habit = await trackHabit(auth, input.habit, { date: input.date, status: input.status, ...(input.amount === undefined || input.status === 'skipped' ? {} : { amount: input.amount }) })
    if (byFetcher) return data({ tracked: { habit: habit.id, date: input.date } })
    return redirectWithToast(back(habit.id), { type: 'success', message: { key: TRACK_TOASTS[input.status], values: { name: habit.name } } })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const message = error.code === 'habit_archived' ? t('habits:track.archived') : error.failure.kind === 'http' && error.failure.fieldErrors?.date ? t('habits:track.outsideWindow') : failureText(t, error)
    return data({ track: { ...typed, error: message } satisfies TrackFailure }, failureInit(error))
  }
}

/** Archive or restore: the habit's page and the archived list both offer it. */
export async function archiveAction(request: Request, auth: SignedInCaller, id: number, archived: boolean, back: string) {
  try {
    const habit = await updateHabit(auth, id, { archived })
    return redirectWithToast(back, { type: 'success', message: { key: archived ? 'habits:toast.archived' : 'habits:toast.restored', values: { name: habit.name } } })
  } catch (error) {
    const t = await getFixedT(request, ['habits', 'common'])
    if (!(error instanceof ProviderError)) throw error
    const message = error.code === 'too_many_habits' ? t('habits:errors.tooMany') : failureText(t, error)
    return data({ error: message, habit: id }, failureInit(error))
  }
}

const PROVIDER_FIELDS = ['name', 'pillar', 'frequency', 'weekdays', 'times_per_week', 'target', 'unit', 'reminder_time'] as const
const FIELD_MESSAGES: Record<(typeof PROVIDER_FIELDS)[number], string> = {
  name: 'habits:validation.name',
  pillar: 'habits:validation.pillar',
  frequency: 'habits:validation.frequency',
  weekdays: 'habits:validation.weekdays',
  times_per_week: 'habits:validation.timesPerWeek',
  target: 'habits:validation.target',
  unit: 'habits:validation.unit',
  reminder_time: 'habits:validation.reminderTime',
}

/**
 * The habit form's reply after the provider refused or failed: its field errors (in English)
 * become ours on the same fields, the habit limits their own messages, anything else the docs/product.md §8
 * text; everything typed comes back.
 */
export function habitFormFailure(submission: Submission<unknown>, error: unknown, t: TFunction) {
  if (error instanceof ProviderError && (error.code === 'too_many_habits' || error.code === 'too_many_habits_total')) {
    return { result: submission.reply({ formErrors: [t(error.code === 'too_many_habits' ? 'habits:errors.tooMany' : 'habits:errors.tooManyInAll')] }), init: { status: 400 } }
  }
  return replyToFailure(submission, error, t, {
    fields: Object.fromEntries(PROVIDER_FIELDS.map((field) => [field, { field, messages: () => [FIELD_MESSAGES[field]] }])),
  })
}

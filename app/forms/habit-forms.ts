import { z } from 'zod'
import { WEEKDAYS, type Weekday } from '#app/domain/availability.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { HABIT_FREQUENCIES, type HabitPayload, TRACK_STATUSES } from '#app/provider/habit-schemas.ts'
import { requiredText } from './form-fields.ts'

/**
 * The habit form (create and edit) and the day-tracking form (issue 14; decision 0027's bounds),
 * shared by the browser (conform's client validation) and the server. Messages are keys.
 */

export const HABIT_NAME_MAX_LENGTH = 120
export const HABIT_UNIT_MAX_LENGTH = 30
const HABIT_MAX_TARGET = 100_000
/** A day's amount may pass the target (a long walk); the provider takes ten times it at most. */
const HABIT_MAX_AMOUNT = HABIT_MAX_TARGET * 10

const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/
const DECIMAL = /^\d{1,9}(?:[.,]\d{1,3})?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

/** A decimal as people type it ("2.5" or "2,5"), at most three decimals, within (0 or above, max]. */
const decimal = ({ max, positive, message }: { max: number; positive: boolean; message: string }) =>
  z
    .string({ error: message })
    .trim()
    .regex(DECIMAL, { error: message })
    .transform((text) => Number(text.replace(',', '.')))
    .refine((value) => (positive ? value > 0 : value >= 0) && value <= max, { error: message })

export const habitFormSchema = z
  .object({
    name: requiredText(HABIT_NAME_MAX_LENGTH),
    pillar: z.enum(PILLAR_ORDER, { error: 'habits:validation.pillar' }),
    frequency: z.enum(HABIT_FREQUENCIES, { error: 'habits:validation.frequency' }),
    weekdays: z.array(z.enum(WEEKDAYS, { error: 'habits:validation.weekdays' })).max(7).optional(),
    times_per_week: z.number({ error: 'habits:validation.timesPerWeek' }).int({ error: 'habits:validation.timesPerWeek' }).min(1, { error: 'habits:validation.timesPerWeek' }).max(7, { error: 'habits:validation.timesPerWeek' }).optional(),
    target: decimal({ max: HABIT_MAX_TARGET, positive: true, message: 'habits:validation.target' }).optional(),
    unit: z.string().trim().max(HABIT_UNIT_MAX_LENGTH, { error: 'validation.tooLong' }).optional(),
    reminder_time: z.string().trim().regex(CLOCK_TIME, { error: 'habits:validation.reminderTime' }).optional(),
  })
  .superRefine(
    (value, context) => {
      if (value.frequency === 'weekdays' && !value.weekdays?.length) context.addIssue({ code: 'custom', path: ['weekdays'], message: 'habits:validation.weekdays' })
      if (value.frequency === 'weekly' && value.times_per_week === undefined) context.addIssue({ code: 'custom', path: ['times_per_week'], message: 'habits:validation.timesPerWeek' })
      if (value.unit && value.target === undefined) context.addIssue({ code: 'custom', path: ['target'], message: 'habits:validation.unitWithoutTarget' })
    },
    // The choices that depend on the frequency are checked even when another field is wrong, so every problem shows at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .transform(
    (value): HabitPayload => ({
      name: value.name,
      pillar: value.pillar,
      frequency: value.frequency,
      ...(value.frequency === 'weekdays' ? { weekdays: WEEKDAYS.filter((day) => value.weekdays?.includes(day)) } : {}),
      ...(value.frequency === 'weekly' ? { times_per_week: value.times_per_week } : {}),
      target: value.target ?? null,
      unit: value.target === undefined ? '' : (value.unit ?? ''),
      reminder_time: value.reminder_time ?? null,
    }),
  )

export type HabitFormValues = {
  name: string
  pillar: string
  frequency: string
  weekdays: string[]
  times_per_week: string
  target: string
  unit: string
  reminder_time: string
}

export const emptyHabitForm: HabitFormValues = { name: '', pillar: '', frequency: 'daily', weekdays: [], times_per_week: '3', target: '', unit: '', reminder_time: '' }

/** The form's values for a saved habit (the edit page). */
export function habitFormValues(habit: {
  name: string
  pillar: string
  frequency: string
  weekdays: readonly string[]
  times_per_week: number | null
  target: number | null
  unit: string
  reminder_time: string | null
}): HabitFormValues {
  return {
    name: habit.name,
    pillar: habit.pillar,
    frequency: habit.frequency,
    weekdays: [...habit.weekdays],
    times_per_week: habit.times_per_week === null ? emptyHabitForm.times_per_week : String(habit.times_per_week),
    target: habit.target === null ? '' : String(habit.target),
    unit: habit.unit,
    reminder_time: habit.reminder_time ?? '',
  }
}

/**
 * The create form prefilled from the address (`?name=…&pillar=…`): a suggestion is a plain link,
 * so choosing one works without JavaScript. Anything unknown or too long is left out.
 */
export function habitFormFromQuery(params: URLSearchParams): HabitFormValues {
  const short = (name: string, max: number) => (params.get(name) ?? '').trim().slice(0, max)
  const frequency = params.get('frequency')
  const pillar = params.get('pillar')
  const times = params.get('times_per_week')
  const target = short('target', 20)
  const reminder = params.get('reminder_time') ?? ''
  return {
    name: short('name', HABIT_NAME_MAX_LENGTH),
    pillar: (PILLAR_ORDER as readonly string[]).includes(pillar ?? '') ? pillar! : '',
    frequency: (HABIT_FREQUENCIES as readonly string[]).includes(frequency ?? '') ? frequency! : 'daily',
    weekdays: params.getAll('weekdays').filter((day): day is Weekday => (WEEKDAYS as readonly string[]).includes(day)),
    times_per_week: times && /^[1-7]$/.test(times) ? times : emptyHabitForm.times_per_week,
    target: DECIMAL.test(target) ? target : '',
    unit: short('unit', HABIT_UNIT_MAX_LENGTH),
    reminder_time: CLOCK_TIME.test(reminder) ? reminder : '',
  }
}

/** The address that opens the create form with these values. */
export function habitFormQuery(values: Partial<HabitFormValues>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) for (const item of value) params.append(name, item)
    else if (value) params.set(name, value)
  }
  return params.toString()
}

/** One day's answer on the habits page: done, not done, skipped, or `none` to forget it. */
export const trackSchema = z.object({
  habit: z.coerce.number().int().positive().max(2_147_483_647),
  date: z.string().regex(DATE),
  status: z.enum(TRACK_STATUSES),
  amount: decimal({ max: HABIT_MAX_AMOUNT, positive: false, message: 'habits:validation.amount' }).optional(),
})

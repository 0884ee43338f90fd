import { z } from 'zod'
import { paginated } from './schemas.ts'

/**
 * The habits API's answers (decision 0027; server/habits/serializers.ts): a habit, its summary
 * for lists (today, the seven trackable days, streak, strength) and its detail for its page.
 */

export const HABIT_FREQUENCIES = ['daily', 'weekdays', 'weekly'] as const
type HabitFrequency = (typeof HABIT_FREQUENCIES)[number]
export const TRACK_STATUSES = ['done', 'not_done', 'skipped', 'none'] as const
export type TrackStatus = (typeof TRACK_STATUSES)[number]
const ENTRY_STATUSES = ['done', 'not_done', 'skipped'] as const

const localized = z.object({ pt: z.string(), en: z.string(), es: z.string() })
const weekday = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])

const habitSchema = z.object({
  id: z.number(),
  name: z.string(),
  pillar: z.string(),
  frequency: z.enum(HABIT_FREQUENCIES),
  weekdays: z.array(weekday),
  times_per_week: z.number().nullable(),
  target: z.number().nullable(),
  unit: z.string().nullable().transform((value) => value ?? ''),
  reminder_time: z.string().nullable(),
  created_on: z.string(),
  archived: z.boolean(),
  archived_at: z.string().nullable(),
})

const habitDaySchema = z.object({
  date: z.string(),
  due: z.boolean(),
  trackable: z.boolean(),
  status: z.enum(ENTRY_STATUSES).nullable(),
  amount: z.number().nullable(),
})

const streakSchema = z.object({ length: z.number(), unit: z.enum(['day', 'week']) })

export const habitSummarySchema = habitSchema.extend({
  today: habitDaySchema,
  week: z.array(habitDaySchema),
  current_streak: streakSchema,
  strength: z.number(),
})
export type HabitSummary = z.infer<typeof habitSummarySchema>

/** A DRF page of habits (issue 22: at most 30 a page, so one page holds every active habit) with the user's today. */
export const habitListSchema = paginated(habitSummarySchema).extend({ today: z.string(), time_zone: z.string() })
export type HabitList = z.infer<typeof habitListSchema>

const heatMapDaySchema = z.object({
  date: z.string(),
  level: z.number().int().min(0).max(4),
  status: z.enum(['done', 'not_done', 'skipped', 'not_due', 'none', 'future']),
})

export const habitDetailSchema = habitSummarySchema.extend({
  best_streak: streakSchema,
  weeks: z.array(z.object({ week_start: z.string(), due: z.number(), done: z.number(), rate: z.number().nullable() })),
  heat_map: z.array(heatMapDaySchema),
  entries: z.array(z.object({ date: z.string(), status: z.enum(ENTRY_STATUSES), amount: z.number().nullable() })),
})
export type HabitDetail = z.infer<typeof habitDetailSchema>

export const habitStatsSchema = z.object({
  today: z.string(),
  habits: z.array(habitSummarySchema.extend({ best_streak: streakSchema, weeks: habitDetailSchema.shape.weeks })),
  pillars: z.array(z.object({ pillar: z.string(), rate: z.number().nullable(), days: z.number() })),
})

const habitSuggestionSchema = z.object({
  key: z.string(),
  pillar: z.string(),
  name: localized,
  frequency: z.enum(HABIT_FREQUENCIES),
  weekdays: z.array(weekday),
  times_per_week: z.number().nullable(),
  target: z.number().nullable(),
  unit: localized.nullable(),
  goal: z.object({ id: z.number(), text: localized }).nullable(),
})

export const habitSuggestionsSchema = z.object({ focus_pillars: z.array(z.string()), results: z.array(habitSuggestionSchema) })

/** What a create or an edit sends (PATCH takes any of them, plus `archived`). */
export type HabitPayload = {
  name: string
  pillar: string
  frequency: HabitFrequency
  weekdays?: string[]
  times_per_week?: number
  target: number | null
  unit: string
  reminder_time: string | null
}

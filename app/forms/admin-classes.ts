import { z } from 'zod'
import { isDateInRange } from '#app/domain/date-range.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { MAX_ID } from '#app/utils/ids.ts'
import { contentIntentField, languagesBeforePublishing, localizedDraftField } from './localized-text.ts'

/**
 * The admin's live-class forms (decisions 0064 and 0067): a new class (a draft until published),
 * a published class's texts, its schedule (a date and a time in the admin's zone, the length and
 * the seats) and its cancellation (a reason, and a box ticked saying how many people are told).
 * Used by the server and, deferred, the browser (forms/form-validation.ts). Messages are keys.
 */

const CLASS_TITLE_MAX = 120
const CLASS_DESCRIPTION_MAX = 2000
export const CLASS_SLUG_MAX = 120
export const CANCEL_REASON_MAX = 500
export const DURATION_BOUNDS = { min: 15, max: 240 } as const
export const SEATS_BOUNDS = { min: 1, max: 1000 } as const
const CLASS_ACCESS = ['free', 'members'] as const

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/
const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/
const REQUIRED = 'errors.required'
const V = 'admin-classes:validation'

const date = () => z.string().trim().refine((value) => isDateInRange(value), { error: `${V}.date` })
const time = () => z.string().trim().regex(CLOCK_TIME, { error: `${V}.time` })
const bounded = ({ min, max }: { min: number; max: number }, message: string) => z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message })
const duration = () => bounded(DURATION_BOUNDS, `${V}.duration`)
const seats = () => bounded(SEATS_BOUNDS, `${V}.seats`)

/** A date and a time go together: one without the other is said on the missing one. */
function dateWithTime(value: { date?: string; time?: string }, context: z.RefinementCtx) {
  if (value.date && !value.time) context.addIssue({ code: 'custom', path: ['time'], message: `${V}.dateAndTime` })
  if (value.time && !value.date) context.addIssue({ code: 'custom', path: ['date'], message: `${V}.dateAndTime` })
}

/** A new class: named by its address (or, left blank, by its Portuguese title); on "publish" every field is needed. */
export const newClassSchema = z
  .object({
    intent: contentIntentField(),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .max(CLASS_SLUG_MAX, { error: `${V}.slug` })
      .regex(SLUG, { error: `${V}.slug` })
      .refine((slug) => slug !== 'new', { error: `${V}.slug` })
      .optional(),
    title: localizedDraftField(CLASS_TITLE_MAX),
    description: localizedDraftField(CLASS_DESCRIPTION_MAX),
    pillar: z.enum(PILLAR_ORDER, { error: `${V}.pillar` }).optional(),
    teacher_id: z.number({ error: `${V}.teacher` }).int().positive().max(MAX_ID).optional(),
    date: date().optional(),
    time: time().optional(),
    duration_minutes: duration().optional(),
    seats: seats().optional(),
    access: z.enum(CLASS_ACCESS, { error: `${V}.access` }).optional(),
  })
  .superRefine(languagesBeforePublishing(['title', 'description']))
  .superRefine(dateWithTime)
  .superRefine((value, context) => {
    if (value.intent !== 'publish') return
    for (const field of ['pillar', 'teacher_id', 'date', 'time', 'duration_minutes', 'seats', 'access'] as const) {
      if (value[field] === undefined) context.addIssue({ code: 'custom', path: [field], message: REQUIRED })
    }
  })

/** A published class's texts. */
export const classTextsSchema = z
  .object({
    intent: contentIntentField(),
    title: localizedDraftField(CLASS_TITLE_MAX),
    description: localizedDraftField(CLASS_DESCRIPTION_MAX),
  })
  .superRefine(languagesBeforePublishing(['title', 'description']))

/** A published class's start, length and seats. */
export const classScheduleSchema = z.object({
  date: z.string({ error: REQUIRED }).trim().refine((value) => isDateInRange(value), { error: `${V}.date` }),
  time: z.string({ error: REQUIRED }).trim().regex(CLOCK_TIME, { error: `${V}.time` }),
  duration_minutes: duration(),
  seats: seats(),
})

/** Cancelling: a reason (kept in the audit log) and the box saying who will be told, ticked. */
export const classCancelSchema = z.object({
  reason: z.string({ error: `${V}.reason` }).trim().min(1, { error: `${V}.reason` }).max(CANCEL_REASON_MAX, { error: 'validation.tooLong' }),
  confirm: z.literal('on', { error: `${V}.confirm` }),
})

import { z } from 'zod'
import { MAX_SLOTS_PER_DAY, type Slot, type SlotProblem, WEEKDAYS, type Weekday, slotIssues, sortedSlots } from '#app/domain/availability.ts'
import { isTimeZone } from '#app/domain/time-zones.ts'

/**
 * The availability editor (issue 12): time zone, consultation length, buffer, notice, horizon, each
 * weekday on or off with its slots, and date exceptions (a day off, or other hours that date).
 * Shared by the browser (conform) and the server; messages are translation keys. A slot row left
 * blank is dropped, so the form can always offer an empty row to fill in.
 */
export const MAX_EXCEPTIONS = 100

const SLOT_MESSAGES: Record<SlotProblem, string> = {
  format: 'schedule:validation.time',
  order: 'schedule:validation.order',
  overlap: 'schedule:validation.overlap',
}

const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: (issue) => (issue.input === undefined ? 'errors.required' : message) }).int({ error: message }).min(min, { error: message }).max(max, { error: message })

const slotRow = z.object({ start: z.string().trim().optional(), end: z.string().trim().optional() })

/** Rows with both times blank are not slots; rows with one blank get "required" on that field. */
const isBlank = (row: { start?: string; end?: string }) => !row.start && !row.end

/** One weekday; its checks run even when other fields of the form are wrong, so all show at once. */
const dayRow = z
  .object({ enabled: z.boolean().optional(), slots: z.array(slotRow).max(MAX_SLOTS_PER_DAY + 1, { error: 'schedule:validation.tooManySlots' }).optional() })
  .superRefine((day, context) => {
    const filled = (day.slots ?? []).flatMap((row, index) => (isBlank(row) ? [] : [{ row, index }]))
    for (const { row, index } of filled) {
      for (const field of ['start', 'end'] as const) {
        if (!row[field]) context.addIssue({ code: 'custom', path: ['slots', index, field], message: 'errors.required' })
      }
    }
    const complete = filled.filter(({ row }) => row.start && row.end)
    for (const issue of slotIssues(complete.map(({ row }) => ({ start: row.start!, end: row.end! })))) {
      context.addIssue({ code: 'custom', path: ['slots', complete[issue.index]!.index, issue.field], message: SLOT_MESSAGES[issue.problem] })
    }
    if (filled.length > MAX_SLOTS_PER_DAY) context.addIssue({ code: 'custom', path: ['enabled'], message: 'schedule:validation.tooManySlots' })
    if (day.enabled && filled.length === 0) context.addIssue({ code: 'custom', path: ['enabled'], message: 'schedule:validation.enabledWithoutSlots' })
  })

const exceptionRow = z.object({
  date: z.string().trim().optional(),
  kind: z.enum(['off', 'hours']).optional(),
  start: z.string().trim().optional(),
  end: z.string().trim().optional(),
})

const DATE = /^\d{4}-\d{2}-\d{2}$/
const isDate = (value: string) => DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)

const exceptionRows = z
  .array(exceptionRow)
  .max(MAX_EXCEPTIONS + 1, { error: 'schedule:validation.tooManyExceptions' })
  .superRefine((rows, context) => {
    const seen = new Set<string>()
    rows.forEach((row, index) => {
      if (!row.date && !row.start && !row.end) return
      if (!row.date) context.addIssue({ code: 'custom', path: [index, 'date'], message: 'errors.required' })
      else if (!isDate(row.date)) context.addIssue({ code: 'custom', path: [index, 'date'], message: 'validation.date' })
      else if (seen.has(row.date)) context.addIssue({ code: 'custom', path: [index, 'date'], message: 'schedule:validation.duplicateDate' })
      else seen.add(row.date)
      if (row.kind !== 'hours') return
      for (const field of ['start', 'end'] as const) {
        if (!row[field]) context.addIssue({ code: 'custom', path: [index, field], message: 'errors.required' })
      }
      if (row.start && row.end) {
        for (const issue of slotIssues([{ start: row.start, end: row.end }])) {
          context.addIssue({ code: 'custom', path: [index, issue.field], message: SLOT_MESSAGES[issue.problem] })
        }
      }
    })
  })

export const scheduleSchema = z
  .object({
    time_zone: z.string({ error: 'errors.required' }).refine(isTimeZone, { error: 'schedule:validation.timeZone' }),
    consultation_minutes: wholeNumber(15, 240, 'schedule:validation.consultationMinutes'),
    buffer_minutes: wholeNumber(0, 120, 'schedule:validation.bufferMinutes'),
    minimum_notice_hours: wholeNumber(0, 168, 'schedule:validation.minimumNoticeHours'),
    horizon_days: wholeNumber(1, 365, 'schedule:validation.horizonDays'),
    availability: z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, dayRow.optional()])) as Record<Weekday, z.ZodOptional<typeof dayRow>>).optional(),
    exceptions: exceptionRows.optional(),
  })
  .transform((value) => ({
    time_zone: value.time_zone,
    consultation_minutes: value.consultation_minutes,
    buffer_minutes: value.buffer_minutes,
    minimum_notice_hours: value.minimum_notice_hours,
    horizon_days: value.horizon_days,
    availability: Object.fromEntries(
      WEEKDAYS.map((day) => {
        const slots = (value.availability?.[day]?.slots ?? []).filter((row) => !isBlank(row)) as Slot[]
        return [day, { enabled: Boolean(value.availability?.[day]?.enabled), slots: sortedSlots(slots) }]
      }),
    ) as Record<Weekday, { enabled: boolean; slots: Slot[] }>,
    exceptions: (value.exceptions ?? [])
      .filter((row) => row.date)
      .map((row) => ({ date: row.date!, slots: row.kind === 'hours' ? [{ start: row.start!, end: row.end! }] : [] }))
      .sort((a, b) => a.date.localeCompare(b.date)),
  }))

export type ScheduleValue = z.output<typeof scheduleSchema>

/** The editor's form values for a saved schedule: each day's slots plus one blank row to fill in. */
export function scheduleFormValues(schedule: ScheduleValue) {
  return {
    time_zone: schedule.time_zone,
    consultation_minutes: schedule.consultation_minutes,
    buffer_minutes: schedule.buffer_minutes,
    minimum_notice_hours: schedule.minimum_notice_hours,
    horizon_days: schedule.horizon_days,
    availability: Object.fromEntries(
      WEEKDAYS.map((day) => {
        const saved = schedule.availability[day] ?? { enabled: false, slots: [] }
        return [day, { enabled: saved.enabled, slots: [...sortedSlots(saved.slots), { start: '', end: '' }] }]
      }),
    ),
    exceptions: [
      ...schedule.exceptions.map((exception) => ({
        date: exception.date,
        kind: exception.slots.length === 0 ? ('off' as const) : ('hours' as const),
        start: exception.slots[0]?.start ?? '',
        end: exception.slots[0]?.end ?? '',
      })),
      { date: '', kind: 'off' as const, start: '', end: '' },
    ],
  }
}

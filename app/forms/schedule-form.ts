import { z } from 'zod'
import { isDateInRange } from '#app/domain/date-range.ts'
import { MAX_SLOTS_PER_DAY, type Slot, type SlotProblem, WEEKDAYS, type Weekday, slotIssues, sortedSlots } from '#app/domain/availability.ts'
import { isTimeZone } from '#app/domain/time-zones.ts'

/**
 * The availability editor (issue 12): time zone, consultation length, buffer, notice, horizon, each
 * weekday on or off with its slots, and date exceptions (a day off, or other hours that date).
 * Shared by the browser (conform) and the server; messages are translation keys. A slot row left
 * blank is dropped, so the form can always offer an empty row to fill in.
 */
const MAX_EXCEPTIONS = 100

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

// A date the provider takes (years 2000-2100).
const isDate = (value: string) => isDateInRange(value)

/**
 * Exception rows: a date is either a day off (one row) or other hours, where several rows of one
 * date are several ranges of that day (checked against each other like a weekday's slots).
 */
const exceptionRows = z
  .array(exceptionRow)
  .max(MAX_EXCEPTIONS + 1, { error: 'schedule:validation.tooManyExceptions' })
  .superRefine((rows, context) => {
    const kinds = new Map<string, 'off' | 'hours'>()
    const ranges = new Map<string, { row: { start: string; end: string }; index: number }[]>()
    rows.forEach((row, index) => {
      if (!row.date && !row.start && !row.end) return
      const kind = row.kind === 'hours' ? 'hours' : 'off'
      if (!row.date) context.addIssue({ code: 'custom', path: [index, 'date'], message: 'errors.required' })
      else if (!isDate(row.date)) context.addIssue({ code: 'custom', path: [index, 'date'], message: 'validation.date' })
      else if (kinds.has(row.date) && (kind === 'off' || kinds.get(row.date) === 'off')) {
        context.addIssue({ code: 'custom', path: [index, 'date'], message: 'schedule:validation.duplicateDate' })
      } else kinds.set(row.date, kind)
      if (kind !== 'hours') return
      for (const field of ['start', 'end'] as const) {
        if (!row[field]) context.addIssue({ code: 'custom', path: [index, field], message: 'errors.required' })
      }
      if (row.start && row.end && row.date) ranges.set(row.date, [...(ranges.get(row.date) ?? []), { row: { start: row.start, end: row.end }, index }])
    })
    for (const list of ranges.values()) {
      for (const issue of slotIssues(list.map(({ row }) => row))) {
        context.addIssue({ code: 'custom', path: [list[issue.index]!.index, issue.field], message: SLOT_MESSAGES[issue.problem] })
      }
    }
  })

/** The exception rows as the provider takes them: one per date, its ranges in order. */
function exceptionsOf(rows: readonly z.output<typeof exceptionRow>[]): { date: string; slots: Slot[] }[] {
  const byDate = new Map<string, Slot[]>()
  for (const row of rows) {
    if (!row.date) continue
    const slots = byDate.get(row.date) ?? []
    if (row.kind === 'hours') slots.push({ start: row.start!, end: row.end! })
    byDate.set(row.date, slots)
  }
  return [...byDate.entries()].map(([date, slots]) => ({ date, slots: sortedSlots(slots) })).sort((a, b) => a.date.localeCompare(b.date))
}

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
    exceptions: exceptionsOf(value.exceptions ?? []),
  }))

type ScheduleValue = z.output<typeof scheduleSchema>

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
      // Other hours on a date: one row per range.
      ...schedule.exceptions.flatMap((exception): { date: string; kind: 'off' | 'hours'; start: string; end: string }[] =>
        exception.slots.length === 0
          ? [{ date: exception.date, kind: 'off', start: '', end: '' }]
          : sortedSlots(exception.slots).map((slot) => ({ date: exception.date, kind: 'hours', start: slot.start, end: slot.end })),
      ),
      { date: '', kind: 'off', start: '', end: '' },
    ],
  }
}

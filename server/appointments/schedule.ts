import { z } from 'zod'
import { clockMinutes } from '#server/dates.ts'
import { WEEKDAYS, type TimeSlot, type WeeklyAvailability } from '#server/db/schema.ts'
import { ApiError, type ErrorBody } from '#server/http/errors.ts'
import { booleanField, DATE_FORMAT_MESSAGE, dateRangeProblem, integerField, isIsoDate, pythonTypeName, timeZoneField, tooManyElements, toFieldErrors } from '#server/http/fields.ts'
import type { DateException, ScheduleRules } from '#server/appointments/free-times.ts'

/** The Schedule of decision 0023, as PUT /appointments/update-schedule/ takes it. */
export type ScheduleInput = ScheduleRules & { exceptions: DateException[] }

const MAX_SLOTS_PER_DAY = 12
const MAX_EXCEPTIONS = 100

const SLOT_TIME_FORMAT = 'Enter a time as HH:MM.'
const SLOT_END_BEFORE_START = 'The end must be after the start.'
const SLOT_OVERLAP = 'This slot overlaps another slot on the same day.'
const DUPLICATE_EXCEPTION_DATE = 'Each date can have only one exception.'

const REQUIRED = 'This field is required.'
const NOT_NULL = 'This field may not be null.'

/** Rules of a new schedule where the PUT leaves them out (contract defaults). */
const SCHEDULE_DEFAULTS = { bufferMinutes: 0, minimumNoticeHours: 12, horizonDays: 60 }

const scalarsSchema = z.object({
  time_zone: timeZoneField(),
  consultation_minutes: integerField({ min: 15, max: 240 }),
  buffer_minutes: integerField({ min: 0, max: 120 }).optional(),
  minimum_notice_hours: integerField({ min: 0, max: 168 }).optional(),
  horizon_days: integerField({ min: 1, max: 365 }).optional(),
})

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** What a nested serializer says of a value that is not an object. */
const notADictionary = (value: unknown) => ({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`] })

/**
 * A day's slots: each {start, end} in HH:MM (end may be 24:00), the end after the start, no two
 * overlapping (touching is fine). Errors as a ListSerializer gives them: one object per slot,
 * empty for the good ones. Slots come back sorted by start.
 */
function parseSlots(value: unknown): { slots: TimeSlot[] } | { errors: unknown } {
  if (value === undefined) return { errors: [REQUIRED] }
  if (value === null) return { errors: [NOT_NULL] }
  if (!Array.isArray(value)) return { errors: [`Expected a list of items but got type "${pythonTypeName(value)}".`] }
  if (value.length > MAX_SLOTS_PER_DAY) return { errors: [tooManyElements(MAX_SLOTS_PER_DAY)] }

  const itemErrors: Record<string, string[]>[] = value.map(() => ({}))
  const parsed: { index: number; start: number; end: number; slot: TimeSlot }[] = []
  value.forEach((item: unknown, index) => {
    const errors = itemErrors[index]!
    if (!isObject(item)) {
      Object.assign(errors, notADictionary(item))
      return
    }
    const time = (field: 'start' | 'end') => {
      const raw = item[field]
      if (raw === undefined) errors[field] = [REQUIRED]
      else if (raw === null) errors[field] = [NOT_NULL]
      else {
        const minutes = typeof raw === 'string' ? clockMinutes(raw, { allowEndOfDay: field === 'end' }) : undefined
        if (minutes !== undefined) return { minutes, text: raw as string }
        errors[field] = [SLOT_TIME_FORMAT]
      }
      return undefined
    }
    const start = time('start')
    const end = time('end')
    if (!start || !end) return
    if (end.minutes <= start.minutes) {
      errors.end = [SLOT_END_BEFORE_START]
      return
    }
    parsed.push({ index, start: start.minutes, end: end.minutes, slot: { start: start.text, end: end.text } })
  })

  parsed.sort((a, b) => a.start - b.start || a.end - b.end)
  // Sorted by start, a slot overlaps another exactly when it starts before the furthest end so far.
  let furthest: (typeof parsed)[number] | undefined
  for (const slot of parsed) {
    if (furthest && slot.start < furthest.end) {
      for (const index of [furthest.index, slot.index]) itemErrors[index]!.non_field_errors = [SLOT_OVERLAP]
    }
    if (!furthest || slot.end > furthest.end) furthest = slot
  }

  if (itemErrors.some((errors) => Object.keys(errors).length > 0)) return { errors: itemErrors }
  return { slots: parsed.map((slot) => slot.slot) }
}

/** `enabled`: a BooleanField; left out, the day is closed. */
function parseEnabled(value: unknown): { enabled: boolean } | { error: string } {
  if (value === undefined) return { enabled: false }
  const parsed = booleanField().safeParse(value)
  return parsed.success ? { enabled: parsed.data } : { error: parsed.error.issues[0]!.message }
}

/** `availability`: monday … sunday, each {enabled, slots}; a day left out is closed. */
function parseAvailability(value: unknown): { availability: WeeklyAvailability } | { errors: unknown } {
  if (value === undefined) return { errors: [REQUIRED] }
  if (value === null) return { errors: [NOT_NULL] }
  if (!isObject(value)) return { errors: [`Expected a dictionary of items but got type "${pythonTypeName(value)}".`] }
  const availability = {} as WeeklyAvailability
  const errors: Record<string, unknown> = {}
  for (const day of WEEKDAYS) {
    const raw = value[day]
    if (raw === undefined) {
      availability[day] = { enabled: false, slots: [] }
      continue
    }
    if (!isObject(raw)) {
      errors[day] = notADictionary(raw)
      continue
    }
    const dayErrors: Record<string, unknown> = {}
    const enabled = parseEnabled(raw.enabled)
    if ('error' in enabled) dayErrors.enabled = [enabled.error]
    const slots = raw.slots === undefined ? { slots: [] } : parseSlots(raw.slots)
    if ('errors' in slots) dayErrors.slots = slots.errors
    if (Object.keys(dayErrors).length > 0) errors[day] = dayErrors
    else availability[day] = { enabled: (enabled as { enabled: boolean }).enabled, slots: (slots as { slots: TimeSlot[] }).slots }
  }
  return Object.keys(errors).length > 0 ? { errors } : { availability }
}

/** `exceptions`: at most MAX_EXCEPTIONS of {date, slots}, dates unique; sorted by date. */
function parseExceptions(value: unknown): { exceptions: DateException[] } | { errors: unknown } {
  if (value === undefined) return { exceptions: [] }
  if (value === null) return { errors: [NOT_NULL] }
  if (!Array.isArray(value)) return { errors: [`Expected a list of items but got type "${pythonTypeName(value)}".`] }
  if (value.length > MAX_EXCEPTIONS) return { errors: [tooManyElements(MAX_EXCEPTIONS)] }
  const seen = new Set<string>()
  const exceptions: DateException[] = []
  const itemErrors = value.map((item: unknown) => {
    if (!isObject(item)) return notADictionary(item)
    const errors: Record<string, unknown> = {}
    const date = item.date
    if (date === undefined) errors.date = [REQUIRED]
    else if (date === null) errors.date = [NOT_NULL]
    else if (typeof date !== 'string' || !isIsoDate(date.trim())) errors.date = [DATE_FORMAT_MESSAGE]
    else if (dateRangeProblem(date.trim())) errors.date = [dateRangeProblem(date.trim())!]
    else if (seen.has(date.trim())) errors.date = [DUPLICATE_EXCEPTION_DATE]
    else seen.add(date.trim())
    const slots = parseSlots(item.slots)
    if ('errors' in slots) errors.slots = slots.errors
    if (Object.keys(errors).length === 0) exceptions.push({ date: (date as string).trim(), slots: (slots as { slots: TimeSlot[] }).slots })
    return errors
  })
  if (itemErrors.some((errors) => Object.keys(errors).length > 0)) return { errors: itemErrors }
  return { exceptions: exceptions.sort((a, b) => (a.date < b.date ? -1 : 1)) }
}

/**
 * Reads a whole Schedule from a request body, or throws one 400 naming every problem, nested as
 * DRF nests serializer errors, e.g.
 * `{"availability": {"monday": {"slots": [{}, {"end": ["The end must be after the start."]}]}}}`.
 */
export function parseSchedule(fields: Record<string, unknown>): ScheduleInput {
  const errors: ErrorBody = {}
  const scalars = scalarsSchema.safeParse(fields)
  if (!scalars.success) Object.assign(errors, toFieldErrors(scalars.error))
  const availability = parseAvailability(fields.availability)
  if ('errors' in availability) errors.availability = availability.errors
  const exceptions = parseExceptions(fields.exceptions)
  if ('errors' in exceptions) errors.exceptions = exceptions.errors
  if (!scalars.success || 'errors' in availability || 'errors' in exceptions) throw new ApiError(400, errors)
  return {
    timeZone: scalars.data.time_zone,
    consultationMinutes: scalars.data.consultation_minutes,
    bufferMinutes: scalars.data.buffer_minutes ?? SCHEDULE_DEFAULTS.bufferMinutes,
    minimumNoticeHours: scalars.data.minimum_notice_hours ?? SCHEDULE_DEFAULTS.minimumNoticeHours,
    horizonDays: scalars.data.horizon_days ?? SCHEDULE_DEFAULTS.horizonDays,
    availability: availability.availability,
    exceptions: exceptions.exceptions,
  }
}

/** A professional's booking rules, out of their profile row (which holds more). */
export const rulesOf = (profile: ScheduleRules): ScheduleRules => ({
  timeZone: profile.timeZone,
  consultationMinutes: profile.consultationMinutes,
  bufferMinutes: profile.bufferMinutes,
  minimumNoticeHours: profile.minimumNoticeHours,
  horizonDays: profile.horizonDays,
  availability: profile.availability,
})

const CLOSED_WEEK = Object.fromEntries(WEEKDAYS.map((day) => [day, { enabled: false, slots: [] }])) as unknown as WeeklyAvailability

/** The rules of a professional who never saved a schedule: a closed week with the contract's defaults. */
export const defaultRules = (timeZone: string): ScheduleRules => ({ timeZone, consultationMinutes: 50, bufferMinutes: 0, minimumNoticeHours: 12, horizonDays: 60, availability: CLOSED_WEEK })

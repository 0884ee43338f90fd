import { addDays, clockMinutes, localDateOf, offsetAt, wallTimeResolver, weekdayOf } from '#server/dates.ts'
import type { TimeSlot, WeeklyAvailability } from '#server/db/schema.ts'

/**
 * The free times of a professional (decision 0023), without I/O: instants are milliseconds since
 * the epoch, wall times are a local date ("YYYY-MM-DD") and minutes since its midnight in the
 * professional's IANA time zone (the date and clock helpers: server/dates.ts), so a 60-day
 * window costs two offset lookups per day (more on a change day).
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** The longest window GET /appointments/calendar/availability/ answers for. */
export const MAX_AVAILABILITY_DAYS = 62

export type ScheduleRules = {
  timeZone: string
  consultationMinutes: number
  bufferMinutes: number
  minimumNoticeHours: number
  horizonDays: number
  availability: WeeklyAvailability
}

/** Other hours on one date; empty slots are a day off. */
export type DateException = { date: string; slots: TimeSlot[] }

/** A live appointment as the free-time rules see it: [start, blockedUntil) is taken. */
export type Booking = { id?: number; start: number; blockedUntil: number }

/** Other busy time of the professional (their Google calendar, decision 0026): [start, end) is taken, like a booking. */
export type BusyInterval = { start: number; end: number }

type FreeTimeQuery = {
  schedule: ScheduleRules
  exceptions: DateException[]
  booked: Booking[]
  /** Taken like bookings, but never ignored for a rescheduled appointment. */
  busy?: BusyInterval[]
  now: number
  /** Narrows the result to starts in [start, end); always clipped to [now + notice, now + horizon]. */
  window?: { start?: number; end?: number }
  /** A rescheduled appointment: its own interval counts as free. */
  ignoreAppointmentId?: number
  /** Stop after this many free times (e.g. 1 for "next free time"). */
  limit?: number
}

/** The slots of a date: its exception if it has one, else its weekday's when enabled. */
function slotsOf(availability: WeeklyAvailability, exceptions: Map<string, TimeSlot[]>, date: string): TimeSlot[] {
  const exception = exceptions.get(date)
  if (exception) return exception
  const day = availability[weekdayOf(date)]
  return day?.enabled ? day.slots : []
}

const exceptionMap = (exceptions: DateException[]) => new Map(exceptions.map((exception) => [exception.date, exception.slots]))

/**
 * Every start the schedule offers in [from, to), ascending, ignoring notice, horizon and
 * bookings: from each slot's start, stepped by the consultation length, while the whole
 * consultation fits in the slot. Wall times in a gap are skipped; repeated ones come once.
 */
function* candidateStarts(schedule: ScheduleRules, exceptions: Map<string, TimeSlot[]>, from: number, to: number): Generator<number> {
  if (!(from < to)) return
  const length = schedule.consultationMinutes
  const lastDate = localDateOf(to - 1, schedule.timeZone)
  let previous = -Infinity
  for (let date = localDateOf(from, schedule.timeZone); date <= lastDate; date = addDays(date, 1)) {
    const slots = slotsOf(schedule.availability, exceptions, date)
    if (slots.length === 0) continue
    const ranges = slots
      .map((slot) => ({ start: clockMinutes(slot.start), end: clockMinutes(slot.end, { allowEndOfDay: true }) }))
      .filter((range): range is { start: number; end: number } => range.start !== undefined && range.end !== undefined)
      .sort((a, b) => a.start - b.start)
    const resolve = wallTimeResolver(date, schedule.timeZone)
    for (const range of ranges) {
      for (let minutes = range.start; minutes + length <= range.end; minutes += length) {
        const instant = resolve(minutes)
        // Strictly ascending: a repeated wall time (or a malformed overlap) is offered once.
        if (instant === undefined || instant <= previous) continue
        if (instant >= to) return
        previous = instant
        if (instant >= from) yield instant
      }
    }
  }
}

/** The instants a booking may start at: [now + notice, now + horizon]. */
function bookingBounds(schedule: ScheduleRules, now: number): { earliest: number; latest: number } {
  return { earliest: now + schedule.minimumNoticeHours * HOUR, latest: now + schedule.horizonDays * DAY }
}

/** Bookings and busy time sorted and merged into disjoint intervals, so one forward pointer can walk them. */
function mergedBookings(booked: Booking[], busy: BusyInterval[], ignoreId: number | undefined, from: number): BusyInterval[] {
  const live = booked
    .filter((booking) => ignoreId === undefined || booking.id !== ignoreId)
    .map((booking): BusyInterval => ({ start: booking.start, end: booking.blockedUntil }))
    .concat(busy)
    .filter((interval) => interval.end > from)
  live.sort((a, b) => a.start - b.start)
  const merged: BusyInterval[] = []
  for (const interval of live) {
    const last = merged[merged.length - 1]
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end)
    else merged.push({ ...interval })
  }
  return merged
}

/**
 * The free starts, ascending: candidates from now + notice to now + horizon (inclusive), within
 * the window, whose [start, start + length + buffer) overlaps no booked [start, blockedUntil).
 */
export function freeTimes({ schedule, exceptions, booked, busy: otherBusy = [], now, window, ignoreAppointmentId, limit = Infinity }: FreeTimeQuery): number[] {
  const { earliest, latest } = bookingBounds(schedule, now)
  const from = Math.max(earliest, window?.start ?? -Infinity)
  const to = Math.min(latest + 1, window?.end ?? Infinity)
  const busy = mergedBookings(booked, otherBusy, ignoreAppointmentId, from)
  const occupies = (schedule.consultationMinutes + schedule.bufferMinutes) * MINUTE
  const free: number[] = []
  let pointer = 0
  for (const start of candidateStarts(schedule, exceptionMap(exceptions), from, to)) {
    while (pointer < busy.length && busy[pointer]!.end <= start) pointer += 1
    const next = busy[pointer]
    if (next && next.start < start + occupies) continue
    free.push(start)
    if (free.length >= limit) break
  }
  return free
}

/** Whether [start, start + length + buffer) is clear of every booking (the rescheduled one aside) and of the busy time. */
export function isClear(schedule: ScheduleRules, booked: Booking[], start: number, ignoreAppointmentId?: number, busy: BusyInterval[] = []): boolean {
  const end = start + (schedule.consultationMinutes + schedule.bufferMinutes) * MINUTE
  if (busy.some((interval) => interval.start < end && start < interval.end)) return false
  return !booked.some((booking) => booking.id !== ignoreAppointmentId && booking.start < end && start < booking.blockedUntil)
}

const START_IN_PAST = 'This time is in the past.'
const startInsideNotice = (hours: number) => `This time is inside the minimum notice of ${hours} hours.`
const startBeyondHorizon = (days: number) => `This time is beyond the booking horizon of ${days} days.`
const START_OUTSIDE_AVAILABILITY = "This time is outside the professional's availability."

/**
 * Why a start cannot be booked by the schedule's rules, in the contract's order (past, notice,
 * horizon, outside availability), or undefined when it can. Whether it is still free is asked
 * separately (isClear), since that answers a 409 rather than a field error.
 */
export function startTimeProblem(schedule: ScheduleRules, exceptions: DateException[], now: number, start: number): string | undefined {
  const { earliest, latest } = bookingBounds(schedule, now)
  if (start < now) return START_IN_PAST
  if (start < earliest) return startInsideNotice(schedule.minimumNoticeHours)
  if (start > latest) return startBeyondHorizon(schedule.horizonDays)
  const offered = candidateStarts(schedule, exceptionMap(exceptions), start, start + 1).next()
  if (offered.done || offered.value !== start) return START_OUTSIDE_AVAILABILITY
  return undefined
}

/** Up to `count` free times nearest to an instant (by distance, the earlier on a tie), nearest first. */
export function nearestFree(instant: number, free: number[], count = 3): number[] {
  // Binary search: `after` is the first free time at or after the instant.
  let low = 0
  let high = free.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (free[middle]! < instant) low = middle + 1
    else high = middle
  }
  let before = low - 1
  let after = low
  const nearest: number[] = []
  while (nearest.length < count && (before >= 0 || after < free.length)) {
    const earlier = before >= 0 ? instant - free[before]! : Infinity
    const later = after < free.length ? free[after]! - instant : Infinity
    if (earlier <= later) nearest.push(free[before--]!)
    else nearest.push(free[after++]!)
  }
  return nearest
}

/** Free times by the date they fall on in a zone: each date's count, and one date's times. */
type FreeDays = { days: { date: string; count: number }[]; date: string | null; times: number[] }

/**
 * Ascending free times grouped by their local date in `timeZone` (the patient's, decision 0023):
 * every date with its count, and the times of `wanted` when it has some, else of the first date.
 * The zone's offset is looked up twice per UTC day and reused for the day's times unless it
 * changes within that day (a daylight-saving change), where each time looks its own up.
 */
export function freeTimesByDate(free: readonly number[], timeZone: string, wanted?: string): FreeDays {
  const days: { date: string; count: number }[] = []
  const timesOf = new Map<string, number[]>()
  let dayStart = NaN
  let dayOffset: number | undefined
  let localDay = NaN
  let times: number[] = []
  for (const time of free) {
    if (!(time >= dayStart && time < dayStart + DAY)) {
      dayStart = Math.floor(time / DAY) * DAY
      const atStart = offsetAt(timeZone, dayStart)
      dayOffset = atStart === offsetAt(timeZone, dayStart + DAY) ? atStart : undefined
    }
    // The local date's number (days since the epoch): its text is made once per date, not per time.
    const day = Math.floor((time + (dayOffset ?? offsetAt(timeZone, time))) / DAY)
    if (day !== localDay) {
      localDay = day
      const date = new Date(day * DAY).toISOString().slice(0, 10)
      times = timesOf.get(date) ?? []
      if (times.length === 0) {
        timesOf.set(date, times)
        days.push({ date, count: 0 })
      }
    }
    times.push(time)
  }
  for (const day of days) day.count = timesOf.get(day.date)!.length
  const date = wanted !== undefined && timesOf.has(wanted) ? wanted : (days[0]?.date ?? null)
  return { days, date, times: date ? timesOf.get(date)! : [] }
}

import { formatInTimeZone } from 'date-fns-tz'
import { todayIn } from './agenda.ts'
import { addDays, mondayOf } from './calendar-dates.ts'
import { isIsoDate } from './appointments.ts'

/**
 * Google Calendar events as the provider answers them (decision 0025, docs/product.md §3) and what the app
 * derives from them: all-day or not, the product's own or not, the instants an event takes, the
 * windows of docs/product.md §9 and the stats. Pure: the time zone and "now" are passed in. Instants are
 * milliseconds since the epoch; dates are wall-calendar dates (YYYY-MM-DD) of the given zone.
 */

/** A timed start/end (`dateTime`, with its UTC offset) or an all-day one (`date`). */
type EventTime = { dateTime?: string | null; date?: string | null; timeZone?: string | null }
type EventAttendee = { email: string; displayName?: string | null; responseStatus?: string | null; self?: boolean | null }
type EventStatus = 'confirmed' | 'tentative' | 'cancelled'

export type CalendarEvent = {
  id: string
  summary?: string | null
  start: EventTime
  end: EventTime
  description?: string | null
  location?: string | null
  attendees?: EventAttendee[] | null
  status?: EventStatus | null
  htmlLink?: string | null
  colorId?: string | null
  transparency?: 'opaque' | 'transparent' | null
  /** Set on the product's own events (a booked appointment). */
  innera_appointment_id?: number | null
}

/** A half-open interval of instants [start, end), in ms since the epoch. */
export type Interval = { start: number; end: number }

export type CalendarStats = { totalEvents: number; inneraEvents: number; externalEvents: number; upcomingEvents: number; conflictsDetected: number }

/** docs/product.md §9: the events read for the agenda cover this many days from this week's Monday. */
export const REFRESH_WINDOW_DAYS = 35
/** docs/product.md §9: conflicts are looked for this many days from today. */
const CONFLICT_WINDOW_DAYS = 30

const MINUTE = 60_000
const HOUR = 60 * MINUTE
// UTC offsets range from -12:00 to +14:00: every instant of a local date lies within these bounds.
const EARLIEST_OFFSET = 14 * HOUR
const LATEST_OFFSET = 12 * HOUR
const DAY = 24 * HOUR
const PRODUCT_NAME = /innera/i

/** An all-day event: its start has a date and no time. */
export function isAllDay(event: Pick<CalendarEvent, 'start'>): boolean {
  return !event.start.dateTime && Boolean(event.start.date)
}

/** The product's own event: linked to an appointment, or "Innera" (any case) in its title or description. */
export function isInneraEvent(event: Pick<CalendarEvent, 'summary' | 'description' | 'innera_appointment_id'>): boolean {
  if (event.innera_appointment_id !== null && event.innera_appointment_id !== undefined) return true
  return PRODUCT_NAME.test(event.summary ?? '') || PRODUCT_NAME.test(event.description ?? '')
}

/** The zone's offset from UTC at an instant, in ms (local = UTC + offset), whatever the process's zone. */
function offsetAt(timeZone: string, instant: number): number {
  const text = formatInTimeZone(new Date(instant), timeZone, 'xxx')
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(text)
  if (!match) throw new Error(`Unexpected UTC offset "${text}" for ${timeZone}`)
  const minutes = Number(match[2]) * 60 + Number(match[3])
  return (match[1] === '-' ? -minutes : minutes) * MINUTE
}

/**
 * Turns wall times (minutes after midnight, 1440 = the next midnight) of one local date into
 * instants. Like Temporal's "compatible" rule: a time that happens twice (clocks going back) is
 * its first occurrence; a time that does not exist (clocks going forward) is read with the offset
 * before the change, so it lands just after the jump. One offset serves a date without a change.
 */
export function wallClock(date: string, timeZone: string): (minutes: number) => number {
  const base = Date.parse(`${date}T00:00:00Z`)
  const before = offsetAt(timeZone, base - EARLIEST_OFFSET)
  const after = offsetAt(timeZone, base + DAY + LATEST_OFFSET)
  if (before === after) return (minutes) => base + minutes * MINUTE - before
  return (minutes) => {
    const wall = base + minutes * MINUTE
    const valid = [before, after].map((offset) => wall - offset).filter((instant) => offsetAt(timeZone, instant) === wall - instant)
    return valid.length > 0 ? Math.min(...valid) : wall - before
  }
}

/** The first instant of a local date in a time zone. */
export function startOfLocalDay(date: string, timeZone: string): number {
  return wallClock(date, timeZone)(0)
}

const OFFSET_SUFFIX = /(?:Z|[+-]\d{2}:?\d{2})$/i
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/

/** The instant of a `dateTime`: its own offset, or (without one) a wall time in `timeZone`. */
function instantOf(dateTime: string, timeZone: string): number | null {
  if (OFFSET_SUFFIX.test(dateTime)) {
    const time = Date.parse(dateTime)
    return Number.isNaN(time) ? null : time
  }
  const match = LOCAL_DATE_TIME.exec(dateTime)
  if (!match || !isIsoDate(match[1])) return null
  const seconds = Number(match[4] ?? 0) * 1000 + Number(`0.${match[5] ?? '0'}`) * 1000
  return wallClock(match[1]!, timeZone)(Number(match[2]) * 60 + Number(match[3])) + seconds
}

/**
 * The instants an event takes, [start, end). An all-day event takes whole local days of
 * `timeZone` (the viewer's), its end date exclusive as Google gives it (a missing or not later end:
 * one day). A timed event takes its own instants. Null when the times cannot be read.
 */
export function eventInterval(event: Pick<CalendarEvent, 'start' | 'end'>, timeZone: string): Interval | null {
  if (isAllDay(event)) {
    const first = event.start.date!
    if (!isIsoDate(first)) return null
    const last = isIsoDate(event.end.date) && event.end.date > first ? event.end.date : addDays(first, 1)
    return { start: startOfLocalDay(first, timeZone), end: startOfLocalDay(last, timeZone) }
  }
  if (!event.start.dateTime || !event.end.dateTime) return null
  const start = instantOf(event.start.dateTime, event.start.timeZone ?? timeZone)
  const end = instantOf(event.end.dateTime, event.end.timeZone ?? timeZone)
  if (start === null || end === null || end < start) return null
  return { start, end }
}

/** Whether two half-open intervals share an instant (touching ends do not; an empty one never does). */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < a.end && b.start < b.end && a.start < b.end && b.start < a.end
}

/** Days from a start date in a zone: the dates (end exclusive) and the instants [start, end). */
type DateWindow = { startDate: string; endDate: string; start: number; end: number }

function windowFrom(startDate: string, days: number, timeZone: string): DateWindow {
  const endDate = addDays(startDate, days)
  return { startDate, endDate, start: startOfLocalDay(startDate, timeZone), end: startOfLocalDay(endDate, timeZone) }
}

/**
 * docs/product.md §9: the events the agenda reads, from the Monday of the current week in the user's zone to
 * 35 days later (`endDate` is that date; the instants stop at its midnight).
 */
export function refreshWindow(now: Date | number, timeZone: string): DateWindow {
  return windowFrom(mondayOf(todayIn(timeZone, new Date(now))), REFRESH_WINDOW_DAYS, timeZone)
}

/** docs/product.md §9: conflicts are looked for from today (all of it) in the user's zone to 30 days later. */
export function conflictWindow(now: Date | number, timeZone: string, days = CONFLICT_WINDOW_DAYS): DateWindow {
  return windowFrom(todayIn(timeZone, new Date(now)), days, timeZone)
}

/** Every date of a window, in order (`endDate` excluded). */
export function windowDates(window: Pick<DateWindow, 'startDate' | 'endDate'>): string[] {
  const dates: string[] = []
  for (let date = window.startDate; date < window.endDate; date = addDays(date, 1)) dates.push(date)
  return dates
}

/**
 * docs/product.md §3's stats: every event given, the product's own and the others, those starting after
 * `now` (all-day ones at the midnight of `timeZone`), and how many conflicts were found.
 */
export function calendarStats(events: readonly CalendarEvent[], conflicts: readonly unknown[], now: Date | number, timeZone: string): CalendarStats {
  const at = new Date(now).getTime()
  const inneraEvents = events.filter(isInneraEvent).length
  const upcomingEvents = events.filter((event) => {
    const interval = eventInterval(event, timeZone)
    return interval !== null && interval.start > at
  }).length
  return { totalEvents: events.length, inneraEvents, externalEvents: events.length - inneraEvents, upcomingEvents, conflictsDetected: conflicts.length }
}

import { formatInTimeZone } from 'date-fns-tz'
import { todayIn } from './agenda.ts'
import { addDays, mondayOf } from './calendar-dates.ts'
import { isIsoDate, localDate } from './appointments.ts'
import { minutesOf } from './availability.ts'
import { type CalendarEvent, REFRESH_WINDOW_DAYS, conflictWindow, eventInterval, overlaps, refreshWindow, wallClock } from './calendar.ts'
import { type CalendarConflict } from './calendar-conflicts.ts'

/**
 * The professional's Google Calendar page (issue 13) as pure functions: which week of the refresh
 * window is shown, which dates are read, which events fall on which day, which conflicts are worth
 * showing, and the event form's times. Dates are wall-calendar dates of the given zone; "now" is
 * passed in.
 */

/** The refresh window holds this many weeks (docs/product.md §9: 35 days from this week's Monday). */
const CALENDAR_WEEKS = REFRESH_WINDOW_DAYS / 7

type CalendarWeek = { start: string; days: string[]; today: string; previous: string | null; next: string | null }

/**
 * The week to show: the one holding the requested date when it lies in the refresh window, else
 * this week. There are links to the weeks before and after only inside the window.
 */
export function calendarWeek(requested: unknown, timeZone: string, now: Date): CalendarWeek {
  const today = todayIn(timeZone, now)
  const first = mondayOf(today)
  const last = addDays(first, (CALENDAR_WEEKS - 1) * 7)
  const wanted = isIsoDate(requested) ? mondayOf(requested) : first
  const start = wanted < first || wanted > last ? first : wanted
  return {
    start,
    days: Array.from({ length: 7 }, (_, index) => addDays(start, index)),
    today,
    previous: start > first ? addDays(start, -7) : null,
    next: start < last ? addDays(start, 7) : null,
  }
}

/**
 * The dates the page asks the provider for: the refresh window (this week's Monday to 35 days
 * later), stretched when the conflict window (today to 30 days later) ends after it, as it does
 * on a Sunday. At most 37 days, well within the provider's 62.
 */
export function eventsQuery(now: Date | number, timeZone: string): { start_date: string; end_date: string } {
  const refresh = refreshWindow(now, timeZone)
  const conflicts = conflictWindow(now, timeZone)
  return { start_date: refresh.startDate, end_date: conflicts.endDate > refresh.endDate ? conflicts.endDate : refresh.endDate }
}

/** The events that take some of the refresh window (the page's stats count these). */
export function inRefreshWindow<Event extends CalendarEvent>(events: readonly Event[], now: Date | number, timeZone: string): Event[] {
  const window = refreshWindow(now, timeZone)
  return events.filter((event) => {
    const interval = eventInterval(event, timeZone)
    return interval !== null && (overlaps(interval, window) || (interval.start === interval.end && interval.start >= window.start && interval.start < window.end))
  })
}

/** A booked appointment's own event: the page shows the appointment instead. */
export const isAppointmentEvent = (event: Pick<CalendarEvent, 'innera_appointment_id'>) => event.innera_appointment_id !== null && event.innera_appointment_id !== undefined

/** The calendar's owner said no to this invitation. */
export const isDeclined = (event: Pick<CalendarEvent, 'attendees'>) => (event.attendees ?? []).some((attendee) => attendee.self === true && attendee.responseStatus === 'declined')

/**
 * The listed dates an event takes in a zone: every date its instants touch (an all-day event its
 * dates, a timed one from its start's date to its end's; an instant event its start's date).
 */
export function eventDays(event: CalendarEvent, days: readonly string[], timeZone: string): string[] {
  const interval = eventInterval(event, timeZone)
  if (!interval) return []
  const first = localDate(new Date(interval.start), timeZone)
  // The end is exclusive: the last date is that of the instant just before it.
  const last = interval.end > interval.start ? localDate(new Date(interval.end - 1), timeZone) : first
  return days.filter((day) => day >= first && day <= last)
}

/** Each listed date with its events: all-day ones first, then by start, then by title. */
export function eventsByDay<Event extends CalendarEvent>(events: readonly Event[], days: readonly string[], timeZone: string): { date: string; events: Event[] }[] {
  const byDate = new Map<string, { event: Event; start: number; allDay: boolean }[]>(days.map((day) => [day, []]))
  for (const event of events) {
    const interval = eventInterval(event, timeZone)
    if (!interval) continue
    const allDay = !event.start.dateTime && Boolean(event.start.date)
    for (const day of eventDays(event, days, timeZone)) byDate.get(day)!.push({ event, start: interval.start, allDay })
  }
  return [...byDate.entries()].map(([date, items]) => ({
    date,
    events: items
      .sort((a, b) => Number(b.allDay) - Number(a.allDay) || a.start - b.start || (a.event.summary ?? '').localeCompare(b.event.summary ?? ''))
      .map((item) => item.event),
  }))
}

/**
 * The conflicts worth telling: a slot taken only by booked consultations (their own events in
 * the professional's calendar) is the schedule working, not a conflict. A consultation beside
 * another event in the slot stays, and is high (docs/product.md §9).
 */
export function meaningfulConflicts(conflicts: readonly CalendarConflict[]): CalendarConflict[] {
  return conflicts.filter((conflict) => !conflict.conflictingEvents.every(isAppointmentEvent))
}

/** The event form's date and times for a timed event, in a zone; null for an all-day event or unreadable times. */
export function eventFormTimes(event: CalendarEvent, timeZone: string): { date: string; start: string; end: string } | null {
  if (!event.start.dateTime) return null
  const interval = eventInterval(event, timeZone)
  if (!interval) return null
  return {
    date: formatInTimeZone(new Date(interval.start), timeZone, 'yyyy-MM-dd'),
    start: formatInTimeZone(new Date(interval.start), timeZone, 'HH:mm'),
    end: formatInTimeZone(new Date(interval.end), timeZone, 'HH:mm'),
  }
}

/** The instants (ISO, UTC) of a local date's start and end times in a zone; null when they are not times or the end is not later. */
export function eventInstants(date: string, start: string, end: string, timeZone: string): { start_time: string; end_time: string } | null {
  const from = minutesOf(start)
  const to = minutesOf(end)
  if (!isIsoDate(date) || from === null || to === null || to <= from) return null
  const clock = wallClock(date, timeZone)
  const startTime = clock(from)
  const endTime = clock(to)
  if (endTime <= startTime) return null
  return { start_time: new Date(startTime).toISOString(), end_time: new Date(endTime).toISOString() }
}

/** One row of the week: a product appointment or a Google event (built by routes/agenda_.calendario/calendar-page.server.ts). */
export type AppointmentItem = { kind: 'appointment'; key: string; id: number; time: string; title: string; status: string }
export type EventItem = {
  kind: 'event'
  key: string
  id: string
  time: string
  title: string
  allDay: boolean
  innera: boolean
  status: 'confirmed' | 'tentative' | 'cancelled'
  free: boolean
  declined: boolean
  location: string
  htmlLink: string | null
  editable: boolean
}

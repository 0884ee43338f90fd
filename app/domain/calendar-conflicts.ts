import { addDays, weekdayIndex } from './calendar-dates.ts'
import { WEEKDAYS, minutesOf, type Slot, type Weekday, type WeeklyAvailability } from './availability.ts'
import { type CalendarEvent, type Interval, conflictWindow, eventInterval, isInneraEvent, overlaps, wallClock, windowDates } from './calendar.ts'

/**
 * Conflicts between a professional's availability and their Google Calendar (docs/product.md §3, §9;
 * decision 0025): over the conflict window, each availability slot of each local date that one or
 * more busy events overlap is one conflict, with a severity. Pure: the schedule, the events and
 * "now" are passed in; the text of the suggested resolution is the app's (a translation key).
 */

export type ConflictSeverity = 'high' | 'medium' | 'low'
const SEVERITIES: readonly ConflictSeverity[] = ['high', 'medium', 'low']

/** What the conflicts need of a schedule (the provider's `Schedule` fits). */
export type ConflictSchedule = {
  time_zone: string
  availability: WeeklyAvailability
  /** A date's exception replaces its weekday's slots (empty slots: a day off). */
  exceptions?: readonly { date: string; slots: readonly Slot[] }[]
}

/** A sentence for the app to translate: `t(key, values)`. */
type Resolution = { key: string; values: Record<string, string | number> }

export type CalendarConflict = {
  /** Stable across reads: `${date}-${start}-${end}`. */
  id: string
  dayName: Weekday
  date: string
  /** "HH:MM-HH:MM" as the schedule has it. */
  timeSlot: string
  /** The slot's instants (ISO, UTC). */
  start: string
  end: string
  conflictingEvents: CalendarEvent[]
  severity: ConflictSeverity
  suggestedResolution: Resolution
}

/** The keys of the suggested resolution, one per severity (values: count, title, date, timeSlot). */
const RESOLUTION_KEYS: Record<ConflictSeverity, string> = {
  high: 'calendar:conflicts.resolution.high',
  medium: 'calendar:conflicts.resolution.medium',
  low: 'calendar:conflicts.resolution.low',
}

const URGENT_WORDS = /importante|urgente/

/** Lower case without accents, so "IMPORTÂNTE" and "Urgênte" read as "importante" and "urgente". */
function plain(text: string | null | undefined): string {
  return (text ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/**
 * Whether an event takes the time: not when marked free (`transparent`), cancelled, or declined by
 * the calendar's owner (decision 0025's busy rule); tentative events do.
 */
export function blocksTime(event: CalendarEvent): boolean {
  if (event.transparency === 'transparent' || event.status === 'cancelled') return false
  return !(event.attendees ?? []).some((attendee) => attendee.self === true && attendee.responseStatus === 'declined')
}

/** docs/product.md §9: high with an event of the product; medium when a title or description says "importante" or "urgente"; else low. */
export function conflictSeverity(events: readonly CalendarEvent[]): ConflictSeverity {
  if (events.some(isInneraEvent)) return 'high'
  if (events.some((event) => URGENT_WORDS.test(plain(event.summary)) || URGENT_WORDS.test(plain(event.description)))) return 'medium'
  return 'low'
}

/** The weekday key of a calendar date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[weekdayIndex(date)]!
}

/** A date's slots: its exception's when it has one, else its weekday's when that day is enabled. */
export function slotsOn(schedule: ConflictSchedule, date: string): readonly Slot[] {
  const exception = schedule.exceptions?.find((item) => item.date === date)
  if (exception) return exception.slots
  const day = schedule.availability[weekdayOf(date)]
  return day?.enabled ? day.slots : []
}

/** The instants of a slot on a date in a zone (24:00 is the next midnight); null when malformed or empty. */
export function slotInterval(date: string, slot: Slot, timeZone: string): Interval | null {
  const from = minutesOf(slot.start)
  const to = minutesOf(slot.end)
  if (from === null || to === null || from >= to) return null
  const clock = wallClock(date, timeZone)
  const start = clock(from)
  const end = to === 24 * 60 ? wallClock(addDays(date, 1), timeZone)(0) : clock(to)
  return start < end ? { start, end } : null
}

/** "HH:MM" → the order of the day; used to sort slots of one date. */
const startMinutes = (conflict: CalendarConflict) => minutesOf(conflict.timeSlot.slice(0, 5)) ?? 0

/** High before medium before low, then by date and time of the slot. */
export function sortConflicts(conflicts: readonly CalendarConflict[]): CalendarConflict[] {
  const rank = (conflict: CalendarConflict) => SEVERITIES.indexOf(conflict.severity)
  return [...conflicts].sort(
    (a, b) => rank(a) - rank(b) || a.date.localeCompare(b.date) || startMinutes(a) - startMinutes(b) || a.id.localeCompare(b.id),
  )
}

/**
 * The conflicts over the conflict window (today in the schedule's zone to 30 days later, or
 * `days`): for each date and each of its slots that busy events overlap, one conflict with those
 * events in start order. All-day events take whole local days, so they hit every slot of them.
 * Sorted by `sortConflicts`.
 */
export function findConflicts(schedule: ConflictSchedule, events: readonly CalendarEvent[], now: Date | number, days?: number): CalendarConflict[] {
  const timeZone = schedule.time_zone
  const window = conflictWindow(now, timeZone, days)
  const busy = events
    .filter(blocksTime)
    .map((event) => ({ event, interval: eventInterval(event, timeZone) }))
    .filter((item): item is { event: CalendarEvent; interval: Interval } => item.interval !== null && overlaps(item.interval, window))
    .sort((a, b) => a.interval.start - b.interval.start)
  const conflicts: CalendarConflict[] = []
  if (busy.length === 0) return conflicts
  for (const date of windowDates(window)) {
    for (const slot of slotsOn(schedule, date)) {
      const interval = slotInterval(date, slot, timeZone)
      if (!interval) continue
      const hit = busy.filter((item) => overlaps(item.interval, interval)).map((item) => item.event)
      if (hit.length === 0) continue
      const timeSlot = `${slot.start}-${slot.end}`
      const severity = conflictSeverity(hit)
      conflicts.push({
        id: `${date}-${slot.start}-${slot.end}`,
        dayName: weekdayOf(date),
        date,
        timeSlot,
        start: new Date(interval.start).toISOString(),
        end: new Date(interval.end).toISOString(),
        conflictingEvents: hit,
        severity,
        suggestedResolution: { key: RESOLUTION_KEYS[severity], values: { count: hit.length, title: hit[0]!.summary ?? '', date, timeSlot } },
      })
    }
  }
  return sortConflicts(conflicts)
}

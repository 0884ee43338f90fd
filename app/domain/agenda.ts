import { localDate } from './appointments.ts'
import { addDays, mondayOf } from './calendar-dates.ts'
import { isDateInRange } from './date-range.ts'

/**
 * The professional's week (issue 12): which local dates a week holds, the weeks before and after,
 * and the appointments of each day. Pure: dates are wall-calendar dates (YYYY-MM-DD) of the
 * professional's time zone (their arithmetic in ./calendar-dates.ts), and "now" is passed in.
 */

/** Today's date in a time zone. */
export function todayIn(timeZone: string, now: Date): string {
  return localDate(now, timeZone)
}

/** The week to show: the one holding the requested date when it is a date a visitor may send (years 2000-2100), else this week. */
export function weekToShow(requested: unknown, timeZone: string, now: Date): { start: string; previous: string; next: string; days: string[]; today: string } {
  const today = todayIn(timeZone, now)
  const start = mondayOf(isDateInRange(requested) ? requested : today)
  return { start, previous: addDays(start, -7), next: addDays(start, 7), days: Array.from({ length: 7 }, (_, index) => addDays(start, index)), today }
}

/** Items with a start instant, by the local date they start on, in time order; every listed date present. */
export function byLocalDate<Item extends { start_time: string }>(items: readonly Item[], days: readonly string[], timeZone: string): { date: string; items: Item[] }[] {
  const byDate = new Map<string, Item[]>(days.map((day) => [day, []]))
  for (const item of [...items].sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time))) {
    byDate.get(localDate(item.start_time, timeZone))?.push(item)
  }
  return [...byDate.entries()].map(([date, list]) => ({ date, items: list }))
}

/**
 * How long until an instant, in the largest unit that reads naturally ("in 3 days", "in 5 hours",
 * "in 20 minutes"), for Intl.RelativeTimeFormat; at or after the instant, 0 minutes.
 */
export function timeUntil(instant: string, now: Date): { value: number; unit: 'day' | 'hour' | 'minute' } {
  const minutes = Math.max(0, Math.round((Date.parse(instant) - now.getTime()) / 60_000))
  if (minutes >= 48 * 60) return { value: Math.round(minutes / (24 * 60)), unit: 'day' }
  if (minutes >= 90) return { value: Math.round(minutes / 60), unit: 'hour' }
  return { value: minutes, unit: 'minute' }
}

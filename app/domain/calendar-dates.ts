/**
 * Calendar dates ("YYYY-MM-DD", a wall-calendar day with no zone): the day arithmetic and the
 * instant a formatter is given (decision 0084). Pure, no imports: pages, forms and the domain share it.
 *
 * Arithmetic is done in UTC, where every day has 24 hours, so no time zone's DST moves a date.
 * A date is formatted from its noon in UTC by a formatter with `timeZone: 'UTC'`; noon keeps the
 * day right even in a formatter that forgot the zone, for every zone from UTC-12 to UTC+11.
 */
const DAY_MS = 86_400_000

/** The instant to format a calendar date from: its noon in UTC. Pair it with `timeZone: 'UTC'`. */
export const dateAt = (date: string) => new Date(`${date}T12:00:00Z`)

/** The date `days` after (or before, when negative) a calendar date. */
export const addDays = (date: string, days: number) => new Date(dateAt(date).getTime() + days * DAY_MS).toISOString().slice(0, 10)

/** How many days from one calendar date to another (negative when `to` comes first). */
export const daysBetween = (from: string, to: string) => Math.round((dateAt(to).getTime() - dateAt(from).getTime()) / DAY_MS)

/** 0 for Monday to 6 for Sunday. */
export const weekdayIndex = (date: string) => (dateAt(date).getUTCDay() + 6) % 7

/** The Monday of the week a calendar date falls in. */
export const mondayOf = (date: string) => addDays(date, -weekdayIndex(date))

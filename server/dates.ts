import { WEEKDAYS, type Weekday } from '#server/db/schema.ts'

/**
 * Calendar dates and wall clocks, without I/O: instants are milliseconds since the epoch, dates
 * are local dates ("YYYY-MM-DD") and wall times minutes since a date's midnight in an IANA time
 * zone. Intl gives the zone's UTC offset at an instant; the rest is arithmetic. Dates from
 * callers are checked first (`server/http/fields.ts`: `isIsoDate`, the years 2000-2100).
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
// UTC offsets range from -12:00 to +14:00: every instant of a local date lies within these bounds.
const EARLIEST_OFFSET = 14 * HOUR
const LATEST_OFFSET = 12 * HOUR

/** "HH:MM" (00:00-23:59, or "24:00" as an end) → minutes since midnight; undefined when malformed. */
export function clockMinutes(text: string, { allowEndOfDay = false } = {}): number | undefined {
  if (allowEndOfDay && text === '24:00') return 24 * 60
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text)
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined
}

/**
 * A stored time ("HH:MM" or a time column's "HH:MM:SS") → minutes since midnight, seconds
 * ignored. Unchecked, unlike clockMinutes: for times already validated when they were saved.
 */
export const storedClockMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** "HH:MM" (00-23 hours) of an instant in a zone. */
export function wallClockOf(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant)
}

// One Intl formatter per zone: building one costs far more than using it, and 60 days of free
// times look the offset up a few hundred times per request.
const zoneClocks = new Map<string, Intl.DateTimeFormat>()
function zoneClock(timeZone: string): Intl.DateTimeFormat {
  let format = zoneClocks.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    // Bounded: there are about 600 zone names.
    if (zoneClocks.size < 1000) zoneClocks.set(timeZone, format)
  }
  return format
}

/**
 * The zone's offset from UTC at an instant, in ms (local = UTC + offset), to the minute: the
 * instant's wall clock in the zone ("MM/DD/YYYY, HH:MM", a plain format being several times
 * cheaper than formatToParts) read back as if it were UTC. Looks the instant up in the zone
 * whatever the process's own time zone.
 */
export function offsetAt(timeZone: string, instant: number): number {
  let known = knownOffsets.get(timeZone)
  if (!known) {
    known = new Map()
    if (knownOffsets.size < 1000) knownOffsets.set(timeZone, known)
  }
  let offset = known.get(instant)
  if (offset === undefined) {
    offset = readOffset(timeZone, instant)
    if (known.size >= KNOWN_OFFSETS_PER_ZONE) known.clear()
    known.set(instant, offset)
  }
  return offset
}

// The instants asked about repeat from request to request (each UTC midnight of the next 60 days,
// the edges of each local date), and Intl's answer costs a few microseconds: remembered per zone,
// a bounded number (a zone's offset at an instant never changes while the process runs).
const KNOWN_OFFSETS_PER_ZONE = 4096
const knownOffsets = new Map<string, Map<number, number>>()

function readOffset(timeZone: string, instant: number): number {
  const text = zoneClock(timeZone).format(instant)
  const wall = Date.UTC(Number(text.slice(6, 10)), Number(text.slice(0, 2)) - 1, Number(text.slice(3, 5)), Number(text.slice(12, 14)), Number(text.slice(15, 17)))
  if (Number.isNaN(wall)) throw new Error(`Unexpected wall clock "${text}" for ${timeZone}`)
  return wall - Math.floor(instant / MINUTE) * MINUTE
}

/** The local date ("YYYY-MM-DD") of an instant in a time zone. */
export function localDateOf(instant: number, timeZone: string): string {
  return new Date(instant + offsetAt(timeZone, instant)).toISOString().slice(0, 10)
}

/** The UTC date ("YYYY-MM-DD") of an instant. */
export const utcDateOf = (instant: number) => new Date(instant).toISOString().slice(0, 10)

const SAO_PAULO = 'America/Sao_Paulo'

/**
 * The calendar date (YYYY-MM-DD) of an instant in São Paulo, the programs' zone. Intl's own
 * date, not localDateOf's offset to the minute (the two agree wherever the zone's offset is
 * whole minutes, i.e. since 1914).
 */
export function saoPauloDate(epochMs: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: SAO_PAULO, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(epochMs)
  const part = (type: string) => parts.find((candidate) => candidate.type === type)!.value
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** The instant a date's midnight is in UTC. */
const dateBase = (date: string) => Date.parse(`${date}T00:00:00Z`)

/** The date `days` (a whole number) after `date`, or before it when negative. */
export function addDays(date: string, days: number): string {
  return new Date(dateBase(date) + days * DAY).toISOString().slice(0, 10)
}

/** Whole days from one date to another (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.floor((dateBase(to) - dateBase(from)) / DAY)
}

export function weekdayOf(date: string): Weekday {
  // getUTCDay: 0 is Sunday; WEEKDAYS starts on Monday.
  return WEEKDAYS[(new Date(dateBase(date)).getUTCDay() + 6) % 7]!
}

/**
 * Turns wall times of one local date into instants. Away from a daylight-saving change (almost
 * every day) one offset serves the whole date; on a change each wall time is tried with the
 * offsets before and after it: a time valid under neither is in the gap (undefined), one valid
 * under both happens twice and the first is taken.
 */
export function wallTimeResolver(date: string, timeZone: string): (minutes: number) => number | undefined {
  const base = dateBase(date)
  const before = offsetAt(timeZone, base - EARLIEST_OFFSET)
  const after = offsetAt(timeZone, base + DAY + LATEST_OFFSET)
  if (before === after) return (minutes) => base + minutes * MINUTE - before
  return (minutes) => {
    const wall = base + minutes * MINUTE
    let first: number | undefined
    for (const offset of [before, after]) {
      const instant = wall - offset
      if (offsetAt(timeZone, instant) === offset && (first === undefined || instant < first)) first = instant
    }
    return first
  }
}

/** The first instant of a local date (its midnight, or the end of a gap that swallowed midnight). */
export function startOfLocalDay(date: string, timeZone: string): number {
  const midnight = wallTimeResolver(date, timeZone)(0)
  if (midnight !== undefined) return midnight
  // Midnight fell in a gap: the day starts where the date changes, found by bisection.
  let low = dateBase(date) - EARLIEST_OFFSET
  let high = dateBase(date) + DAY + LATEST_OFFSET
  while (high - low > MINUTE) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE
    if (localDateOf(middle, timeZone) < date) low = middle
    else high = middle
  }
  return high
}

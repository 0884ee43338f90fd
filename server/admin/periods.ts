import { addDays, daysBetween, localDateOf, startOfLocalDay, weekdayOf } from '#server/dates.ts'
import { WEEKDAYS } from '#server/db/schema.ts'
import type { FieldErrors } from '#server/http/errors.ts'

/**
 * The admin dashboard's period (docs/decisions/0062-admin-dashboard.md), without I/O: local dates
 * from `from` to `to` (both included) in a time zone, cut into buckets of a day, a week or a month,
 * each bucket's bounds an instant (its first local midnight, DST-safe through server/dates.ts).
 * The queries count what happened at or after a bucket's start and before the next one's.
 */

export const BUCKET_KINDS = ['day', 'week', 'month'] as const
type BucketKind = (typeof BUCKET_KINDS)[number]

/** The period when none is asked for: the last 30 days, today included. */
const DEFAULT_PERIOD_DAYS = 30
/** The longest period one read covers: a year, a leap one too. */
const MAX_PERIOD_DAYS = 366
/** Up to this many days a period is told day by day (two months: at most 62 bars). */
const MAX_DAILY_DAYS = 62
/** Up to this many days, week by week (half a year: at most 28 bars); longer, month by month. */
const MAX_WEEKLY_DAYS = 183

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo'

export const END_BEFORE_START = 'The end date must not be before the start date.'
export const PERIOD_TOO_LONG = `The period can span at most ${MAX_PERIOD_DAYS} days.`

/** One bucket: the local date it starts on and its instants, `startsAt` included, `endsAt` not. */
type PeriodBucket = { start: string; startsAt: number; endsAt: number }

export type Period = {
  from: string
  to: string
  timeZone: string
  kind: BucketKind
  /** The period's first instant (`from`'s first midnight) and the one after its last (`to`'s next midnight). */
  startsAt: number
  endsAt: number
  buckets: PeriodBucket[]
}

/** How many local dates the period holds, both ends included. */
const periodDays = (from: string, to: string) => daysBetween(from, to) + 1

export function bucketKindFor(days: number): BucketKind {
  if (days <= MAX_DAILY_DAYS) return 'day'
  if (days <= MAX_WEEKLY_DAYS) return 'week'
  return 'month'
}

/** The first day of the month after the date's. */
function nextMonthStart(date: string): string {
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7))
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`
}

/** The date the bucket after the one holding `date` starts on: the next day, the next Monday, the next 1st. */
function nextBucketStart(date: string, kind: BucketKind): string {
  if (kind === 'day') return addDays(date, 1)
  if (kind === 'month') return nextMonthStart(date)
  // Weeks run Monday to Sunday (as the agenda's do).
  return addDays(date, 7 - WEEKDAYS.indexOf(weekdayOf(date)))
}

/**
 * The local dates the buckets start on: `from`, then each next day, Monday or 1st up to `to`. The
 * first and last buckets are cut to the period (a week bucket may start on a Wednesday).
 */
export function bucketStarts(from: string, to: string, kind: BucketKind): string[] {
  const starts = [from]
  for (let next = nextBucketStart(from, kind); next <= to; next = nextBucketStart(next, kind)) starts.push(next)
  return starts
}

/** The period from `from` to `to` (checked by `rangeProblems` first) in the time zone, with its buckets. */
export function periodOf(from: string, to: string, timeZone: string): Period {
  const kind = bucketKindFor(periodDays(from, to))
  const starts = bucketStarts(from, to, kind)
  const edges = [...starts, addDays(to, 1)].map((date) => startOfLocalDay(date, timeZone))
  return {
    from,
    to,
    timeZone,
    kind,
    startsAt: edges[0]!,
    endsAt: edges.at(-1)!,
    buckets: starts.map((start, index) => ({ start, startsAt: edges[index]!, endsAt: edges[index + 1]! })),
  }
}

/**
 * The dates a read covers: those asked for, `to` by default today and `from` by default 29 days
 * before `to` (the last 30 days).
 */
export function rangeOf({ from, to }: { from?: string; to?: string }, now: number, timeZone: string): { from: string; to: string } {
  const end = to ?? localDateOf(now, timeZone)
  return { from: from ?? addDays(end, -(DEFAULT_PERIOD_DAYS - 1)), to: end }
}

/** What is wrong with a range of valid dates (DRF's field errors), or undefined. */
export function rangeProblems({ from, to }: { from: string; to: string }): FieldErrors | undefined {
  if (to < from) return { to: [END_BEFORE_START] }
  if (periodDays(from, to) > MAX_PERIOD_DAYS) return { to: [PERIOD_TOO_LONG] }
  return undefined
}

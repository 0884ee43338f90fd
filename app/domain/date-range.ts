/**
 * The calendar dates a visitor may send (a week, a day, an event's or an exception's date): real
 * dates of the years 2000 to 2100, the provider's own range (server/http/fields.ts). Beyond them
 * the provider answers 400, so a page checks first and treats such a date as one it cannot read.
 * No imports: the forms' browser validation uses it too.
 */
export const EARLIEST_DATE = '2000-01-01'
export const LATEST_DATE = '2100-12-31'
/** Birth dates start earlier; the latest is today. */
export const EARLIEST_BIRTH_DATE = '1900-01-01'

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/

/** A calendar date (YYYY-MM-DD) that exists, within [earliest, latest] (the years 2000-2100 unless told). */
export function isDateInRange(value: unknown, { earliest = EARLIEST_DATE, latest = LATEST_DATE } = {}): value is string {
  if (typeof value !== 'string' || !DATE_PATTERN.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && value >= earliest && value <= latest
}

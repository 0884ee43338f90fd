import Holidays from 'date-holidays'
import { addDays, weekdayOf } from '#server/dates.ts'

/**
 * Business days in Brazil (issue 24: refunds by PIX and bank slip arrive within a number of
 * business days, docs/product.md §9): Monday to Friday, less Brazil's national public holidays.
 * Dates are calendar dates ("YYYY-MM-DD"); which date an instant falls on is the caller's choice
 * (refund-rules.ts takes São Paulo's). No I/O: date-holidays computes the holidays from rules it
 * carries (Easter for Good Friday), once per year asked.
 *
 * The holidays are date-holidays' country 'BR' without a state, type 'public' only: New Year,
 * Good Friday, Tiradentes, Labour Day, Independence, Nossa Senhora Aparecida, All Souls,
 * the Republic, Black Consciousness (national since 2024) and Christmas. Not Carnival or Corpus
 * Christi (optional points for federal staff, 'bank' and 'optional' in date-holidays), nor a state's
 * or a city's holidays: the terms name no place. The election days it lists as 'public' fall on
 * Sundays, so they change nothing.
 */

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/
/** The most business days addBusinessDays counts: a year of them is far more than any rule asks. */
export const MAX_BUSINESS_DAYS = 260

let brazil: Holidays | undefined
const holidaysByYear = new Map<number, ReadonlySet<string>>()

/** Brazil's national public holidays of a year, as dates ("YYYY-MM-DD"). */
export function brazilNationalHolidays(year: number): ReadonlySet<string> {
  let holidays = holidaysByYear.get(year)
  if (!holidays) {
    brazil ??= new Holidays('BR')
    // The `date` of a holiday is its local date and time ("2026-04-21 00:00:00").
    holidays = new Set(brazil.getHolidays(year).flatMap((holiday) => (holiday.type === 'public' ? [holiday.date.slice(0, 10)] : [])))
    // Bounded: refunds ask for this year and the next; dates from elsewhere are 2000-2100.
    if (holidaysByYear.size < 200) holidaysByYear.set(year, holidays)
  }
  return holidays
}

function checkDate(date: string): void {
  // Date.parse rolls 2026-02-30 over to March: a real date reads back as itself.
  const midnight = DATE_PATTERN.test(date) ? new Date(`${date}T00:00:00Z`) : undefined
  if (!midnight || Number.isNaN(midnight.getTime()) || !midnight.toISOString().startsWith(date)) throw new RangeError(`Not a date (YYYY-MM-DD): ${date}`)
}

/** Whether a date is a business day in Brazil: Monday to Friday and no national public holiday. */
export function isBusinessDay(date: string): boolean {
  checkDate(date)
  const weekday = weekdayOf(date)
  return weekday !== 'saturday' && weekday !== 'sunday' && !brazilNationalHolidays(Number(date.slice(0, 4))).has(date)
}

/**
 * The date of the `days`-th business day after `date` (1 to MAX_BUSINESS_DAYS): the date itself
 * never counts, business day or not, as a term counted in days leaves out its first day
 * (Código Civil, art. 132). Thursday 2026-04-02 plus 3: Good Friday and the weekend are skipped,
 * so Monday 6, Tuesday 7, Wednesday 8 April.
 */
export function addBusinessDays(date: string, days: number): string {
  checkDate(date)
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_BUSINESS_DAYS) throw new RangeError(`Business days must be a whole number from 1 to ${MAX_BUSINESS_DAYS}: ${days}`)
  let current = date
  for (let counted = 0; counted < days; ) {
    current = addDays(current, 1)
    if (isBusinessDay(current)) counted++
  }
  return current
}

import { type Language, languageTags } from '#app/i18n/config.ts'
import { addDays, dateAt, weekdayIndex } from './calendar-dates.ts'

/**
 * Habits as the pages show them (issue 14; decision 0027). The provider computes every figure
 * (streaks, strength, rates, heat-map levels); this only lays them out and words dates in the
 * reader's language. Pure: dates are local dates ("YYYY-MM-DD") the provider gave, counted and
 * formatted by ./calendar-dates.ts.
 */

export const WEEKDAY_KEYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

const formats = new Map<string, Intl.DateTimeFormat>()
function format(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`
  let found = formats.get(key)
  if (!found) {
    found = new Intl.DateTimeFormat(languageTags[language], { ...options, timeZone: 'UTC' })
    formats.set(key, found)
  }
  return found
}

/** A local date for a day button or a heading: "qua., 25 de nov." */
export const shortDate = (date: string, language: Language) => format(language, { weekday: 'short', day: 'numeric', month: 'short' }).format(dateAt(date))
/** A local date in full: "25 de novembro de 2026". */
export const longDate = (date: string, language: Language) => format(language, { day: 'numeric', month: 'long', year: 'numeric' }).format(dateAt(date))
/** "25 de nov." */
export const dayMonth = (date: string, language: Language) => format(language, { day: 'numeric', month: 'short' }).format(dateAt(date))

/** The weekdays' short names, Monday first ("seg.", "ter.", …). */
export function weekdayNames(language: Language, style: 'short' | 'long' = 'short'): string[] {
  // 2024-01-01 was a Monday.
  return WEEKDAY_KEYS.map((_, index) => format(language, { weekday: style }).format(dateAt(addDays('2024-01-01', index))))
}

/** A number as the reader writes it: "2,5" in pt and es, "2.5" in en. */
export const formatAmount = (value: number, language: Language) => new Intl.NumberFormat(languageTags[language], { maximumFractionDigits: 3 }).format(value)

/** A 0-1 rate as a whole percentage. */
export const percent = (rate: number) => Math.round(rate * 100)


/**
 * The heat map's grid: one column per week (Monday at the top), the first column starting on the
 * weekday of the first day; months labelled at the column where they begin.
 */
export function heatMapGrid<Day extends { date: string; level: number; status: string }>(days: readonly Day[], language: Language) {
  const first = days[0]?.date
  const offset = first ? weekdayIndex(first) : 0
  const cells = days.map((day, index) => ({ ...day, column: Math.floor((index + offset) / 7), row: (index + offset) % 7 }))
  const columns = cells.length ? cells.at(-1)!.column + 1 : 0
  const months: { column: number; label: string }[] = []
  let lastMonth = ''
  for (const cell of cells) {
    const month = cell.date.slice(0, 7)
    if (month === lastMonth) continue
    lastMonth = month
    // A month that begins in the last rows of a column is labelled on the next one, unless it is the first.
    const column = cell.row === 0 || months.length === 0 ? cell.column : cell.column + 1
    if (months.length && column - months.at(-1)!.column < 3) continue
    months.push({ column, label: format(language, { month: 'short' }).format(dateAt(cell.date)) })
  }
  return { cells, columns, months }
}

/** How many days of the heat map were done, skipped, missed: the text beside the picture. */
export function heatMapTally(days: readonly { status: string; level: number }[]) {
  let done = 0
  let skipped = 0
  let missed = 0
  for (const day of days) {
    if (day.status === 'done') done += 1
    else if (day.status === 'skipped') skipped += 1
    else if (day.status === 'not_done' || day.status === 'none') missed += 1
  }
  return { done, skipped, missed }
}

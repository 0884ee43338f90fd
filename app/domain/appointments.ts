import { type Language, languageTags } from '#app/i18n/config.ts'
import { addDays, dateAt } from './calendar-dates.ts'
import { DEFAULT_TIME_ZONE, cityOf, isTimeZone } from './time-zones.ts'

/**
 * Consultations as the patient reads them (docs/decisions/0023, docs/product.md §9): wall times in the
 * patient's time zone, the consultation window, the cancellation terms and prices. Pure: every
 * function takes the time zone, the language and "now" it needs; no I/O, no clock of its own.
 */

export { DEFAULT_TIME_ZONE }
export { NOTES_MAX_LENGTH, REASON_MAX_LENGTH } from './appointment-limits.ts'
/** docs/product.md §9: consultations cancelled at least this long ahead are refunded in full. */
const FULL_REFUND_NOTICE_MS = 24 * 60 * 60 * 1000
/** The consultation page opens this long before the start and closes at the end. */
const OPENS_BEFORE_MS = 10 * 60 * 1000
/** How far ahead the booking page reads free times (the provider answers at most 62 days). */
const AVAILABILITY_WINDOW_DAYS = 60

export type Slot = { start: string; end: string }
type RefundOutcome = 'full' | 'none'
export type Canceller = 'patient' | 'professional' | 'admin'

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/
const DAY_MS = 24 * 60 * 60 * 1000

/** The zone to show times in: the given one when it is a real IANA zone, else the default. */
export function timeZoneOr(value: unknown, fallback = DEFAULT_TIME_ZONE): string {
  return typeof value === 'string' && value.length <= 64 && isTimeZone(value) ? value : fallback
}

/** A calendar date (YYYY-MM-DD) that exists. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE_PATTERN.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

const timeOf = (instant: string | Date) => (typeof instant === 'string' ? Date.parse(instant) : instant.getTime())

// One Intl formatter per zone: building one costs far more than using it, and the booking page
// finds the local date of every free time of 60 days (hundreds) on each request.
const dateFormats = new Map<string, Intl.DateTimeFormat>()

/** The wall-clock date of an instant in a time zone. */
export function localDate(instant: string | Date, timeZone: string): string {
  let format = dateFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', calendar: 'gregory', numberingSystem: 'latn' })
    dateFormats.set(timeZone, format)
  }
  // "MM/DD/YYYY" (en-US, Latin digits, Gregorian): a plain format is several times cheaper than formatToParts.
  const text = format.format(timeOf(instant))
  return `${text.slice(6)}-${text.slice(0, 2)}-${text.slice(3, 5)}`
}

/** Free times grouped by the date they fall on in `timeZone`, dates and times in order. */
export function groupSlotsByDate<S extends Slot>(slots: readonly S[], timeZone: string): { date: string; slots: S[] }[] {
  const byDate = new Map<string, S[]>()
  // Each instant parsed once, not once per comparison.
  const ordered = slots.map((slot) => ({ slot, time: timeOf(slot.start) })).sort((a, b) => a.time - b.time)
  for (const { slot, time } of ordered) {
    const date = localDate(new Date(time), timeZone)
    const list = byDate.get(date)
    if (list) list.push(slot)
    else byDate.set(date, [slot])
  }
  return [...byDate.entries()].map(([date, list]) => ({ date, slots: list }))
}

/** The requested date when it has free times, else the first date that has some (or null). */
export function pickDate(dates: readonly string[], requested: unknown): string | null {
  if (isIsoDate(requested) && dates.includes(requested)) return requested
  return dates[0] ?? null
}

/** Dates grouped by the week they fall in (weeks start on `weekStartsOn`, 1 = Monday). */
export function groupDatesByWeek(dates: readonly string[], weekStartsOn = 1): { weekStart: string; dates: string[] }[] {
  const weeks = new Map<string, string[]>()
  for (const date of [...dates].sort()) {
    const weekStart = addDays(date, -((dateAt(date).getUTCDay() - weekStartsOn + 7) % 7))
    const list = weeks.get(weekStart)
    if (list) list.push(date)
    else weeks.set(weekStart, [date])
  }
  return [...weeks.entries()].map(([weekStart, list]) => ({ weekStart, dates: list }))
}

// Intl formatters are costly to build and a page formats hundreds of times: one per setting.
const formatters = new Map<string, Intl.DateTimeFormat>()
/** A cached formatter for a language and options (viewer-times.ts uses it too). */
export function dateTimeFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`
  let format = formatters.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(languageTags[language], options)
    // Bounded: a zone per user at most, a few styles each.
    if (formatters.size < 2000) formatters.set(key, format)
  }
  return format
}

/** A clock time ("09:00", "9:00 AM") of an instant in a time zone. */
export function formatTime(instant: string | Date, timeZone: string, language: Language): string {
  return dateTimeFormat(language, { timeStyle: 'short', timeZone }).format(timeOf(instant))
}

/** Date and time in full ("segunda-feira, 30 de março de 2026 às 09:00"). */
export function formatDateTime(instant: string | Date, timeZone: string, language: Language): string {
  return dateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(timeOf(instant))
}

/** A shorter date and time for lists ("seg., 30 de mar. de 2026, 09:00"). */
export function formatShortDateTime(instant: string | Date, timeZone: string, language: Language): string {
  return dateTimeFormat(language, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(timeOf(instant))
}

/** A calendar date: `short` for date links ("seg., 30 de mar."), `long` for headings ("segunda-feira, 30 de março de 2026"). */
export function formatDate(date: string, language: Language, style: 'short' | 'long' | 'dayMonth' = 'long'): string {
  const options: Intl.DateTimeFormatOptions =
    style === 'short'
      ? { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }
      : style === 'dayMonth'
        ? { day: 'numeric', month: 'long', timeZone: 'UTC' }
        : { dateStyle: 'full', timeZone: 'UTC' }
  return dateTimeFormat(language, options).format(dateAt(date))
}

function zonePart(instant: number, timeZone: string, language: Language, timeZoneName: 'longGeneric' | 'shortOffset'): string {
  return dateTimeFormat(language, { timeZone, timeZoneName }).formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? timeZone
}

/** The UTC offset of a zone at an instant ("GMT-3", "GMT+1"). */
export function utcOffset(instant: string | Date, timeZone: string, language: Language): string {
  return zonePart(timeOf(instant), timeZone, language, 'shortOffset')
}

/** A time zone's name as people say it ("Horário Padrão de Brasília", "Western European Time"). */
export function timeZoneName(timeZone: string, language: Language, at: string | Date): string {
  return zonePart(timeOf(at), timeZone, language, 'longGeneric')
}

/** A time zone as a person recognises it: "Horário da Europa Ocidental (Lisbon, GMT+1)". */
export function timeZoneLabel(timeZone: string, language: Language, at: string | Date): string {
  const instant = timeOf(at)
  return `${zonePart(instant, timeZone, language, 'longGeneric')} (${cityOf(timeZone)}, ${zonePart(instant, timeZone, language, 'shortOffset')})`
}

const canonicalZones = new Map<string, string>()
function canonicalZone(timeZone: string): string {
  let canonical = canonicalZones.get(timeZone)
  if (canonical === undefined) {
    try {
      canonical = new Intl.DateTimeFormat('en', { timeZone }).resolvedOptions().timeZone
    } catch {
      canonical = timeZone
    }
    // Bounded: there are about 600 zone names; anything past that is not worth remembering.
    if (canonicalZones.size < 1000) canonicalZones.set(timeZone, canonical)
  }
  return canonical
}

/** Times need their zone named when the patient's differs from the professional's (aliases are the same zone). */
export function shouldLabelTimeZone(patientZone: string, professionalZone: string): boolean {
  return canonicalZone(patientZone) !== canonicalZone(professionalZone)
}

/**
 * One day's times as labels. On a day whose offset changes (daylight saving starts or ends),
 * each time also names its offset: "01:30 (GMT-4)" and "01:30 (GMT-5)" are two different times.
 */
export function timeLabels<S extends Slot>(slots: readonly S[], timeZone: string, language: Language): (S & { label: string })[] {
  // The day's first and last times share their offset on all but a change day: one lookup each then.
  const first = slots[0]
  const last = slots[slots.length - 1]
  const changes = first !== undefined && last !== undefined && utcOffset(first.start, timeZone, language) !== utcOffset(last.start, timeZone, language)
  const offsets = changes ? slots.map((slot) => utcOffset(slot.start, timeZone, language)) : []
  return slots.map((slot, index) => {
    const time = formatTime(slot.start, timeZone, language)
    return { ...slot, label: changes ? `${time} (${offsets[index]})` : time }
  })
}

/** The `count` free times nearest to an instant, nearest first (the earlier one on a tie). */
export function nearestSlots<S extends Slot>(slots: readonly S[], instant: string, count = 3): S[] {
  const target = Date.parse(instant)
  return [...slots]
    .filter((slot) => Date.parse(slot.start) !== target)
    .sort((a, b) => Math.abs(Date.parse(a.start) - target) - Math.abs(Date.parse(b.start) - target) || Date.parse(a.start) - Date.parse(b.start))
    .slice(0, count)
}

/** The booking page's window of free times: from now for AVAILABILITY_WINDOW_DAYS. */
export function availabilityWindow(now: Date): { start: string; end: string } {
  return { start: new Date(now.getTime()).toISOString(), end: new Date(now.getTime() + AVAILABILITY_WINDOW_DAYS * DAY_MS).toISOString() }
}

/**
 * docs/product.md §9 and decision 0023: a patient who cancels at least 24 hours before the start is refunded
 * in full; later, the terms guarantee no refund. A professional or an admin cancelling always
 * refunds in full.
 */
export function refundOnCancel({ start, now, by }: { start: string; now: Date; by: Canceller }): RefundOutcome {
  if (by !== 'patient') return 'full'
  return Date.parse(start) - now.getTime() >= FULL_REFUND_NOTICE_MS ? 'full' : 'none'
}

const LIVE_STATUSES: readonly string[] = ['scheduled', 'confirmed']

/** Cancelling and rescheduling are possible while the appointment is live and has not started. */
export function isChangeable({ status, start }: { status: string; start: string }, now: Date): boolean {
  return LIVE_STATUSES.includes(status) && now.getTime() < Date.parse(start)
}

type ConsultationWindow = { opensAt: string; closesAt: string; state: 'before' | 'open' | 'ended' }

/** The consultation page's window: open from 10 minutes before the start until the end. */
export function consultationWindow({ start, end }: { start: string; end: string }, now: Date): ConsultationWindow {
  const opensAt = Date.parse(start) - OPENS_BEFORE_MS
  const closesAt = Date.parse(end)
  const at = now.getTime()
  const state = at < opensAt ? 'before' : at < closesAt ? 'open' : 'ended'
  return { opensAt: new Date(opensAt).toISOString(), closesAt: new Date(closesAt).toISOString(), state }
}

const priceFormats = new Map<string, Intl.NumberFormat>()
/** A price in cents as the language writes money ("R$ 180,00", "R$180.00"). */
export function formatPrice(cents: number, language: Language, currency = 'BRL'): string {
  const key = `${language}|${currency}`
  let format = priceFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(languageTags[language], { style: 'currency', currency })
    priceFormats.set(key, format)
  }
  return format.format(cents / 100)
}

/** A language code ("pt", "en") named in the reader's language ("Português"). */
const languageNames = new Map<Language, Intl.DisplayNames>()
export function languageName(code: string, language: Language): string {
  try {
    let names = languageNames.get(language)
    if (!names) {
      names = new Intl.DisplayNames(languageTags[language], { type: 'language' })
      languageNames.set(language, names)
    }
    const name = names.of(code)
    return name ? name.charAt(0).toLocaleUpperCase(languageTags[language]) + name.slice(1) : code
  } catch {
    return code
  }
}

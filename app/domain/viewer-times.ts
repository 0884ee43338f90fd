import { type Language } from '#app/i18n/config.ts'
import { dateTimeFormat, shouldLabelTimeZone, timeZoneName, utcOffset } from './appointments.ts'
import { DEFAULT_TIME_ZONE, cityOf } from './time-zones.ts'

/**
 * Instants as the person reading them sees them (docs/decisions/0077): in the reader's own time
 * zone and language, the zone named where another person's zone meets it. Pure: the zone, the
 * language and the instant come in. The app's loaders use them; the provider formats its own
 * texts (a consultation's line on a purchase, the e-mails) with server/zones.ts.
 */

/** The terms' zone (docs/product.md §9): the withdrawal days and the refunds' business days are its dates. */
const TERMS_TIME_ZONE = DEFAULT_TIME_ZONE

const timeOf = (instant: string | Date) => (typeof instant === 'string' ? Date.parse(instant) : instant.getTime())

type DateStyle = 'long' | 'medium' | 'short'

/** The date an instant falls on in a zone: "7 de dezembro de 2026", "December 7, 2026", "7 de diciembre de 2026". */
export function formatInstantDate(instant: string | Date, timeZone: string, language: Language, dateStyle: DateStyle = 'long'): string {
  return dateTimeFormat(language, { dateStyle, timeZone }).format(timeOf(instant))
}

/**
 * Date and time of an instant in a zone, joined by a comma in every language (ICU's own joiner
 * differs by language and version: "às", "at", "a las"): "7 de dezembro de 2026, 10:50",
 * "December 7, 2026, 10:50 AM", "7 de diciembre de 2026, 10:50".
 */
export function formatDateAndTime(instant: string | Date, timeZone: string, language: Language, { dateStyle = 'long', seconds = false }: { dateStyle?: DateStyle; seconds?: boolean } = {}): string {
  const at = timeOf(instant)
  return `${dateTimeFormat(language, { dateStyle, timeZone }).format(at)}, ${dateTimeFormat(language, { timeStyle: seconds ? 'medium' : 'short', timeZone }).format(at)}`
}

/** A zone named inside a sentence, without brackets of its own: "Horário Padrão de Brasília, Sao Paulo, GMT-3". */
function zoneInline(timeZone: string, language: Language, at: string | Date): string {
  return `${timeZoneName(timeZone, language, at)}, ${cityOf(timeZone)}, ${utcOffset(at, timeZone, language)}`
}

/**
 * The end of a purchase's withdrawal days (the first instant after them: midnight in São Paulo,
 * docs/product.md §9) as its reader reads it. In São Paulo's zone, the last day: "14 de dezembro
 * de 2026". Elsewhere that day ends at another hour, so the instant itself, in the reader's zone
 * and named: "15 de dezembro de 2026, 03:00 (Horário da Europa Ocidental, Lisbon, GMT+0)".
 */
export function withdrawalEndText(endsAt: string, timeZone: string, language: Language): string {
  if (!shouldLabelTimeZone(timeZone, TERMS_TIME_ZONE)) return formatInstantDate(new Date(Date.parse(endsAt) - 1), TERMS_TIME_ZONE, language)
  return `${formatDateAndTime(endsAt, timeZone, language)} (${zoneInline(timeZone, language, endsAt)})`
}

import type { LocalizedText } from '#server/db/schema.ts'
import { isTimeZone } from '#server/http/fields.ts'

/**
 * The provider's own texts' times (decision 0077): a purchase's consultation line, the receipts,
 * the subscription e-mails, each in its reader's zone and language, the zone named where another
 * person's zone meets it. The app formats its pages with its own helpers (app/domain/viewer-times.ts):
 * the two halves stand apart (the app is a client of this API), so each owns its formatting. Pure.
 */

export type TextLanguage = keyof LocalizedText
export const TEXT_LANGUAGES: readonly TextLanguage[] = ['pt', 'en', 'es']
const TAGS: Record<TextLanguage, string> = { pt: 'pt-BR', en: 'en', es: 'es' }

/** The zone a user's times are shown in when theirs is missing or unknown: São Paulo's, the terms'. */
const DEFAULT_ZONE = 'America/Sao_Paulo'

/** `value` when it is a zone the runtime knows, else São Paulo's. */
export function zoneOr(value: string | null | undefined): string {
  return typeof value === 'string' && value.length <= 64 && isTimeZone(value) ? value : DEFAULT_ZONE
}

const formats = new Map<string, Intl.DateTimeFormat>()
function format(language: TextLanguage, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`
  let found = formats.get(key)
  if (!found) {
    found = new Intl.DateTimeFormat(TAGS[language], options)
    // Bounded: a zone per user at most, a few styles each.
    if (formats.size < 2000) formats.set(key, found)
  }
  return found
}

const partOf = (instant: Date, timeZone: string, language: TextLanguage, timeZoneName: 'longGeneric' | 'shortOffset') =>
  format(language, { timeZone, timeZoneName })
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')?.value ?? timeZone

/** The date an instant falls on in a zone: "7 de dezembro de 2026". */
export function dateIn(instant: Date, timeZone: string, language: TextLanguage): string {
  return format(language, { dateStyle: 'long', timeZone }).format(instant)
}

/** Date and time, joined by a comma in every language: "7 de dezembro de 2026, 10:50". */
export function dateTimeIn(instant: Date, timeZone: string, language: TextLanguage): string {
  return `${dateIn(instant, timeZone, language)}, ${format(language, {
    timeStyle: 'short',
    timeZone,
  }).format(instant)}`
}

/** A zone named inside a sentence: "Horário Padrão de Brasília, Sao Paulo, GMT-3". */
export function zoneNamed(timeZone: string, language: TextLanguage, at: Date): string {
  const city = (timeZone.split('/').at(-1) ?? timeZone).replaceAll('_', ' ')
  return `${partOf(at, timeZone, language, 'longGeneric')}, ${city}, ${partOf(at, timeZone, language, 'shortOffset')}`
}

/** Whether two zone names are two different zones (aliases such as America/Sao_Paulo and Brazil/East are one). */
export function differentZones(one: string, other: string): boolean {
  const canonical = (zone: string) => format('en', { timeZone: zone }).resolvedOptions().timeZone
  return canonical(one) !== canonical(other)
}

/** A time where two zones meet: the reader's date and time, the reader's zone named when the other is another. */
export function meetingTimeIn(instant: Date, { readerZone, otherZone, language }: { readerZone: string; otherZone: string; language: TextLanguage }): string {
  const when = dateTimeIn(instant, readerZone, language)
  return differentZones(readerZone, otherZone) ? `${when} (${zoneNamed(readerZone, language, instant)})` : when
}

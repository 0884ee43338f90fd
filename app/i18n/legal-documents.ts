import { type Language } from './config.ts'

/**
 * Bumped when the cookie policy changes; a consent given to an older version is asked again
 * (app/utils/consent.ts records it in the consent cookie).
 */
export const COOKIE_POLICY_VERSION = '1.0'

/**
 * Version and effective date of each legal text (each language's legal.json in locales/), shown on
 * the page and filled into the texts. The cookie policy's version is the one the consent cookie
 * records, so the page always names the version a visitor's choice is checked against.
 */
export const legalDocuments = {
  privacy: { version: '1.0', effectiveDate: '2025-03-18' },
  terms: { version: '1.0', effectiveDate: '2025-03-18' },
  cookies: { version: COOKIE_POLICY_VERSION, effectiveDate: '2025-03-18' },
} as const

export type LegalDocumentName = keyof typeof legalDocuments

// Day before month in every language ("18 March 2025"), as the texts are written for Brazil.
const dateLocales: Record<Language, string> = { pt: 'pt-BR', en: 'en-GB', es: 'es' }

/** "2025-03-18" as a long date in the reader's language, e.g. "18 de março de 2025". */
export function formatEffectiveDate(isoDate: string, language: Language): string {
  const [year, month, day] = isoDate.split('-').map(Number)
  if (!year || !month || !day) throw new Error(`Not an ISO date: ${isoDate}`)
  return new Intl.DateTimeFormat(dateLocales[language], { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  )
}

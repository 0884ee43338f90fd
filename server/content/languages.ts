import { z } from 'zod'
import { validationError, type FieldErrors } from '#server/http/errors.ts'
import { charField } from '#server/http/fields.ts'

/**
 * Content in the product's three languages (decision 0064), pure: a draft's text may leave a
 * language empty; publishing refuses until every language of every text is filled in.
 */

export const CONTENT_LANGUAGES = ['pt', 'en', 'es'] as const
type ContentLanguage = (typeof CONTENT_LANGUAGES)[number]
export type DraftText = Record<ContentLanguage, string>

/** The message on each missing language's field (`title.en`), read by the app as `missing_language`. */
export const MISSING_LANGUAGE_MESSAGE = 'This language is missing: fill it in before publishing.'

/** A draft's text: each language trimmed and bounded, empty allowed (a missing key reads as empty). */
export const draftTextField = (maxLength: number) =>
  z.object({
    pt: charField({ maxLength, allowBlank: true }).default(''),
    en: charField({ maxLength, allowBlank: true }).default(''),
    es: charField({ maxLength, allowBlank: true }).default(''),
  })

/** Every language a text still lacks, by field name: `{ title: ['en'], description: ['en', 'es'] }`. */
export function missingLanguages(texts: Record<string, Partial<DraftText> | undefined>): Record<string, ContentLanguage[]> {
  const missing: Record<string, ContentLanguage[]> = {}
  for (const [field, text] of Object.entries(texts)) {
    const languages = CONTENT_LANGUAGES.filter((language) => !text?.[language]?.trim())
    if (languages.length > 0) missing[field] = languages
  }
  return missing
}

/** The publish check: a 400 naming each missing language's field (`description.es`), or the complete texts. */
export function requireAllLanguages<Field extends string>(texts: Record<Field, Partial<DraftText> | undefined>): Record<Field, DraftText> {
  const missing = missingLanguages(texts)
  if (Object.keys(missing).length > 0) {
    const errors: FieldErrors = {}
    for (const [field, languages] of Object.entries(missing)) for (const language of languages) errors[`${field}.${language}`] = [MISSING_LANGUAGE_MESSAGE]
    throw validationError(errors)
  }
  return texts as Record<Field, DraftText>
}

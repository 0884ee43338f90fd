import { z } from 'zod'

/** The content's order numbers (products, courses, lessons): 0 to this, as the provider's (server/db/schema.ts SORT_ORDER_MAX). */
export const SORT_ORDER_MAX = 1_000_000

/**
 * Content in the product's three languages, as the admin content editor takes it (decision 0064):
 * a draft may leave a language empty; "publish" refuses until every language of every text is
 * filled in. Used by the server and, deferred, the browser (forms/form-validation.ts).
 */

export const CONTENT_LANGUAGES = ['pt', 'en', 'es'] as const
type ContentLanguage = (typeof CONTENT_LANGUAGES)[number]
export type LocalizedDraft = Record<ContentLanguage, string>

/** Save the draft, or publish it (the button pressed: `<button name="intent" value="publish">`). */
const CONTENT_INTENTS = ['save', 'publish'] as const
type ContentIntent = (typeof CONTENT_INTENTS)[number]
export const contentIntentField = () => z.enum(CONTENT_INTENTS).catch('save')

export const MISSING_LANGUAGE_KEY = 'admin:content.missingLanguage'
export const MISSING_LANGUAGES_KEY = 'admin:content.missingLanguages'

const languageText = (maxLength: number) =>
  z
    .string()
    .trim()
    .max(maxLength, { error: 'validation.tooLong' })
    .refine((text) => !text.includes('\u0000'), { error: 'validation.tooLong' })
    .default('')

/** One text's three languages; an empty language is allowed here (conform reads an empty input as absent). */
export const localizedDraftField = (maxLength: number) => z.object({ pt: languageText(maxLength), en: languageText(maxLength), es: languageText(maxLength) }).default({ pt: '', en: '', es: '' })

/** Every language the texts still lack: `[['title', 'en'], ['description', 'es']]`. */
export function missingLanguages(texts: Record<string, Partial<LocalizedDraft> | undefined>): [string, ContentLanguage][] {
  return Object.entries(texts).flatMap(([field, text]) => CONTENT_LANGUAGES.filter((language) => !text?.[language]?.trim()).map((language) => [field, language] as [string, ContentLanguage]))
}

/**
 * The publish check as a zod refinement: on "publish", an error on each missing language's input
 * (`title.en`) and one for the form, so the editor sees which texts to finish.
 */
export function languagesBeforePublishing<Value extends { intent: ContentIntent }>(fields: readonly (keyof Value & string)[]) {
  return (value: Value, context: z.RefinementCtx) => {
    if (value.intent !== 'publish') return
    const texts = Object.fromEntries(fields.map((field) => [field, value[field] as Partial<LocalizedDraft> | undefined]))
    const missing = missingLanguages(texts)
    for (const [field, language] of missing) context.addIssue({ code: 'custom', path: [field, language], message: MISSING_LANGUAGE_KEY })
    if (missing.length > 0) context.addIssue({ code: 'custom', path: [], message: MISSING_LANGUAGES_KEY })
  }
}

export const supportedLanguages = ['pt', 'en', 'es'] as const
export type Language = (typeof supportedLanguages)[number]

/** The language shown when nothing else chooses one. */
export const defaultLanguage: Language = 'pt'
/** The language a missing key falls back to. */
const fallbackLanguage: Language = 'en'
export const defaultNamespace = 'common'

/** BCP 47 tags for `<html lang>`, hreflang and Intl formatting. */
export const languageTags: Record<Language, string> = { pt: 'pt-BR', en: 'en', es: 'es' }

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value)
}

export const i18nOptions = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: defaultNamespace,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
}

import { type i18n as I18n, createInstance } from 'i18next'
import { RemixI18Next } from 'remix-i18next/server'
import { type Language, defaultLanguage, i18nOptions, isLanguage } from './config'
import { languageCookie, languageDetection } from './detection.server.ts'
import { namespaces, resources } from './resources.server'
import { type Namespace, Translations } from './translator.ts'

export { languageCookie }

let server: RemixI18Next | undefined
export function i18nServer() {
  server ??= new RemixI18Next({ detection: languageDetection(), i18next: { ...i18nOptions, resources, ns: namespaces } })
  return server
}

/**
 * One i18next instance per language, made once: every resource is bundled, nothing ever changes
 * language on it, so requests share it (making one per request and per loader cost a tenth of the
 * server's time per page).
 */
const instances = new Map<Language, Promise<I18n>>()
export function i18nFor(language: Language): Promise<I18n> {
  let instance = instances.get(language)
  if (!instance) {
    const created = createInstance()
    instance = created
      .init({ ...i18nOptions, lng: language, ns: namespaces, resources })
      .then(() => created)
    instances.set(language, instance)
  }
  return instance
}

/**
 * The request's language, detected once per request: the root's loader, the page's and the
 * document's render all ask it of the same Request.
 */
const languageOfRequest = new WeakMap<Request, Promise<Language>>()
export function languageOf(request: Request): Promise<Language> {
  let language = languageOfRequest.get(request)
  if (!language) {
    language = i18nServer()
      .getLocale(request)
      .then((locale) => (isLanguage(locale) ? locale : defaultLanguage))
    languageOfRequest.set(request, language)
  }
  return language
}

/** `t` in the request's language, for loaders and actions (the first namespace is the default). */
export async function getFixedT(request: Request, namespaces: string | readonly string[] = 'common') {
  const language = await languageOf(request)
  return (await i18nFor(language)).getFixedT(language, namespaces as string | string[])
}

/** What the page's components render with: every namespace of the language (made once each). */
const translationsByLanguage = new Map<Language, Translations>()
export function translationsFor(language: Language): Translations {
  let translations = translationsByLanguage.get(language)
  if (!translations) {
    translations = new Translations(language, (resources[language] ?? {}) as Record<string, Namespace>)
    translationsByLanguage.set(language, translations)
  }
  return translations
}

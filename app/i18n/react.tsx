/**
 * Translations in components: `useTranslation(ns)` and `<Trans>`, with react-i18next's shape over
 * the app's own `Translations` (translator.ts). In the browser a namespace not loaded yet suspends
 * the component until its chunk arrives: route changes are transitions, so the page shown stays
 * until the next one can be drawn in full, never with raw keys.
 */
import { type ReactElement, type ReactNode, Fragment, cloneElement, createContext, useContext } from 'react'
import { defaultNamespace } from './config.ts'
import { type TFunction, type Translations } from './translator.ts'

const TranslationsContext = createContext<Translations | null>(null)

export function TranslationsProvider({ value, children }: { value: Translations; children: ReactNode }) {
  return <TranslationsContext.Provider value={value}>{children}</TranslationsContext.Provider>
}

type UseTranslation = {
  t: TFunction
  i18n: { language: string; exists: (key: string) => boolean }
}

export function useTranslation(namespaces: string | readonly string[] = defaultNamespace): UseTranslation {
  const translations = useContext(TranslationsContext)
  if (!translations) throw new Error('useTranslation outside <TranslationsProvider>')
  const list = typeof namespaces === 'string' ? [namespaces] : namespaces
  const missing = list.filter((namespace) => !translations.has(namespace))
  // Suspense: React shows this component once the promise settles.
  if (missing.length > 0) throw translations.load(missing)
  const namespace = list[0] ?? defaultNamespace
  return {
    t: translations.t(namespace),
    i18n: { language: translations.language, exists: (key) => translations.exists(key, namespace) },
  }
}

const TAG = /<(\w+)>([^<]*)<\/\1>/g

/**
 * A translation with markup: `<name>text</name>` in the text becomes `components[name]` with the
 * text inside (e.g. a link). Only the named components render; anything else stays text.
 */
export function Trans({ t, i18nKey, values, components }: { t: TFunction; i18nKey: string; values?: Record<string, unknown>; components: Record<string, ReactElement> }) {
  const text = t(i18nKey, values)
  const parts: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(TAG)) {
    const [whole, name, inner] = match
    const component = components[name!]
    if (!component) continue
    parts.push(text.slice(last, match.index))
    parts.push(cloneElement(component, { key: `${name}-${match.index}` }, inner))
    last = match.index + whole.length
  }
  parts.push(text.slice(last))
  return <Fragment>{parts}</Fragment>
}

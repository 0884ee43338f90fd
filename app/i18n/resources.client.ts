import { type Namespace } from './translator.ts'

// One chunk per language and namespace; the browser fetches only the page's language and the
// namespaces its routes use (their `handle.i18n`, then any other a component asks for). The long
// page texts (pages, legal) reach the browser as loader data, never as translations.
const loaders = import.meta.glob<{ default: Namespace }>(['../../locales/*/*.json', '!../../locales/*/pages.json', '!../../locales/*/legal.json'])

export async function loadNamespace(language: string, namespace: string): Promise<Namespace> {
  const load = loaders[`../../locales/${language}/${namespace}.json`]
  if (!load) throw new Error(`no translations for ${language}/${namespace}`)
  return (await load()).default
}

/** The namespaces the routes on the page declare (`export const handle = { i18n: [...] }`). */
export function routeNamespaces(routeModules: Record<string, { handle?: unknown } | undefined>): string[] {
  const namespaces = new Set<string>()
  for (const module of Object.values(routeModules)) {
    const wanted = (module?.handle as { i18n?: unknown } | undefined)?.i18n
    if (Array.isArray(wanted)) for (const namespace of wanted) if (typeof namespace === 'string') namespaces.add(namespace)
  }
  return [...namespaces]
}

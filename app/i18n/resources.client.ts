import { type Namespace } from './translator.ts'

// One chunk per language and namespace; the browser fetches only the page's language and the
// namespaces its routes use (their `handle.i18n`, then any other a component asks for). The long
// page texts (pages, legal) reach the browser as loader data, never as translations; the texts only
// actions and loaders use (password-rules: the provider's password messages; message-replies and
// shop-replies: refusals and toasts, said as text) never reach it.
const loaders = import.meta.glob<{ default: Namespace }>(['../../locales/*/*.json', '!../../locales/*/pages.json', '!../../locales/*/legal.json', '!../../locales/*/password-rules.json', '!../../locales/*/message-replies.json', '!../../locales/*/shop-replies.json'])

export async function loadNamespace(language: string, namespace: string): Promise<Namespace> {
  const load = loaders[`../../locales/${language}/${namespace}.json`]
  if (!load) throw new Error(`no translations for ${language}/${namespace}`)
  return (await load()).default
}

/**
 * The namespaces the routes on the page declare: `export const handle = { i18n: [...] }`, or a
 * function of the route's loader data when they depend on it (the dashboard's habits are a
 * patient's only).
 */
export function routeNamespaces(routeModules: Record<string, { handle?: unknown } | undefined>, loaderData: Record<string, unknown> = {}): string[] {
  const namespaces = new Set<string>()
  for (const [id, module] of Object.entries(routeModules)) {
    const declared = (module?.handle as { i18n?: unknown } | undefined)?.i18n
    const wanted: unknown = typeof declared === 'function' ? declared(loaderData[id]) : declared
    if (Array.isArray(wanted)) for (const namespace of wanted) if (typeof namespace === 'string') namespaces.add(namespace)
  }
  return [...namespaces]
}

import { type Resource } from 'i18next'
import { type Language, fallbackLanguage } from './config'

// One chunk per language and namespace, fetched before hydration for the page's language only.
// The long page texts (pages, legal) reach the browser as loader data, never as translations.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../locales/*/*.json',
  '!../../locales/*/pages.json',
  '!../../locales/*/legal.json',
])

export async function loadResources(language: Language): Promise<Resource> {
  const wanted = new Set([language, fallbackLanguage])
  const entries = await Promise.all(
    Object.entries(loaders)
      .map(([path, load]) => ({ match: /locales\/([^/]+)\/([^/]+)\.json$/.exec(path), load }))
      .filter(({ match }) => match && wanted.has(match[1] as Language))
      .map(async ({ match, load }) => [match![1]!, match![2]!, (await load()).default] as const),
  )
  const resources: Resource = {}
  for (const [lng, ns, data] of entries) {
    resources[lng] ??= {}
    resources[lng][ns] = data
  }
  return resources
}

import { type Resource } from 'i18next'

// Bundled as modules so that the build and the container carry the translations with them.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*/*.json', { eager: true })

export const resources: Resource = {}
for (const [path, module] of Object.entries(files)) {
  const [, language, namespace] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? []
  if (!language || !namespace) continue
  resources[language] ??= {}
  resources[language][namespace] = module.default
}
export const namespaces = [...new Set(Object.values(resources).flatMap((byNamespace) => Object.keys(byNamespace)))]

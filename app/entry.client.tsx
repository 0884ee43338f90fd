import { RemixBrowser } from '@remix-run/react'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { defaultLanguage, defaultNamespace, isLanguage } from './i18n/config.ts'
import { TranslationsProvider } from './i18n/react.tsx'
import { loadNamespace, routeNamespaces } from './i18n/resources.client.ts'
import { Translations } from './i18n/translator.ts'

declare global {
  interface Window {
    __remixRouteModules: Record<string, { handle?: unknown } | undefined>
    __remixContext?: { state?: { loaderData?: Record<string, unknown> } }
  }
}

async function hydrate() {
  const lang = document.documentElement.dataset.lng
  const translations = new Translations(isLanguage(lang) ? lang : defaultLanguage, {}, loadNamespace)
  // The page's namespaces before hydration, so the first render matches the server's.
  await translations.load([defaultNamespace, ...routeNamespaces(window.__remixRouteModules, window.__remixContext?.state?.loaderData)])
  startTransition(() => {
    hydrateRoot(
      document,
      <TranslationsProvider value={translations}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </TranslationsProvider>,
    )
  })
}

void hydrate()

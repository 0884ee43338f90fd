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

/**
 * The page's data, decoded before hydration starts (docs/decisions/0071). With single fetch,
 * RemixBrowser's first render starts decoding the data streamed into the page and suspends until it
 * is done. React 18 hydrates at once, synchronously, when the person types or clicks during
 * hydration, and a render that suspends then throws "Root did not complete" (error #345) into the
 * page. Calling the component once beforehand starts that decoding (it throws its promise before
 * any hook runs); awaiting the promise means the real first render never suspends. It also puts the
 * loader data in window.__remixContext.state, where the translations below read it.
 */
async function decodePageData() {
  try {
    RemixBrowser({})
  } catch (thrown) {
    // The decoding's promise; anything else (a failed decoding) the real render throws again.
    if (thrown instanceof Promise) await thrown
  }
}

async function hydrate() {
  await decodePageData()
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

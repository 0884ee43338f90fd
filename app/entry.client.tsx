import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { defaultLanguage, i18nOptions, isLanguage } from './i18n/config.ts'
import { loadResources } from './i18n/resources.client.ts'

async function hydrate() {
  const lang = document.documentElement.dataset.lng
  const lng = isLanguage(lang) ? lang : defaultLanguage
  await i18next.use(initReactI18next).init({ ...i18nOptions, lng, resources: await loadResources(lng) })
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    )
  })
}

void hydrate()

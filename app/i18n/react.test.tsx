import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { Trans, TranslationsProvider, useTranslation } from './react.tsx'
import { Translations } from './translator.ts'

const translations = new Translations('pt', {
  common: { hello: 'Olá, {{name}}' },
  contact: { consent: 'Veja a nossa <privacy>política</privacy> e <other>isto</other>.' },
})

function Greeting() {
  const { t, i18n } = useTranslation()
  return <p lang={i18n.language}>{t('hello', { name: 'Ana' })}</p>
}

function Consent() {
  const { t } = useTranslation('contact')
  return <Trans t={t} i18nKey="consent" components={{ privacy: <a href="/privacidade" /> }} />
}

describe('useTranslation and Trans', () => {
  test('render with the provided translations', () => {
    expect(renderToString(<TranslationsProvider value={translations}><Greeting /></TranslationsProvider>)).toBe('<p lang="pt">Olá, Ana</p>')
  })

  test('Trans puts the named components around their text and leaves unknown tags as text', () => {
    expect(renderToString(<TranslationsProvider value={translations}><Consent /></TranslationsProvider>)).toBe(
      'Veja a nossa <a href="/privacidade">política</a> e &lt;other&gt;isto&lt;/other&gt;.',
    )
  })

  test('a namespace not loaded suspends until it is (the server has them all, so this is the browser)', async () => {
    const lazy = new Translations('pt', { common: {} }, async () => ({ consent: 'Pronto' }))
    function Lazy() {
      const { t } = useTranslation('contact')
      return <span>{t('consent')}</span>
    }
    let thrown: unknown
    try {
      renderToString(<TranslationsProvider value={lazy}><Lazy /></TranslationsProvider>)
    } catch (error) {
      thrown = error
    }
    // renderToString reports a suspension outside <Suspense> as an error; the load has started.
    expect(thrown).toBeDefined()
    await lazy.load(['contact'])
    expect(renderToString(<TranslationsProvider value={lazy}><Lazy /></TranslationsProvider>)).toBe('<span>Pronto</span>')
  })
})

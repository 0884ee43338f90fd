import { describe, expect, test } from 'vitest'
import { loader as cookiesLoader } from '#app/routes/cookies.tsx'
import { loader as faqLoader } from '#app/routes/faq.tsx'
import { loader as lifestyleLoader } from '#app/routes/medicina-do-estilo-de-vida.tsx'
import { loader as privacyLoader } from '#app/routes/privacidade.tsx'
import { loader as programLoader } from '#app/routes/programa.tsx'
import { loader as aboutLoader } from '#app/routes/sobre.tsx'
import { loader as termsLoader } from '#app/routes/termos.tsx'
import { isAllowedHref } from '#app/utils/rich-text.ts'

const languages = ['pt', 'en', 'es'] as const
const args = (lng: string) => ({ request: new Request(`http://app.test/?lng=${lng}`), params: {}, context: {} })

const loaders = {
  about: aboutLoader,
  lifestyleMedicine: lifestyleLoader,
  program: programLoader,
  faq: faqLoader,
  privacy: privacyLoader,
  terms: termsLoader,
  cookies: cookiesLoader,
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings)
  return []
}

/** Pages the public texts may link to: the public site and the routes other issues build. */
const knownPaths = ['/', '/sobre', '/medicina-do-estilo-de-vida', '/programa', '/faq', '/contato', '/privacidade', '/termos', '/cookies', '/avaliacao']

describe.each(languages)('public pages in %s', (lng) => {
  test.each(Object.keys(loaders) as (keyof typeof loaders)[])('%s: meta, no leftover placeholders, only known links', async (page) => {
    const data = await loaders[page](args(lng))
    expect(data.meta.title).toMatch(/Innera/)
    expect(data.meta.description.length).toBeGreaterThan(40)
    const texts = strings(data)
    expect(texts.filter((text) => text.includes('{{'))).toEqual([])
    const hrefs = texts.flatMap((text) => [...text.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!))
    for (const href of hrefs) {
      expect(isAllowedHref(href), href).toBe(true)
      if (href.startsWith('/')) expect(knownPaths, href).toContain(href.split(/[?#]/)[0])
      else expect(href).toBe('mailto:dpo@innera.com.br')
    }
  })
})

describe('legal texts carry their version and date', () => {
  test.each([
    ['pt', 'Versão 1.0 · Em vigor desde 18 de março de 2025', '18 de março de 2025'],
    ['en', 'Version 1.0 · In force since 18 March 2025', '18 March 2025'],
    ['es', 'Versión 1.0 · Vigente desde el 18 de marzo de 2025', '18 de marzo de 2025'],
  ] as const)('%s', async (lng, versionLine, date) => {
    for (const loader of [privacyLoader, termsLoader, cookiesLoader]) {
      const { labels } = await loader(args(lng))
      expect(labels.versionLine).toBe(versionLine)
    }
    const { document } = await termsLoader(args(lng))
    expect(document.sections.changes.paragraphs[0]).toMatch(new RegExp(`1\\.0\\b.*${date}`))
  })

  test('an unsupported language gets the Portuguese texts', async () => {
    const { document } = await termsLoader(args('fr'))
    expect(document.title).toBe('Termos e condições')
  })
})

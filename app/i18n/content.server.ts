import { getFixedT, languageOf } from './i18next.server.ts'
import { type LegalDocumentName, formatEffectiveDate, legalDocuments } from './legal-documents.ts'
// Types only: the Portuguese files give the shape; tests/i18n keeps en and es identical to it.
import type legal from '../../locales/pt/legal.json'
import type pages from '../../locales/pt/pages.json'

type PagesContent = typeof pages
type LegalContent = typeof legal

/**
 * The long texts of the public pages are read here, in the loader, and reach the browser as loader
 * data: the page's own text travels with it, and the client's i18n bundle needs none of it.
 */
export async function pageContent<Page extends keyof PagesContent>(request: Request, page: Page) {
  const t = await getFixedT(request, 'pages')
  const content = t(page, { returnObjects: true }) as unknown as PagesContent[Page]
  return { meta: { title: content.metaTitle, description: content.metaDescription }, content }
}

/** A legal text with its version and effective date filled in, plus the labels of its layout. */
export async function legalContent<Name extends LegalDocumentName>(request: Request, name: Name) {
  const [t, language] = await Promise.all([getFixedT(request, 'legal'), languageOf(request)])
  const { version, effectiveDate } = legalDocuments[name]
  const values = { version, date: formatEffectiveDate(effectiveDate, language) }
  const document = t(name, { returnObjects: true, ...values }) as unknown as LegalContent[Name]
  const labels = t('ui', { returnObjects: true, ...values }) as unknown as LegalContent['ui']
  return { meta: { title: document.metaTitle, description: document.metaDescription }, document, labels }
}

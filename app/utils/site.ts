import { supportedLanguages, languageTags } from '#app/i18n/config.ts'

/** The public pages, for the sitemap (and anything else that lists the site). */
export const publicPaths = ['/', '/sobre', '/medicina-do-estilo-de-vida', '/programa', '/solucoes', '/faq', '/contato', '/privacidade', '/termos', '/cookies'] as const

/** Pages no search engine should index. */
/**
 * What robots.txt keeps crawlers out of: links that carry a one-time token, and endpoints that are
 * not pages. Signed-in pages are not listed: sign-in protects them, a crawler is sent to the sign-in
 * page, and a Disallow would only advertise them (docs/decisions/0006-robots.md).
 */
export const crawlerExcludedPrefixes = ['/auth/reset/', '/auth/confirm/', '/auth/google', '/calendario/', '/resources/', '/media/', '/bench/'] as const

/** hreflang alternates of a page: one URL per language (?lng=), plus x-default (pt). */
export function languageAlternates(origin: string, pathname: string) {
  const alternates = supportedLanguages.map((lng) => ({ hrefLang: languageTags[lng], href: `${origin}${pathname}?lng=${lng}` }))
  return [...alternates, { hrefLang: 'x-default', href: `${origin}${pathname}` }]
}

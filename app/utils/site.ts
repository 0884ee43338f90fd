import { supportedLanguages, languageTags } from '#app/i18n/config.ts'

/** The public pages, for the sitemap (and anything else that lists the site). */
export const publicPaths = ['/', '/sobre', '/medicina-do-estilo-de-vida', '/programa', '/faq', '/contato', '/privacidade', '/termos', '/cookies'] as const

/** Pages no search engine should index. */
export const privatePrefixes = ['/admin', '/dashboard', '/perfil', '/configuracoes', '/auth/reset', '/auth/confirm', '/resources', '/media'] as const

/** hreflang alternates of a page: one URL per language (?lng=), plus x-default (pt). */
export function languageAlternates(origin: string, pathname: string) {
  const alternates = supportedLanguages.map((lng) => ({ hrefLang: languageTags[lng], href: `${origin}${pathname}?lng=${lng}` }))
  return [...alternates, { hrefLang: 'x-default', href: `${origin}${pathname}` }]
}

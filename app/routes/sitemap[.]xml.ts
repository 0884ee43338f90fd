import { getEnv } from '#app/env.server.ts'
import { languageAlternates, publicPaths } from '#app/utils/site.ts'

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

export function loader() {
  // Never the request's Host: a visitor could point the links at another site.
  const origin = getEnv().APP_PUBLIC_URL
  const urls = publicPaths.map((path) => {
    const links = languageAlternates(origin, path)
      .map((alternate) => `    <xhtml:link rel="alternate" hreflang="${alternate.hrefLang}" href="${escape(alternate.href)}"/>`)
      .join('\n')
    return `  <url>\n    <loc>${escape(`${origin}${path}`)}</loc>\n${links}\n  </url>`
  })
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}

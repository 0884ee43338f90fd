import { getEnv } from '#app/env.server.ts'
import { crawlerExcludedPrefixes } from '#app/utils/site.ts'

export function loader() {
  // Never the request's Host: a visitor could point the links at another site.
  const origin = getEnv().APP_PUBLIC_URL
  const body = ['User-agent: *', 'Allow: /', ...crawlerExcludedPrefixes.map((prefix) => `Disallow: ${prefix}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}

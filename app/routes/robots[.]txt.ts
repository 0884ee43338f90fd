import { type LoaderFunctionArgs } from '@remix-run/node'
import { getEnv } from '#app/env.server.ts'
import { crawlerExcludedPrefixes } from '#app/utils/site.ts'

export function loader({ request }: LoaderFunctionArgs) {
  const origin = getEnv().APP_PUBLIC_URL ?? new URL(request.url).origin
  const body = ['User-agent: *', 'Allow: /', ...crawlerExcludedPrefixes.map((prefix) => `Disallow: ${prefix}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}

/**
 * First-load JavaScript: what Chromium actually fetches on a cold first visit (entry, route chunks,
 * modulepreloads, the locale chunks loaded before hydration), each response's body gzipped (level 6,
 * as the app's compression middleware does) and summed.
 */
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs'

/** Cookie header → Playwright cookies for the app's origin. */
function cookiesFor(baseURL, header) {
  if (!header) return []
  return header.split('; ').map((pair) => {
    const index = pair.indexOf('=')
    return { name: pair.slice(0, index), value: pair.slice(index + 1), url: baseURL }
  })
}

/**
 * @param {{ baseURL: string, pages: { name: string, path: string, cookie?: string, baseURL?: string, block?: RegExp }[] }} options (a page's own
 *   baseURL: another server, e.g. the floor; `block`: requests refused, such as a live stream that would keep the page from being idle)
 */
export async function measureFirstLoadJs({ baseURL: defaultBaseURL, pages }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true })
  const results = {}
  try {
    for (const { name, path, cookie, baseURL = defaultBaseURL, block } of pages) {
      const context = await browser.newContext({ locale: 'pt-BR' })
      await context.addCookies(cookiesFor(baseURL, cookie))
      // Only the loopback app: anything else is refused, so a stray request would show as a failure.
      await context.route((url) => !url.href.startsWith(baseURL) || (block !== undefined && block.test(url.pathname)), (route) => route.abort())
      const page = await context.newPage()
      const scripts = []
      page.on('response', (response) => {
        const type = response.headers()['content-type'] ?? ''
        if (response.request().resourceType() === 'script' || /javascript/.test(type)) {
          scripts.push(
            response.body().then(async (body) => {
              const sizes = await response.request().sizes().catch(() => null)
              return { url: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 6 }).length, transfer: sizes?.responseBodySize ?? null }
            }),
          )
        }
      })
      const response = await page.goto(`${baseURL}${path}`, { waitUntil: 'networkidle', timeout: 30_000 })
      if (!response || response.status() !== 200) throw new Error(`${path} answered ${response?.status()}`)
      if (page.url() !== `${baseURL}${path}`) throw new Error(`${path} was redirected to ${page.url()}`)
      // Hydrated: React has attached its handlers (the root element gains a React fiber key).
      await page.waitForFunction(() => Object.keys(document.documentElement).some((key) => key.startsWith('__react')), undefined, { timeout: 10_000 })
      await page.waitForLoadState('networkidle')
      const files = (await Promise.all(scripts)).sort((a, b) => b.gzip - a.gzip)
      results[name] = {
        path,
        files,
        count: files.length,
        rawBytes: files.reduce((sum, file) => sum + file.raw, 0),
        gzipBytes: files.reduce((sum, file) => sum + file.gzip, 0),
      }
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return results
}

import { afterAll, describe, expect, test, vi } from 'vitest'

// Read by the first getEnv() of this file: the modules below are imported afresh (test files share
// a worker's modules), and again after it for the files that follow. APP_PUBLIC_URL is left unset:
// its default (localhost on the app's port) must win over whatever host was asked for.
const names = ['APP_PUBLIC_URL', 'PORT', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const
const saved = names.map((name) => [name, process.env[name]] as const)
delete process.env.APP_PUBLIC_URL
process.env.PORT = '3999'
const PUBLIC = 'http://localhost:3999'
process.env.GOOGLE_CLIENT_ID = 'test-client-id'
process.env.GOOGLE_CLIENT_SECRET = 'test-client-secret'
vi.resetModules()
afterAll(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  vi.resetModules()
})

const { loader: robotsLoader } = await import('#app/routes/robots[.]txt.ts')
const { loader: sitemapLoader } = await import('#app/routes/sitemap[.]xml.ts')
const { loader: rootLoader } = await import('#app/root.tsx')
const { action: googleAction } = await import('#app/routes/auth_.google.tsx')
const { run } = await import('#tests/mocks/route.ts')

/** What a visitor can send: a Host (the request's URL, as the server builds it) and X-Forwarded-Host of their choosing. */
const forged = (path: string, init: RequestInit = {}) =>
  new Request(`http://evil.example${path}`, { ...init, headers: { 'X-Forwarded-Host': 'evil.example', ...init.headers } })

const absoluteUrls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"<]+/g)].map((match) => match[0]).filter((url) => !url.includes('sitemaps.org') && !url.includes('w3.org'))

describe('absolute URLs come from APP_PUBLIC_URL (or its default), never from the request', () => {
  test('robots.txt', async () => {
    const text = await robotsLoader().text()
    expect(text).toContain(`Sitemap: ${PUBLIC}/sitemap.xml`)
    expect(text).not.toContain('evil.example')
  })

  test('sitemap.xml', async () => {
    const text = await sitemapLoader().text()
    const urls = absoluteUrls(text)
    expect(urls.length).toBeGreaterThan(9)
    for (const url of urls) expect(new URL(url.replace(/&amp;/g, '&')).origin).toBe(PUBLIC)
  })

  test('the hreflang alternates of every page', async () => {
    const result = await run(rootLoader, forged('/sobre'))
    expect((result.data as { origin: string }).origin).toBe(PUBLIC)
  })

  test("Google's redirect_uri", async () => {
    const result = await run(googleAction, forged('/auth/google', { method: 'POST' }))
    expect(result.status).toBe(302)
    const authorization = new URL(result.location!)
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${PUBLIC}/auth/google/callback`)
  })
})

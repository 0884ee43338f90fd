import { describe, expect, test } from 'vitest'
import { loader } from '#app/routes/robots[.]txt.ts'

describe('robots.txt', () => {
  test('keeps crawlers off token links and endpoints, not off signed-in pages, and names the sitemap', async () => {
    const response = loader()
    const text = await response.text()
    expect(text).toContain('User-agent: *')
    for (const prefix of ['/auth/reset/', '/auth/confirm/', '/calendario/', '/resources/', '/media/']) expect(text).toContain(`Disallow: ${prefix}`)
    // Sign-in protects these; a Disallow would cost them nothing and tell everyone where they are.
    for (const path of ['/dashboard', '/admin', '/perfil']) expect(text).not.toContain(`Disallow: ${path}`)
    expect(text).toMatch(/Sitemap: http:\/\/.+\/sitemap\.xml/)
  })
})

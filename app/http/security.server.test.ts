import { describe, expect, test } from 'vitest'
import { documentContentSecurityPolicy, formActionAllows, formActionOriginsOf, isCrossSiteWrite } from './security.server'

describe('isCrossSiteWrite', () => {
  const base = { host: 'innera.example', remixHost: 'innera.example' as string | undefined, secFetchSite: undefined }
  test('reads are never refused', () => {
    expect(isCrossSiteWrite({ ...base, method: 'GET', origin: 'https://evil.example' })).toBe(false)
  })
  test('a POST from this site passes', () => {
    expect(isCrossSiteWrite({ ...base, method: 'POST', origin: 'https://innera.example' })).toBe(false)
  })
  test('a POST from another site is refused', () => {
    expect(isCrossSiteWrite({ ...base, method: 'POST', origin: 'https://evil.example' })).toBe(true)
    expect(isCrossSiteWrite({ ...base, method: 'POST', origin: 'null' })).toBe(true)
    expect(isCrossSiteWrite({ ...base, method: 'DELETE', origin: undefined, secFetchSite: 'cross-site' })).toBe(true)
  })
  test('the configured public origin is this site even behind a proxy that rewrites Host (naming the public one in X-Forwarded-Host)', () => {
    expect(isCrossSiteWrite({ ...base, host: '10.0.0.5:3000', remixHost: 'innera.example', method: 'POST', origin: 'https://innera.example', publicOrigin: 'https://innera.example' })).toBe(false)
    expect(isCrossSiteWrite({ ...base, method: 'POST', origin: 'https://evil.example', publicOrigin: 'https://innera.example' })).toBe(true)
  })
  test("an Origin that is not the host Remix compares it with is refused here, as Remix's action would throw (a 500)", () => {
    // The report's: the public origin posted to the app's address, no proxy in between.
    expect(isCrossSiteWrite({ ...base, host: '127.0.0.1:3000', remixHost: '127.0.0.1:3000', method: 'POST', origin: 'http://localhost:3000', publicOrigin: 'http://localhost:3000' })).toBe(true)
    // A proxy that rewrites Host and says nothing of the public one.
    expect(isCrossSiteWrite({ ...base, host: '10.0.0.5:3000', remixHost: '10.0.0.5:3000', method: 'POST', origin: 'https://innera.example', publicOrigin: 'https://innera.example' })).toBe(true)
    // An X-Forwarded-Host from anyone (Remix reads it whoever sent it) that is not the Origin's.
    expect(isCrossSiteWrite({ ...base, remixHost: 'other.example', method: 'POST', origin: 'https://innera.example' })).toBe(true)
    expect(isCrossSiteWrite({ ...base, remixHost: undefined, method: 'POST', origin: 'https://innera.example' })).toBe(true)
    // Without an Origin Remix checks nothing, and neither does this rule.
    expect(isCrossSiteWrite({ ...base, remixHost: 'other.example', method: 'POST', origin: undefined })).toBe(false)
  })
  test('a POST without Origin from a same-site or unknown context passes', () => {
    expect(isCrossSiteWrite({ ...base, method: 'POST', origin: undefined, secFetchSite: 'same-origin' })).toBe(false)
    expect(isCrossSiteWrite({ ...base, method: 'POST', origin: undefined })).toBe(false)
  })
})

describe('documentContentSecurityPolicy', () => {
  test('carries the nonce and forbids framing and plugins', () => {
    const csp = documentContentSecurityPolicy({ nonce: 'abc', development: false })
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
  })
  test('lets forms continue to the sign-in provider', () => {
    const csp = documentContentSecurityPolicy({ nonce: 'n', development: false, formActionOrigins: ['https://accounts.google.com'] })
    expect(csp).toContain("form-action 'self' https://accounts.google.com")
  })
  test("plays media from this site, and from MEDIA_BASE_URL's origin when there is one", () => {
    expect(documentContentSecurityPolicy({ nonce: 'n', development: false })).toContain("media-src 'self';")
    expect(documentContentSecurityPolicy({ nonce: 'n', development: false, mediaOrigins: ['https://cdn.example.com'] })).toContain("media-src 'self' https://cdn.example.com;")
  })
})

describe('form-action origins', () => {
  const origins = formActionOriginsOf({ GOOGLE_AUTHORIZATION_URL: 'https://accounts.google.com/o/oauth2/v2/auth', PAYMENT_PAGES_URL: 'http://127.0.0.1:8000/' })
  test('the payment pages (the demo provider, its fake Zoom too) and Zoom’s hosts; Google only when sign-in is on', () => {
    expect(origins).toEqual(['http://127.0.0.1:8000', 'https://zoom.us', 'https://*.zoom.us'])
    expect(formActionOriginsOf({ GOOGLE_CLIENT_ID: 'id', GOOGLE_AUTHORIZATION_URL: 'https://accounts.google.com/o/oauth2/v2/auth', PAYMENT_PAGES_URL: 'https://checkout.stripe.com' })).toContain('https://accounts.google.com')
  })
  test('a redirect after a post may go to those, and nowhere else', () => {
    expect(formActionAllows('http://127.0.0.1:8000/fake-zoom/j/1?pwd=x', origins)).toBe(true)
    expect(formActionAllows('https://us06web.zoom.us/j/123?pwd=x', origins)).toBe(true)
    expect(formActionAllows('https://zoom.us/j/123', origins)).toBe(true)
    expect(formActionAllows('https://evilzoom.us/j/1', origins)).toBe(false)
    expect(formActionAllows('http://us06web.zoom.us/j/1', origins)).toBe(false)
    expect(formActionAllows('javascript:alert(1)', origins)).toBe(false)
    expect(formActionAllows('not a url', origins)).toBe(false)
  })
})

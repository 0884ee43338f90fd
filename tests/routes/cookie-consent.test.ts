import { describe, expect, test } from 'vitest'
import { action } from '#app/routes/resources.cookie-consent.ts'
import { parseConsent } from '#app/utils/consent.ts'
import { formRequest, run } from '#tests/mocks/route.ts'

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  run(action, formRequest('http://app.test/resources/cookie-consent', fields, headers))

const storedConsent = (headers: Headers) => parseConsent(headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; '))

describe('cookie consent resource route', () => {
  test('accept all stores every category and goes back to the page', async () => {
    const result = await post({ intent: 'all', redirectTo: '/sobre?x=1' })
    expect(result.status).toBe(303)
    expect(result.location).toBe('/sobre?x=1')
    expect(storedConsent(result.headers)).toMatchObject({ necessary: true, preferences: true, analytics: true, marketing: true, consented: true, version: '1.0' })
  })

  test('customize stores exactly the categories sent; necessary cannot be switched off', async () => {
    const result = await post({ intent: 'custom', analytics: 'on', necessary: 'off', redirectTo: '/' })
    expect(storedConsent(result.headers)).toMatchObject({ necessary: true, preferences: false, analytics: true, marketing: false })
  })

  test('saving from the preferences panel drops ?cookie-settings from the way back', async () => {
    const result = await post({ intent: 'necessary', redirectTo: '/faq?cookie-settings=1&lng=en' })
    expect(result.location).toBe('/faq?lng=en')
  })

  test('closing is remembered for the browser session only and is no consent', async () => {
    const result = await post({ intent: 'close' })
    const cookie = result.headers.getSetCookie()[0]!
    expect(cookie).not.toContain('Max-Age')
    expect(cookie).toContain('HttpOnly')
    expect(storedConsent(result.headers)).toMatchObject({ consented: false, analytics: false })
  })

  test('a JSON client gets the stored consent back', async () => {
    const result = await post({ intent: 'necessary' }, { Accept: 'application/json' })
    expect(result.status).toBe(200)
    expect(result.data).toMatchObject({ consent: { consented: true, marketing: false } })
  })

  test.each([{}, { intent: 'everything' }, { intent: '<script>' }])('a bad body %j is refused without storing anything', async (fields) => {
    const result = await post(fields as Record<string, string>)
    expect(result.status).toBe(400)
    expect(result.headers.getSetCookie()).toEqual([])
  })

  test('an off-site redirect is refused', async () => {
    const result = await post({ intent: 'all', redirectTo: '//evil.example/x' })
    expect(result.location).toBe('/')
  })
})

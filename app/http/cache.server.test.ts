import { describe, expect, test } from 'vitest'
import { dependsOnSession } from './cache.server.ts'

describe('dependsOnSession', () => {
  test('a request with the session cookie, or a response that sets a cookie', () => {
    expect(dependsOnSession({ cookie: '__session=abc', setsCookie: false })).toBe(true)
    expect(dependsOnSession({ cookie: 'innera_consent=x; __session=abc', setsCookie: false })).toBe(true)
    expect(dependsOnSession({ cookie: undefined, setsCookie: true })).toBe(true)
  })
  test('an anonymous request that sets nothing may be cached', () => {
    expect(dependsOnSession({ cookie: undefined, setsCookie: false })).toBe(false)
    expect(dependsOnSession({ cookie: 'innera_consent=x; not__session=y', setsCookie: false })).toBe(false)
  })
})

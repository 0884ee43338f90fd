import { describe, expect, test } from 'vitest'
import { type RequestContext } from './request-context.server.ts'
import { passRetryAfter } from './retry-after.server.ts'

const context = (retryAfterSeconds?: number): RequestContext => ({ requestId: 'r', providerTimings: [], retryAfterSeconds })

describe('passRetryAfter', () => {
  test('a throttled answer carries the wait the form was told', () => {
    const headers = new Headers()
    passRetryAfter(context(42), 429, headers)
    expect(headers.get('Retry-After')).toBe('42')
  })

  test('only a 429, only with a wait, and never over the response’s own', () => {
    const cases: [RequestContext | undefined, number, Headers][] = [
      [context(42), 400, new Headers()],
      [context(), 429, new Headers()],
      [undefined, 429, new Headers()],
    ]
    for (const [given, status, headers] of cases) {
      passRetryAfter(given, status, headers)
      expect(headers.has('Retry-After')).toBe(false)
    }
    const own = new Headers({ 'Retry-After': '5' })
    passRetryAfter(context(42), 429, own)
    expect(own.get('Retry-After')).toBe('5')
  })
})

import { describe, expect, test } from 'vitest'
import { errorPageKind } from './error-page'

function routeError(status: number, data: unknown = null) {
  return { status, statusText: '', internal: false, data }
}

describe('errorPageKind', () => {
  test.each([400, 401, 403, 404, 413, 500])('status %i has its own page', (status) => {
    expect(errorPageKind(routeError(status))).toBe(String(status))
  })
  test('a provider that cannot be reached is the network page', () => {
    expect(errorPageKind(routeError(503, { reason: 'network' }))).toBe('Network')
    expect(errorPageKind(new TypeError('Failed to fetch'))).toBe('Network')
  })
  test('other statuses and thrown errors', () => {
    expect(errorPageKind(routeError(418))).toBe('other')
    expect(errorPageKind(new Error('boom'))).toBe('500')
  })
})

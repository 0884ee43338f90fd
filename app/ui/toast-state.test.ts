import { describe, expect, test } from 'vitest'
import { type Toast, DEFAULT_TOAST_DURATION_MS, toastDuration, toastReducer } from './toast-state'

const first: Toast = { id: 'a', type: 'info', message: { text: 'first' } }
const second: Toast = { id: 'b', type: 'error', message: { key: 'errors.network' } }

describe('toastReducer', () => {
  test('a new toast replaces the current one', () => {
    expect(toastReducer(first, { type: 'show', toast: second })).toBe(second)
  })
  test('the old toast timer does not remove a newer toast', () => {
    expect(toastReducer(second, { type: 'expire', id: 'a' })).toBe(second)
    expect(toastReducer(second, { type: 'expire', id: 'b' })).toBeNull()
  })
  test('dismissing removes only the toast shown', () => {
    expect(toastReducer(first, { type: 'dismiss', id: 'a' })).toBeNull()
    expect(toastReducer(null, { type: 'dismiss', id: 'a' })).toBeNull()
  })
  test('lasts 5 seconds unless told otherwise', () => {
    expect(DEFAULT_TOAST_DURATION_MS).toBe(5_000)
    expect(toastDuration(first)).toBe(5_000)
    expect(toastDuration({ ...first, durationMs: 8_000 })).toBe(8_000)
  })
})

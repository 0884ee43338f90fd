import { describe, expect, test, vi } from 'vitest'
import { type Toast } from '#app/utils/toast-message.ts'
import { CLIENT_TOAST_EVENT, DEFAULT_TOAST_DURATION_MS, showClientToast, toastDuration, toastReducer } from './toast-state'

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

describe('toasts from the browser', () => {
  test('each goes out as an event with its own id, for the one toast region', () => {
    const target = new EventTarget()
    vi.stubGlobal('window', target)
    const seen: Toast[] = []
    target.addEventListener(CLIENT_TOAST_EVENT, (event) => seen.push((event as CustomEvent<Toast>).detail))
    showClientToast({ type: 'error', message: { text: 'Informe uma quantidade válida' } })
    showClientToast({ type: 'error', message: { text: 'Informe uma quantidade válida' } })
    vi.unstubAllGlobals()
    expect(seen.map((toast) => toast.message)).toEqual([{ text: 'Informe uma quantidade válida' }, { text: 'Informe uma quantidade válida' }])
    expect(new Set(seen.map((toast) => toast.id)).size).toBe(2)
    // The region shows the newest, as with the server's toasts.
    expect(seen.reduce<Toast | null>((current, toast) => toastReducer(current, { type: 'show', toast }), null)).toEqual(seen[1])
  })
})

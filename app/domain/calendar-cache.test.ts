import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { STALE_AFTER_MS, isStale } from './calendar-cache'

const MINUTE = 60_000
const lastSync = '2026-11-23T12:00:00.000Z'

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(new Date(lastSync))
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the page’s "may be out of date" (docs/product.md §9)', () => {
  it('is 15 minutes, the provider’s automatic sync', () => {
    expect(STALE_AFTER_MS).toBe(15 * MINUTE)
  })

  it('turns stale once 15 minutes or more have passed since the last sync', () => {
    expect(isStale(lastSync, new Date())).toBe(false)
    vi.advanceTimersByTime(15 * MINUTE - 1)
    expect(isStale(lastSync, new Date())).toBe(false)
    vi.advanceTimersByTime(1)
    expect(isStale(lastSync, new Date())).toBe(true)
    expect(isStale(lastSync, Date.now())).toBe(true)
  })

  it('takes the last sync as a string, a Date or a number', () => {
    vi.advanceTimersByTime(15 * MINUTE)
    expect(isStale(new Date(lastSync), new Date())).toBe(true)
    expect(isStale(Date.parse(lastSync), Date.now())).toBe(true)
    expect(isStale(new Date(Date.now() - MINUTE), Date.now())).toBe(false)
  })

  it('treats a calendar never synced (or an unreadable time) as stale', () => {
    for (const never of [null, undefined, 'yesterday']) expect(isStale(never, new Date())).toBe(true)
  })
})

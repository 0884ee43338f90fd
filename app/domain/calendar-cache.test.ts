import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AUTO_SYNC_AFTER_MS, EVENT_CACHE_TTL_MS, STALE_AFTER_MS, isCacheFresh, isStale, needsAutoSync, syncAge } from './calendar-cache'

const MINUTE = 60_000
const lastSync = '2026-11-23T12:00:00.000Z'

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(new Date(lastSync))
})
afterEach(() => {
  vi.useRealTimers()
})

describe('calendar freshness (SPEC §9)', () => {
  it('has the constants of the spec', () => {
    expect(EVENT_CACHE_TTL_MS).toBe(5 * MINUTE)
    expect(AUTO_SYNC_AFTER_MS).toBe(15 * MINUTE)
    expect(STALE_AFTER_MS).toBe(15 * MINUTE)
  })

  it('keeps the event cache for 5 minutes after a sync', () => {
    expect(isCacheFresh(lastSync, new Date())).toBe(true)
    vi.advanceTimersByTime(5 * MINUTE - 1)
    expect(isCacheFresh(lastSync, new Date())).toBe(true)
    vi.advanceTimersByTime(1)
    expect(isCacheFresh(lastSync, new Date())).toBe(false)
  })

  it('syncs by itself when the last sync is older than 15 minutes, and stales then', () => {
    vi.advanceTimersByTime(15 * MINUTE)
    expect(needsAutoSync(lastSync, Date.now())).toBe(false)
    expect(isStale(lastSync, Date.now())).toBe(false)
    vi.advanceTimersByTime(1)
    expect(needsAutoSync(lastSync, Date.now())).toBe(true)
    expect(isStale(lastSync, Date.now())).toBe(true)
    expect(isCacheFresh(lastSync, Date.now())).toBe(false)
  })

  it('treats a calendar never synced (or an unreadable time) as needing a sync, stale and uncached', () => {
    for (const never of [null, undefined, 'yesterday']) {
      expect(syncAge(never, new Date())).toBeNull()
      expect(needsAutoSync(never, new Date())).toBe(true)
      expect(isStale(never, new Date())).toBe(true)
      expect(isCacheFresh(never, new Date())).toBe(false)
    }
  })

  it('takes the last sync as a string, a Date or a number', () => {
    vi.advanceTimersByTime(2 * MINUTE)
    expect(syncAge(lastSync, new Date())).toBe(2 * MINUTE)
    expect(syncAge(new Date(lastSync), new Date())).toBe(2 * MINUTE)
    expect(syncAge(Date.parse(lastSync), Date.now())).toBe(2 * MINUTE)
  })
})

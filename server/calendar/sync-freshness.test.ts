import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AUTO_SYNC_AFTER_MS, EVENT_CACHE_MS, autoSyncDueAtOrBefore, isCacheFresh, needsAutoSync } from '#server/calendar/sync-freshness.ts'

const MINUTE = 60_000
const LAST_SYNC = new Date('2026-11-23T12:00:00.000Z')

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(LAST_SYNC)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the calendar’s freshness (docs/product.md §9)', () => {
  it('has the spec’s numbers', () => {
    expect(EVENT_CACHE_MS).toBe(5 * MINUTE)
    expect(AUTO_SYNC_AFTER_MS).toBe(15 * MINUTE)
  })

  it('answers from the cache for less than 5 minutes after a sync', () => {
    expect(isCacheFresh(LAST_SYNC, Date.now())).toBe(true)
    vi.advanceTimersByTime(5 * MINUTE - 1)
    expect(isCacheFresh(LAST_SYNC, Date.now())).toBe(true)
    vi.advanceTimersByTime(1)
    expect(isCacheFresh(LAST_SYNC, Date.now())).toBe(false)
  })

  it('syncs by itself once 15 minutes or more have passed', () => {
    vi.advanceTimersByTime(15 * MINUTE - 1)
    expect(needsAutoSync(LAST_SYNC, Date.now())).toBe(false)
    vi.advanceTimersByTime(1)
    expect(needsAutoSync(LAST_SYNC, Date.now())).toBe(true)
    vi.advanceTimersByTime(60 * MINUTE)
    expect(needsAutoSync(LAST_SYNC, Date.now())).toBe(true)
  })

  it('takes the last sync as a Date or as milliseconds', () => {
    vi.advanceTimersByTime(15 * MINUTE)
    expect(needsAutoSync(LAST_SYNC.getTime(), Date.now())).toBe(true)
    expect(isCacheFresh(Date.now() - 1, Date.now())).toBe(true)
  })

  it('treats a calendar never synced as needing a sync, and its store as not fresh', () => {
    for (const never of [null, undefined]) {
      expect(needsAutoSync(never, Date.now())).toBe(true)
      expect(isCacheFresh(never, Date.now())).toBe(false)
    }
  })

  it('gives the database the same boundary as needsAutoSync', () => {
    vi.advanceTimersByTime(40 * MINUTE)
    const cutoff = autoSyncDueAtOrBefore(Date.now())
    expect(needsAutoSync(cutoff, Date.now())).toBe(true)
    expect(needsAutoSync(cutoff + 1, Date.now())).toBe(false)
  })
})

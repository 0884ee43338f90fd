/**
 * How fresh the calendar's events are (SPEC §9, decision 0025), as pure functions of the last
 * sync (the status's `last_sync`: an ISO instant, or null before the first) and "now".
 */

/** SPEC §9: events read within this long of the last sync come from the cache. */
export const EVENT_CACHE_TTL_MS = 5 * 60 * 1000
/** SPEC §9: a sync older than this starts another one automatically. */
export const AUTO_SYNC_AFTER_MS = 15 * 60 * 1000
/** SPEC §9: a sync older than this makes the shown events stale. */
export const STALE_AFTER_MS = 15 * 60 * 1000

export type LastSync = string | number | Date | null | undefined

/** How long ago the last sync was, in ms (negative when it is ahead of this clock); null when it never happened or cannot be read. */
export function syncAge(lastSync: LastSync, now: Date | number): number | null {
  if (lastSync === null || lastSync === undefined) return null
  const at = typeof lastSync === 'string' ? Date.parse(lastSync) : new Date(lastSync).getTime()
  return Number.isNaN(at) ? null : new Date(now).getTime() - at
}

/** The cached events may be used: the last sync is less than 5 minutes old. */
export function isCacheFresh(lastSync: LastSync, now: Date | number): boolean {
  const age = syncAge(lastSync, now)
  return age !== null && age < EVENT_CACHE_TTL_MS
}

/** A sync should start by itself: none happened yet, or the last one is more than 15 minutes old. */
export function needsAutoSync(lastSync: LastSync, now: Date | number): boolean {
  const age = syncAge(lastSync, now)
  return age === null || age > AUTO_SYNC_AFTER_MS
}

/** The events shown may be out of date: never synced, or the last sync is more than 15 minutes old. */
export function isStale(lastSync: LastSync, now: Date | number): boolean {
  const age = syncAge(lastSync, now)
  return age === null || age > STALE_AFTER_MS
}

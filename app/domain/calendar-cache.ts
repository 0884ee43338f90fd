/**
 * Whether the calendar page should say its events may be out of date (docs/product.md §9), as a pure
 * function of the last sync (the provider's `last_sync`: an ISO instant, or null before the first)
 * and "now". The provider decides the event cache (5 minutes) and the automatic sync (15 minutes)
 * itself (server/calendar/sync-freshness.ts); the page says "stale" on the same boundary as that
 * automatic sync: from 15 minutes on.
 */

/** docs/product.md §9: a last sync this old or older makes the shown events stale. */
export const STALE_AFTER_MS = 15 * 60 * 1000

type LastSync = string | number | Date | null | undefined

/** How long ago the last sync was, in ms (negative when it is ahead of this clock); null when it never happened or cannot be read. */
function syncAge(lastSync: LastSync, now: Date | number): number | null {
  if (lastSync === null || lastSync === undefined) return null
  const at = typeof lastSync === 'string' ? Date.parse(lastSync) : new Date(lastSync).getTime()
  return Number.isNaN(at) ? null : new Date(now).getTime() - at
}

/** The events shown may be out of date: never synced (or an unreadable time), or the last sync is 15 minutes old or more. */
export function isStale(lastSync: LastSync, now: Date | number): boolean {
  const age = syncAge(lastSync, now)
  return age === null || age >= STALE_AFTER_MS
}

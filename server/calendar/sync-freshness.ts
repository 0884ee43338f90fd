/**
 * How fresh a professional's synced calendar is (docs/product.md §9, decision 0025): the one place of the
 * two rules, as pure functions of the last sync (null before the first) and "now".
 *
 * - The event cache: GET /calendar/ answers the stored events while the last sync is less than
 *   5 minutes old, and syncs first from 5 minutes on.
 * - The automatic sync: the periodic job syncs a calendar once its last sync (or last attempt) is
 *   15 minutes old or more.
 */

const MINUTE = 60_000
/** Events read within this long of the last sync come from the store. */
export const EVENT_CACHE_MS = 5 * MINUTE
/** A calendar whose last sync is this old (or older) is synced by the periodic job. */
export const AUTO_SYNC_AFTER_MS = 15 * MINUTE

type LastSync = Date | number | null | undefined

const timeOf = (lastSync: Date | number) => (typeof lastSync === 'number' ? lastSync : lastSync.getTime())

/** The stored events may answer a read: a sync happened less than 5 minutes ago. */
export function isCacheFresh(lastSync: LastSync, now: number): boolean {
  if (lastSync === null || lastSync === undefined) return false
  return now - timeOf(lastSync) < EVENT_CACHE_MS
}

/** The periodic job should sync the calendar: never synced, or the last sync is 15 minutes old or more. */
export function needsAutoSync(lastSync: LastSync, now: number): boolean {
  if (lastSync === null || lastSync === undefined) return true
  return now - timeOf(lastSync) >= AUTO_SYNC_AFTER_MS
}

/**
 * The latest last sync that needs an automatic sync at `now`: the database asks for calendars
 * last synced at or before it, the same rule as `needsAutoSync` (a test keeps them together).
 */
export const autoSyncDueAtOrBefore = (now: number): number => now - AUTO_SYNC_AFTER_MS

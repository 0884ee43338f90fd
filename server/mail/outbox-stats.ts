import { sql } from 'drizzle-orm'
import { rowsOf, type Database } from '#server/db/client.ts'

/**
 * The outbox's waiting messages (neither sent nor failed for good, so also those waiting out a
 * retry or a hold) and the oldest one's age in seconds, for /metrics. One statement over the
 * pending rows' partial index (outbox_pending_idx), never the whole table.
 */
export async function outboxStats(db: Database, now: number): Promise<{ pending: number; oldestPendingSeconds: number }> {
  const [row] = await rowsOf<{ pending: number | string; oldest: Date | string | null }>(
    db.execute(sql`SELECT count(*) AS pending, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL`),
  )
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined
  return { pending: Number(row?.pending ?? 0), oldestPendingSeconds: oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000) }
}

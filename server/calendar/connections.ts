import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { preparedQuery } from '#server/db/prepared.ts'
import { appointments, calendarConnections, calendarEventNotes, calendarEvents } from '#server/db/schema.ts'

/**
 * Professionals' Google Calendar connections (one each) and the sync lease. The lease is a
 * conditional UPDATE on the connection row: whichever process sets it first holds it until it
 * releases it or `sync_lease_until` passes (a process that died mid-sync blocks nobody for long).
 */

export type CalendarConnection = typeof calendarConnections.$inferSelect

/** A sync runs this long at most before another may start. */
const SYNC_LEASE_MS = 2 * 60_000

// Every calendar request and the professional's /dashboard look the connection up.
const connectionQuery = preparedQuery((db) => db.select().from(calendarConnections).where(eq(calendarConnections.userId, sql.placeholder('userId'))).prepare('calendar_connection'))

export async function findConnection(db: Database, userId: number): Promise<CalendarConnection | undefined> {
  const [row] = await connectionQuery(db).execute({ userId })
  return row
}

type NewConnection = {
  userId: number
  refreshTokenSealed: string
  accessTokenSealed: string | null
  accessTokenExpiresAt: Date | null
  scope: string
  googleEmail: string | null
  primaryCalendarId: string
  calendarTimeZone: string | null
  now: Date
}

/**
 * Connects (or connects again): new tokens, a valid grant, no sync state. The stored events go:
 * they may be another Google account's, and the first sync brings the calendar's. The notes on
 * events (decision 0029) stay when the same calendar connects again (a renewed grant), for the
 * events that sync brings back; another calendar's take none of them.
 */
export async function saveConnection(db: Database, connection: NewConnection): Promise<void> {
  const { userId, now, ...values } = connection
  const fresh = { ...values, tokenValid: true, syncToken: null, lastSyncAt: null, syncStartedAt: null, syncLeaseId: null, syncLeaseUntil: null, connectedAt: now }
  await db.transaction(async (tx) => {
    const [previous] = await tx.select({ calendarId: calendarConnections.primaryCalendarId }).from(calendarConnections).where(eq(calendarConnections.userId, userId)).for('update')
    await tx
      .insert(calendarConnections)
      .values({ userId, ...fresh })
      .onConflictDoUpdate({ target: calendarConnections.userId, set: fresh })
    await tx.delete(calendarEvents).where(eq(calendarEvents.userId, userId))
    if (previous?.calendarId !== values.primaryCalendarId) await tx.delete(calendarEventNotes).where(eq(calendarEventNotes.userId, userId))
  })
}

/** Disconnects: the tokens, the sync state, the stored events and their notes go; appointments forget their events. */
export async function deleteConnection(db: Database, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(calendarEvents).where(eq(calendarEvents.userId, userId))
    await tx.delete(calendarEventNotes).where(eq(calendarEventNotes.userId, userId))
    await tx.update(appointments).set({ googleEventId: null }).where(eq(appointments.professionalId, userId))
    await tx.delete(calendarConnections).where(eq(calendarConnections.userId, userId))
  })
}

/** Keeps what Google handed out meanwhile (a refreshed access token; rarely a new refresh token). */
export async function saveTokens(
  db: Database,
  userId: number,
  tokens: { accessTokenSealed: string | null; accessTokenExpiresAt: Date | null; refreshTokenSealed?: string },
): Promise<void> {
  await db.update(calendarConnections).set(tokens).where(eq(calendarConnections.userId, userId))
}

/** Google answered invalid_grant: the grant is gone; the professional is asked to connect again. */
export async function markTokenInvalid(db: Database, userId: number): Promise<void> {
  await db.update(calendarConnections).set({ tokenValid: false, accessTokenSealed: null, accessTokenExpiresAt: null }).where(eq(calendarConnections.userId, userId))
}

/** Takes the sync lease of a usable connection if nobody holds it; undefined otherwise. */
export async function acquireSyncLease(db: Database, userId: number, leaseId: string, now: number): Promise<CalendarConnection | undefined> {
  const [row] = await db
    .update(calendarConnections)
    .set({ syncLeaseId: leaseId, syncLeaseUntil: new Date(now + SYNC_LEASE_MS), syncStartedAt: new Date(now) })
    .where(
      and(
        eq(calendarConnections.userId, userId),
        eq(calendarConnections.tokenValid, true),
        or(isNull(calendarConnections.syncLeaseUntil), lt(calendarConnections.syncLeaseUntil, new Date(now))),
      ),
    )
    .returning()
  return row
}

/** Gives the lease back without recording a sync (the sync failed). */
export async function releaseSyncLease(db: Database, userId: number, leaseId: string): Promise<void> {
  await db
    .update(calendarConnections)
    .set({ syncLeaseId: null, syncLeaseUntil: null })
    .where(and(eq(calendarConnections.userId, userId), eq(calendarConnections.syncLeaseId, leaseId)))
}

export const isSyncRunning = (connection: CalendarConnection, now: number) => connection.syncLeaseUntil !== null && connection.syncLeaseUntil.getTime() > now

/**
 * Connections the periodic job should sync: usable, not being synced, and whose last sync (or
 * last attempt, so a failing calendar is not retried every tick) is at or before `dueAtOrBefore`
 * (`autoSyncDueAtOrBefore` of sync-freshness.ts: `needsAutoSync`'s rule, in SQL).
 */
export async function connectionsDueForSync(db: Database, now: number, dueAtOrBefore: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ userId: calendarConnections.userId })
    .from(calendarConnections)
    .where(
      and(
        eq(calendarConnections.tokenValid, true),
        or(isNull(calendarConnections.syncLeaseUntil), lt(calendarConnections.syncLeaseUntil, new Date(now))),
        sql`coalesce(greatest(${calendarConnections.lastSyncAt}, ${calendarConnections.syncStartedAt}), 'epoch'::timestamptz) <= ${new Date(dueAtOrBefore).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(sql`coalesce(${calendarConnections.lastSyncAt}, 'epoch'::timestamptz)`), asc(calendarConnections.userId))
    .limit(limit)
  return rows.map((row) => row.userId)
}

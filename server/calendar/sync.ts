import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { calendarConnections } from '#server/db/schema.ts'
import { GoogleApiError, type GoogleCalendarSession, type GoogleEvent } from '#server/google/calendar-api.ts'
import type { Services } from '#server/services.ts'
import { acquireSyncLease, findConnection, releaseSyncLease, type CalendarConnection } from '#server/calendar/connections.ts'
import { calendarNotConnected, calendarReconnect, syncInProgress } from '#server/calendar/errors.ts'
import { removeStoredEvents, replaceStoredEvents, storedEventOf, trimStoredEvents, upsertStoredEvents, type NewStoredEvent } from '#server/calendar/event-store.ts'
import { eventsToKeep, MAX_STORED_EVENTS, STORED_DAYS_BACK } from '#server/calendar/stored-window.ts'
import { withCalendar } from '#server/calendar/google-access.ts'

/**
 * Brings the stored copy of a professional's calendar up to date (decision 0025). Incremental
 * with Google's sync token; a full sync the first time, when asked, or when Google answers 410
 * (the token expired). One sync of a calendar at a time across processes: the lease on the
 * connection row, and the writes are committed only while the lease is still ours (a disconnect
 * or a lease that ran out meanwhile discards them).
 */

const DAY = 24 * 60 * 60_000
/** A full sync reads events from this long ago on (older ones never matter for conflicts or booking): the store's window. */
const FULL_SYNC_DAYS_BACK = STORED_DAYS_BACK
const PAGE_SIZE = 250
/** Bounds one sync's work: 40 pages of 250 events. */
const MAX_PAGES = 40
const DEFAULT_CALENDAR_TIME_ZONE = 'America/Sao_Paulo'

/** `notKept`: events in the store's window beyond its limit (decision 0036), left out. */
type SyncReport = { synced: number; full: boolean; lastSync: Date; notKept: number }

class LeaseLostError extends Error {
  constructor() {
    super('The calendar was disconnected or its sync lease ran out during the sync; its result was discarded.')
    this.name = 'LeaseLostError'
  }
}

/** Every page of one events.list: the events and the sync token for next time. */
async function readAll(session: GoogleCalendarSession, query: { calendarId: string; syncToken?: string; timeMin?: string }): Promise<{ events: GoogleEvent[]; syncToken: string | null }> {
  const events: GoogleEvent[] = []
  let pageToken: string | undefined
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await session.listEvents({ ...query, pageToken, maxResults: PAGE_SIZE, showDeleted: query.syncToken !== undefined })
    events.push(...result.items)
    if (!result.nextPageToken) return { events, syncToken: result.nextSyncToken ?? null }
    pageToken = result.nextPageToken
  }
  throw new GoogleApiError('other', undefined, `more than ${MAX_PAGES * PAGE_SIZE} events to sync`)
}

export async function syncCalendar(services: Services, userId: number, { full = false, maxStoredEvents = MAX_STORED_EVENTS }: { full?: boolean; maxStoredEvents?: number } = {}): Promise<SyncReport> {
  const { db, clock } = services
  const leaseId = randomUUID()
  const started = clock()
  const connection = await acquireSyncLease(db, userId, leaseId, started)
  if (!connection) {
    const existing = await findConnection(db, userId)
    if (!existing) throw calendarNotConnected()
    if (!existing.tokenValid) throw calendarReconnect()
    throw syncInProgress()
  }
  try {
    return await withCalendar(services, connection, (session, calendarId) => runSync(services, connection, session, calendarId, leaseId, { full, started, maxStoredEvents }))
  } catch (error) {
    await releaseSyncLease(db, userId, leaseId)
    throw error
  }
}

async function runSync(
  services: Services,
  connection: CalendarConnection,
  session: GoogleCalendarSession,
  calendarId: string,
  leaseId: string,
  { full, started, maxStoredEvents }: { full: boolean; started: number; maxStoredEvents: number },
): Promise<SyncReport> {
  const { db } = services
  let fullSync = full || !connection.syncToken
  let changes: { events: GoogleEvent[]; syncToken: string | null } | undefined
  if (!fullSync) {
    try {
      changes = await readAll(session, { calendarId, syncToken: connection.syncToken! })
    } catch (error) {
      // 410: the sync token expired; only a full sync gets a new one.
      if (!(error instanceof GoogleApiError && error.failure === 'full_sync_required')) throw error
      fullSync = true
    }
  }
  // A full sync reads the calendar's zone again (its all-day events begin at its midnight).
  const calendar = fullSync ? await session.primaryCalendar() : undefined
  const timeZone = calendar?.timeZone ?? connection.calendarTimeZone ?? DEFAULT_CALENDAR_TIME_ZONE
  if (fullSync) changes = await readAll(session, { calendarId, timeMin: new Date(started - FULL_SYNC_DAYS_BACK * DAY).toISOString() })

  const owners = [connection.primaryCalendarId, connection.googleEmail, calendar?.id].filter((owner): owner is string => !!owner)
  const changed: NewStoredEvent[] = []
  const removed: string[] = []
  for (const event of changes!.events) {
    const stored = storedEventOf(event, connection.userId, { owners, timeZone })
    if (stored) changed.push(stored)
    else if (event.id) removed.push(event.id)
  }
  // Within the store's window and limit (decision 0036); what falls out goes from the store too.
  const { kept, outside, beyondLimit } = eventsToKeep(changed, started, maxStoredEvents)
  removed.push(...[...outside, ...beyondLimit].map((event) => event.googleEventId))

  const lastSync = new Date(services.clock())
  let trimmed = 0
  await db.transaction(async (tx) => {
    const [held] = await tx
      .select({ userId: calendarConnections.userId })
      .from(calendarConnections)
      .where(and(eq(calendarConnections.userId, connection.userId), eq(calendarConnections.syncLeaseId, leaseId)))
      .for('update')
    if (!held) throw new LeaseLostError()
    if (fullSync) await replaceStoredEvents(tx, connection.userId, kept)
    else {
      await upsertStoredEvents(tx, kept)
      await removeStoredEvents(tx, connection.userId, removed)
    }
    trimmed = await trimStoredEvents(tx, connection.userId, started, maxStoredEvents)
    await tx
      .update(calendarConnections)
      .set({
        syncToken: changes!.syncToken,
        lastSyncAt: lastSync,
        syncLeaseId: null,
        syncLeaseUntil: null,
        ...(calendar && { primaryCalendarId: calendar.id, calendarTimeZone: timeZone }),
      })
      .where(eq(calendarConnections.userId, connection.userId))
  })
  const notKept = beyondLimit.length + trimmed
  if (notKept > 0) {
    services.log({ level: 'warn', msg: 'calendar holds more events than are kept', user_id: connection.userId, kept: maxStoredEvents, not_kept: notKept })
  }
  return { synced: kept.length + removed.length, full: fullSync, lastSync, notKept }
}

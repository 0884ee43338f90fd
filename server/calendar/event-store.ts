import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, notExists, or, sql, type SQL } from 'drizzle-orm'
import { startOfLocalDay } from '#server/dates.ts'
import type { Database } from '#server/db/client.ts'
import { calendarEventNotes, calendarEvents, type GoogleAttendee, type GoogleEventTime } from '#server/db/schema.ts'
import type { GoogleEvent } from '#server/google/calendar-api.ts'
import { isDateInRange, isInstantInRange, parseInstant } from '#server/http/fields.ts'
import { MAX_STORED_EVENTS, storedWindow } from '#server/calendar/stored-window.ts'

/**
 * The synced copy of a professional's calendar (decision 0025): Google's events reduced to what
 * the product shows and what decides busy time, written by the sync and by the product's own
 * writes, read by GET /calendar/ and the free-time rules. The professional's notes on an event
 * are kept beside it, never at Google (decision 0029): an event that leaves the copy takes them along.
 */

export type StoredEvent = typeof calendarEvents.$inferSelect
export type NewStoredEvent = typeof calendarEvents.$inferInsert

/** The private extended properties the product writes on its own events. */
export const INNERA_PROPERTY = 'innera'
export const APPOINTMENT_PROPERTY = 'inneraAppointmentId'

type Tx = Pick<Database, 'insert' | 'delete' | 'select' | 'update'>

/** An event's start or end as kept; an event outside the years 2000-2100 is not kept (it blocks no booking, and its dates could not be placed in a zone). */
function eventTime(time: GoogleEvent['start']): GoogleEventTime | undefined {
  const instant = time?.dateTime ? parseInstant(time.dateTime) : undefined
  if (time?.dateTime && instant !== undefined && isInstantInRange(instant)) return { dateTime: time.dateTime, ...(time.timeZone && { timeZone: time.timeZone }) }
  if (time?.date && isDateInRange(time.date)) return { date: time.date }
  return undefined
}

/**
 * A Google event as stored for one professional, or undefined when there is nothing to keep
 * (cancelled, or without usable times). `owners` are the calendar's own addresses, to find the
 * professional's answer among the attendees when Google does not mark it `self`; all-day dates
 * become instants at midnight in `timeZone`, the calendar's.
 */
export function storedEventOf(event: GoogleEvent, userId: number, { owners, timeZone }: { owners: string[]; timeZone: string }): NewStoredEvent | undefined {
  if (!event.id || event.status === 'cancelled') return undefined
  const start = eventTime(event.start)
  const end = eventTime(event.end)
  if (!start || !end) return undefined
  const instant = (time: GoogleEventTime) => (time.date !== undefined ? startOfLocalDay(time.date, timeZone) : parseInstant(time.dateTime!)!)
  const ownAddresses = owners.map((owner) => owner.toLowerCase())
  const attendees: GoogleAttendee[] = (event.attendees ?? []).flatMap((attendee) =>
    attendee.email
      ? [
          {
            email: attendee.email,
            ...(attendee.displayName && { displayName: attendee.displayName }),
            ...(attendee.responseStatus && { responseStatus: attendee.responseStatus }),
            ...(attendee.self && { self: true }),
          },
        ]
      : [],
  )
  const own = attendees.find((attendee) => attendee.self) ?? attendees.find((attendee) => ownAddresses.includes(attendee.email.toLowerCase()))
  // An event the professional organizes is theirs: accepted, whatever Google lists as their own answer.
  const organizer = event.organizer
  const organizes = organizer?.self === true || (organizer?.email !== undefined && organizer.email !== null && ownAddresses.includes(organizer.email.toLowerCase()))
  const properties = event.extendedProperties?.private ?? {}
  const appointmentId = Number(properties[APPOINTMENT_PROPERTY])
  return {
    userId,
    googleEventId: event.id,
    summary: event.summary ?? '',
    description: event.description ?? '',
    location: event.location ?? '',
    start,
    end,
    startAt: new Date(instant(start)),
    endAt: new Date(instant(end)),
    allDay: start.date !== undefined,
    status: event.status ?? 'confirmed',
    transparency: event.transparency === 'transparent' ? 'transparent' : 'opaque',
    attendees,
    selfResponseStatus: organizes && own?.responseStatus === 'needsAction' ? 'accepted' : (own?.responseStatus ?? null),
    htmlLink: event.htmlLink ?? null,
    colorId: event.colorId ?? null,
    inneraAppointmentId: Number.isSafeInteger(appointmentId) && appointmentId > 0 ? appointmentId : null,
    createdByInnera: properties[INNERA_PROPERTY] === '1',
  }
}

const STORED_FIELDS = (event: NewStoredEvent) => {
  const { userId: _userId, googleEventId: _googleEventId, id: _id, ...fields } = event
  return fields
}

/** Writes events (new or changed) of one professional. */
export async function upsertStoredEvents(db: Tx, events: NewStoredEvent[]): Promise<void> {
  for (const event of events) {
    await db
      .insert(calendarEvents)
      .values(event)
      .onConflictDoUpdate({ target: [calendarEvents.userId, calendarEvents.googleEventId], set: STORED_FIELDS(event) })
  }
}

/** Events gone (deleted here or at Google): their notes go with them. */
export async function removeStoredEvents(db: Tx, userId: number, googleEventIds: string[]): Promise<void> {
  if (googleEventIds.length === 0) return
  await db.delete(calendarEvents).where(and(eq(calendarEvents.userId, userId), inArray(calendarEvents.googleEventId, googleEventIds)))
  await db.delete(calendarEventNotes).where(and(eq(calendarEventNotes.userId, userId), inArray(calendarEventNotes.googleEventId, googleEventIds)))
}

/**
 * A full sync's result replaces everything stored for the professional. The notes of the events
 * still there stay; those of events no longer there go.
 */
export async function replaceStoredEvents(db: Tx, userId: number, events: NewStoredEvent[]): Promise<void> {
  await db.delete(calendarEvents).where(eq(calendarEvents.userId, userId))
  await upsertStoredEvents(db, events)
  await db
    .delete(calendarEventNotes)
    .where(
      and(
        eq(calendarEventNotes.userId, userId),
        notExists(
          db
            .select({ id: calendarEvents.id })
            .from(calendarEvents)
            .where(and(eq(calendarEvents.userId, calendarEventNotes.userId), eq(calendarEvents.googleEventId, calendarEventNotes.googleEventId))),
        ),
      ),
    )
}

/**
 * Holds one professional's store to the window and the limit of stored-window.ts after a sync
 * wrote into it: events outside the window go, and beyond `max` the farthest from now go (their
 * notes with them). Answers how many went for the limit (the calendar holds more than is kept).
 */
export async function trimStoredEvents(db: Tx, userId: number, now: number, max = MAX_STORED_EVENTS): Promise<number> {
  const { from, to } = storedWindow(now)
  const outside = await db
    .select({ googleEventId: calendarEvents.googleEventId })
    .from(calendarEvents)
    .where(and(eq(calendarEvents.userId, userId), or(lte(calendarEvents.endAt, new Date(from)), gte(calendarEvents.startAt, new Date(to)))))
  await removeStoredEvents(db, userId, outside.map((row) => row.googleEventId))
  const instant = sql`${new Date(now).toISOString()}::timestamptz`
  // distanceFromNow in SQL: how far before or after now, 0 while it runs.
  const distance = sql`greatest(${calendarEvents.startAt} - ${instant}, ${instant} - ${calendarEvents.endAt}, interval '0')`
  const beyond = await db
    .select({ googleEventId: calendarEvents.googleEventId })
    .from(calendarEvents)
    .where(eq(calendarEvents.userId, userId))
    .orderBy(distance, asc(calendarEvents.startAt), asc(calendarEvents.id))
    .offset(max)
  await removeStoredEvents(db, userId, beyond.map((row) => row.googleEventId))
  return beyond.length
}

/** Keeps the professional's notes on one of their events (empty notes: none kept). */
export async function saveEventNotes(db: Tx, userId: number, googleEventId: string, notes: string, now: Date): Promise<void> {
  const text = notes.trim()
  if (!text) {
    await db.delete(calendarEventNotes).where(and(eq(calendarEventNotes.userId, userId), eq(calendarEventNotes.googleEventId, googleEventId)))
    return
  }
  await db
    .insert(calendarEventNotes)
    .values({ userId, googleEventId, notes: text, updatedAt: now })
    .onConflictDoUpdate({ target: [calendarEventNotes.userId, calendarEventNotes.googleEventId], set: { notes: text, updatedAt: now } })
}

/** The professional's notes on these events of theirs, by Google id (events without notes are left out). */
export async function notesOf(db: Database, userId: number, googleEventIds: string[]): Promise<Map<string, string>> {
  if (googleEventIds.length === 0) return new Map()
  const rows = await db
    .select({ googleEventId: calendarEventNotes.googleEventId, notes: calendarEventNotes.notes })
    .from(calendarEventNotes)
    .where(and(eq(calendarEventNotes.userId, userId), inArray(calendarEventNotes.googleEventId, googleEventIds)))
  return new Map(rows.map((row) => [row.googleEventId, row.notes]))
}

export async function findStoredEvent(db: Database, userId: number, googleEventId: string): Promise<StoredEvent | undefined> {
  const [row] = await db
    .select()
    .from(calendarEvents)
    .where(and(eq(calendarEvents.userId, userId), eq(calendarEvents.googleEventId, googleEventId)))
  return row
}

/** At most this many events answer one read (62 days of a very busy calendar fit). */
const MAX_EVENTS_READ = 2500

/** The stored events overlapping [from, to), by start; `includeInnera: false` leaves out the product's own. */
export async function storedEventsBetween(db: Database, userId: number, from: number, to: number, { includeInnera }: { includeInnera: boolean }): Promise<StoredEvent[]> {
  return db
    .select()
    .from(calendarEvents)
    .where(
      and(
        eq(calendarEvents.userId, userId),
        lt(calendarEvents.startAt, new Date(to)),
        gt(calendarEvents.endAt, new Date(from)),
        includeInnera ? undefined : and(eq(calendarEvents.createdByInnera, false), isNull(calendarEvents.inneraAppointmentId)),
      ),
    )
    .orderBy(asc(calendarEvents.startAt), asc(calendarEvents.id))
    .limit(MAX_EVENTS_READ)
}

/** Stored events of several professionals still running after `from` that `where` keeps (for the free-time rules: those that may count as busy). */
export async function storedEventsAfter(db: Database, userIds: number[], from: number, where?: SQL): Promise<StoredEvent[]> {
  if (userIds.length === 0) return []
  return db
    .select()
    .from(calendarEvents)
    .where(and(inArray(calendarEvents.userId, userIds), gt(calendarEvents.endAt, new Date(from)), where))
}

/**
 * The Event (read) of decision 0025: Google's fields, plus transparency and innera_appointment_id,
 * and the professional's own `notes` (decision 0029: the provider's, never Google's).
 */
export function serializeStoredEvent(event: StoredEvent, notes = '') {
  return {
    id: event.googleEventId,
    summary: event.summary,
    start: event.start,
    end: event.end,
    description: event.description,
    location: event.location,
    attendees: event.attendees,
    status: event.status,
    htmlLink: event.htmlLink,
    colorId: event.colorId,
    transparency: event.transparency,
    innera_appointment_id: event.inneraAppointmentId,
    notes,
  }
}

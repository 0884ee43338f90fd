import { randomBytes } from 'node:crypto'
import { and, asc, eq, gt, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import { startOfLocalDay } from '#server/dates.ts'
import type { Database } from '#server/db/client.ts'
import { fakeGoogleCalendars, fakeGoogleEvents, fakeGoogleSyncTokens, type GoogleEventTime } from '#server/db/schema.ts'
import { isDateInRange, isInstantInRange, parseInstant } from '#server/http/fields.ts'

/**
 * The fake Google's calendars, in the database so every provider process sees the same ones:
 * one primary calendar per account (its id is the account's e-mail), Google's event resource
 * for each event, and sync tokens as positions in the sequence every event write takes. No
 * recurrence (every event is a single one, so singleEvents changes nothing) and no other
 * calendars.
 */

export type FakeAccount = { subject: string; email: string }
type EventRow = typeof fakeGoogleEvents.$inferSelect
type Resource = Record<string, unknown>

/** A refusal shaped as Google's: HTTP status, the reason of `error.errors[0]`, a message. */
export class FakeCalendarError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message)
    this.name = 'FakeCalendarError'
  }
}

const invalid = (message: string) => new FakeCalendarError(400, 'invalid', message)
const eventNotFound = () => new FakeCalendarError(404, 'notFound', 'Not Found')
const eventDeleted = () => new FakeCalendarError(410, 'deleted', 'Resource has been deleted')
const fullSyncRequired = () => new FakeCalendarError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.')

const DEFAULT_TIME_ZONE = 'America/Sao_Paulo'
/** Google's maximum and default page sizes for events.list. */
export const MAX_RESULTS_LIMIT = 2500
export const DEFAULT_MAX_RESULTS = 250
const WRITABLE_TEXT = ['summary', 'description', 'location', 'colorId'] as const
const STATUSES = ['confirmed', 'tentative', 'cancelled']
const RESPONSE_STATUSES = ['needsAction', 'declined', 'tentative', 'accepted']

/** The account's primary calendar, created on first use. */
export async function fakeCalendarOf(db: Database, account: FakeAccount): Promise<{ id: string; timeZone: string }> {
  await db.insert(fakeGoogleCalendars).values({ subject: account.subject, email: account.email, timeZone: DEFAULT_TIME_ZONE }).onConflictDoNothing()
  const [row] = await db.select().from(fakeGoogleCalendars).where(eq(fakeGoogleCalendars.subject, account.subject))
  return { id: row!.email, timeZone: row!.timeZone }
}

/** Whether a calendar id of a request names the account's calendar ("primary" or its e-mail). */
export const isOwnCalendar = (account: FakeAccount, calendarId: string) => calendarId === 'primary' || calendarId.toLowerCase() === account.email.toLowerCase()

/** Google's event ids: 5-1024 characters of base32hex (a-v, 0-9). */
const newEventId = () =>
  [...randomBytes(26)].map((byte) => '0123456789abcdefghijklmnopqrstuv'[byte % 32]).join('')
const EVENT_ID_PATTERN = /^[a-v0-9]{5,1024}$/

function readTime(value: unknown, name: 'start' | 'end'): GoogleEventTime {
  if (value === undefined || value === null) throw new FakeCalendarError(400, 'required', `Missing ${name} time.`)
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(`Invalid ${name} time.`)
  const { dateTime, date, timeZone } = value as Record<string, unknown>
  // Years 2000-2100 only: the fake reads a zone's wall clock for all-day dates, which fails far outside them.
  const instant = typeof dateTime === 'string' ? parseInstant(dateTime) : undefined
  if (typeof dateTime === 'string' && instant !== undefined && isInstantInRange(instant)) return { dateTime, ...(typeof timeZone === 'string' && { timeZone }) }
  if (typeof date === 'string' && isDateInRange(date)) return { date }
  throw invalid(`Invalid ${name} time.`)
}

/** The instants an event occupies: its dateTimes, or its dates' midnights in the calendar's zone. */
function instantsOf(resource: Resource, timeZone: string): { startAt: number; endAt: number } {
  const start = readTime(resource.start, 'start')
  const end = readTime(resource.end, 'end')
  if ((start.date === undefined) !== (end.date === undefined)) throw invalid('The start and end times must both be dates or both be date-times.')
  const instant = (time: GoogleEventTime) => (time.date !== undefined ? startOfLocalDay(time.date, timeZone) : parseInstant(time.dateTime!)!)
  const startAt = instant(start)
  const endAt = instant(end)
  if (endAt <= startAt) throw new FakeCalendarError(400, 'timeRangeEmpty', 'The specified time range is empty.')
  return { startAt, endAt }
}

function readAttendees(value: unknown): Resource[] {
  if (!Array.isArray(value)) throw invalid('Invalid attendees.')
  return value.map((attendee) => {
    const { email, displayName, responseStatus, organizer } = (attendee ?? {}) as Record<string, unknown>
    if (typeof email !== 'string' || !email.includes('@')) throw invalid('Invalid attendee email.')
    return {
      email: email.toLowerCase(),
      ...(typeof displayName === 'string' && { displayName }),
      ...(organizer === true && { organizer: true }),
      responseStatus: typeof responseStatus === 'string' && RESPONSE_STATUSES.includes(responseStatus) ? responseStatus : 'needsAction',
    }
  })
}

function readProperties(value: unknown): Resource {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('Invalid extendedProperties.')
  const result: Resource = {}
  for (const scope of ['private', 'shared']) {
    const map = (value as Record<string, unknown>)[scope]
    if (map === undefined) continue
    if (typeof map !== 'object' || map === null || Array.isArray(map) || Object.values(map).some((item) => typeof item !== 'string')) {
      throw invalid(`Invalid extendedProperties.${scope}.`)
    }
    result[scope] = map
  }
  return result
}

/** The writable fields of an event resource a client sent, checked; unknown fields are ignored as Google ignores read-only ones. */
function writableFields(body: Resource): Resource {
  const fields: Resource = {}
  for (const name of WRITABLE_TEXT) {
    if (body[name] === undefined) continue
    if (typeof body[name] !== 'string') throw invalid(`Invalid ${name}.`)
    fields[name] = body[name]
  }
  if (body.start !== undefined) fields.start = readTime(body.start, 'start')
  if (body.end !== undefined) fields.end = readTime(body.end, 'end')
  if (body.transparency !== undefined) {
    if (body.transparency !== 'opaque' && body.transparency !== 'transparent') throw invalid('Invalid transparency.')
    fields.transparency = body.transparency
  }
  if (body.status !== undefined) {
    if (typeof body.status !== 'string' || !STATUSES.includes(body.status)) throw invalid('Invalid status.')
    fields.status = body.status
  }
  if (body.attendees !== undefined) fields.attendees = readAttendees(body.attendees)
  if (body.extendedProperties !== undefined) fields.extendedProperties = readProperties(body.extendedProperties)
  if (body.organizer !== undefined && typeof body.organizer === 'object' && body.organizer !== null) {
    const email = (body.organizer as Record<string, unknown>).email
    if (typeof email === 'string') fields.organizer = { email: email.toLowerCase() }
  }
  return fields
}

async function findRow(db: Database, account: FakeAccount, eventId: string): Promise<EventRow | undefined> {
  const [row] = await db
    .select()
    .from(fakeGoogleEvents)
    .where(and(eq(fakeGoogleEvents.subject, account.subject), eq(fakeGoogleEvents.eventId, eventId)))
  return row
}

const nextChange = sql<number>`nextval('fake_google_event_changes')`

/** Writes the event's new state with the next change number (insert or replace). */
async function store(db: Database, account: FakeAccount, eventId: string, resource: Resource, timeZone: string): Promise<EventRow> {
  const { startAt, endAt } = instantsOf(resource, timeZone)
  const values = {
    resource,
    status: typeof resource.status === 'string' ? resource.status : 'confirmed',
    startAt: new Date(startAt),
    endAt: new Date(endAt),
    changeSeq: nextChange,
  }
  const [row] = await db
    .insert(fakeGoogleEvents)
    .values({ subject: account.subject, eventId, ...values })
    .onConflictDoUpdate({ target: [fakeGoogleEvents.subject, fakeGoogleEvents.eventId], set: values })
    .returning()
  return row!
}

export async function insertFakeEvent(db: Database, account: FakeAccount, body: Resource, now: number): Promise<EventRow> {
  const { timeZone } = await fakeCalendarOf(db, account)
  const fields = writableFields(body)
  const requested = body.id
  if (requested !== undefined && (typeof requested !== 'string' || !EVENT_ID_PATTERN.test(requested))) throw invalid('Invalid resource id value.')
  const eventId = (requested as string | undefined) ?? newEventId()
  if (await findRow(db, account, eventId)) throw new FakeCalendarError(409, 'duplicate', 'The requested identifier already exists.')
  const stamp = new Date(now).toISOString()
  return store(db, account, eventId, { status: 'confirmed', ...fields, created: stamp, updated: stamp, sequence: 0 }, timeZone)
}

export async function getFakeEvent(db: Database, account: FakeAccount, eventId: string): Promise<EventRow> {
  const row = await findRow(db, account, eventId)
  if (!row) throw eventNotFound()
  return row
}

/** PATCH merges the given fields (the extended properties key by key); PUT replaces every writable field. */
export async function changeFakeEvent(db: Database, account: FakeAccount, eventId: string, body: Resource, mode: 'patch' | 'update', now: number): Promise<EventRow> {
  const row = await getFakeEvent(db, account, eventId)
  const { timeZone } = await fakeCalendarOf(db, account)
  const fields = writableFields(body)
  const previous = row.resource
  const kept = mode === 'patch' ? previous : { created: previous.created, sequence: previous.sequence, organizer: previous.organizer }
  const merged: Resource = { ...kept, ...fields }
  if (mode === 'patch' && fields.extendedProperties) {
    const before = (previous.extendedProperties ?? {}) as Record<string, Record<string, string>>
    const after = fields.extendedProperties as Record<string, Record<string, string>>
    merged.extendedProperties = {
      ...before,
      ...Object.fromEntries(Object.entries(after).map(([scope, map]) => [scope, { ...before[scope], ...map }])),
    }
  }
  if (mode === 'update' && merged.status === undefined) merged.status = 'confirmed'
  merged.updated = new Date(now).toISOString()
  merged.sequence = Number(previous.sequence ?? 0) + 1
  return store(db, account, eventId, merged, timeZone)
}

/** Deleting keeps the event as cancelled, so the next incremental sync reports it. */
export async function deleteFakeEvent(db: Database, account: FakeAccount, eventId: string, now: number): Promise<void> {
  const row = await getFakeEvent(db, account, eventId)
  if (row.status === 'cancelled') throw eventDeleted()
  const { timeZone } = await fakeCalendarOf(db, account)
  await store(db, account, eventId, { ...row.resource, status: 'cancelled', updated: new Date(now).toISOString() }, timeZone)
}

/** Google's event resource as the API answers it. */
export function presentFakeEvent(row: EventRow, account: FakeAccount, htmlBase: string): Resource {
  const resource = row.resource
  const organizer = (resource.organizer as { email?: string } | undefined)?.email ?? account.email
  const attendees = (resource.attendees as { email: string }[] | undefined)?.map((attendee) => ({
    ...attendee,
    ...(attendee.email === account.email.toLowerCase() && { self: true }),
  }))
  const text = (name: string) => (typeof resource[name] === 'string' && resource[name] !== '' ? { [name]: resource[name] } : {})
  return {
    kind: 'calendar#event',
    etag: `"${row.changeSeq}"`,
    id: row.eventId,
    status: row.status,
    htmlLink: `${htmlBase}/calendar/event?eid=${Buffer.from(`${row.eventId} ${account.email}`).toString('base64url')}`,
    created: resource.created,
    updated: resource.updated,
    ...text('summary'),
    ...text('description'),
    ...text('location'),
    ...text('colorId'),
    creator: { email: organizer, ...(organizer === account.email && { self: true }) },
    organizer: { email: organizer, ...(organizer === account.email && { self: true }) },
    start: resource.start,
    end: resource.end,
    // Google leaves out the default, opaque.
    ...(resource.transparency === 'transparent' && { transparency: 'transparent' }),
    iCalUID: `${row.eventId}@google.com`,
    sequence: resource.sequence ?? 0,
    ...(attendees && attendees.length > 0 && { attendees }),
    ...(resource.extendedProperties !== undefined && { extendedProperties: resource.extendedProperties }),
    reminders: { useDefault: true },
    eventType: 'default',
  }
}

type ListQuery = {
  timeMin?: number
  timeMax?: number
  showDeleted: boolean
  maxResults: number
  syncToken?: string
  pageToken?: string
}

type Cursor = { startAt: number; id: number; watermark: number; since: number | null }

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify([cursor.startAt, cursor.id, cursor.watermark, cursor.since])).toString('base64url')

function decodeCursor(token: string): Cursor {
  try {
    const [startAt, id, watermark, since] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[]
    if ([startAt, id, watermark].every((value) => Number.isSafeInteger(value)) && (since === null || Number.isSafeInteger(since))) {
      return { startAt: startAt as number, id: id as number, watermark: watermark as number, since: since as number | null }
    }
  } catch {
    // Falls through to the refusal.
  }
  throw invalid('Invalid page token value.')
}

/**
 * events.list: a page of events by start, then `nextPageToken`, or on the last page a
 * `nextSyncToken`. With a syncToken, only the events written since it (deleted ones as
 * `cancelled`); an unknown or expired sync token is 410 fullSyncRequired.
 */
export async function listFakeEvents(db: Database, account: FakeAccount, query: ListQuery, now: number): Promise<{ rows: EventRow[]; nextPageToken?: string; nextSyncToken?: string }> {
  let cursor: Cursor | undefined = query.pageToken ? decodeCursor(query.pageToken) : undefined
  let since = cursor?.since ?? null
  if (!cursor && query.syncToken !== undefined) {
    const [token] = await db
      .select()
      .from(fakeGoogleSyncTokens)
      .where(and(eq(fakeGoogleSyncTokens.token, query.syncToken), eq(fakeGoogleSyncTokens.subject, account.subject), isNull(fakeGoogleSyncTokens.expiredAt)))
    if (!token) throw fullSyncRequired()
    since = token.watermark
  }
  if (!cursor) {
    const [latest] = await db
      .select({ watermark: sql<string | null>`max(${fakeGoogleEvents.changeSeq})` })
      .from(fakeGoogleEvents)
      .where(eq(fakeGoogleEvents.subject, account.subject))
    // id 0: no event read yet, so the page starts at the first one.
    cursor = { startAt: 0, id: 0, watermark: Number(latest?.watermark ?? 0), since }
  }

  const conditions: (SQL | undefined)[] = [
    eq(fakeGoogleEvents.subject, account.subject),
    // Changes since the sync token include deletions; a plain list shows them only when asked.
    since !== null ? gt(fakeGoogleEvents.changeSeq, since) : query.showDeleted ? undefined : ne(fakeGoogleEvents.status, 'cancelled'),
    query.timeMin !== undefined ? gt(fakeGoogleEvents.endAt, new Date(query.timeMin)) : undefined,
    query.timeMax !== undefined ? lt(fakeGoogleEvents.startAt, new Date(query.timeMax)) : undefined,
    cursor.id === 0
      ? undefined
      : or(gt(fakeGoogleEvents.startAt, new Date(cursor.startAt)), and(eq(fakeGoogleEvents.startAt, new Date(cursor.startAt)), gt(fakeGoogleEvents.id, cursor.id))),
  ]
  const rows = await db
    .select()
    .from(fakeGoogleEvents)
    .where(and(...conditions))
    .orderBy(asc(fakeGoogleEvents.startAt), asc(fakeGoogleEvents.id))
    .limit(query.maxResults + 1)

  if (rows.length > query.maxResults) {
    const page = rows.slice(0, query.maxResults)
    const last = page.at(-1)!
    return { rows: page, nextPageToken: encodeCursor({ ...cursor, startAt: last.startAt.getTime(), id: last.id }) }
  }
  const nextSyncToken = randomBytes(24).toString('base64url')
  await db.insert(fakeGoogleSyncTokens).values({ token: nextSyncToken, subject: account.subject, watermark: cursor.watermark, createdAt: new Date(now) })
  return { rows, nextSyncToken }
}

/** Sync tokens stop working (the next incremental sync of the account gets 410), as Google's do after a while. */
export async function expireFakeSyncTokens(db: Database, subject: string, now: number): Promise<number> {
  const expired = await db
    .update(fakeGoogleSyncTokens)
    .set({ expiredAt: new Date(now) })
    .where(and(eq(fakeGoogleSyncTokens.subject, subject), isNull(fakeGoogleSyncTokens.expiredAt)))
    .returning({ token: fakeGoogleSyncTokens.token })
  return expired.length
}

/** Whether an event makes the account busy, as Google's freeBusy counts it: not cancelled, not free, not declined by the owner. */
function isBusy(row: EventRow, account: FakeAccount): boolean {
  if (row.status === 'cancelled' || row.resource.transparency === 'transparent') return false
  const attendees = (row.resource.attendees as { email: string; responseStatus?: string }[] | undefined) ?? []
  return !attendees.some((attendee) => attendee.email === account.email.toLowerCase() && attendee.responseStatus === 'declined')
}

/** freeBusy for the account's calendar: its busy periods within [timeMin, timeMax), merged. */
export async function fakeBusyPeriods(db: Database, account: FakeAccount, timeMin: number, timeMax: number): Promise<{ start: number; end: number }[]> {
  const rows = await db
    .select()
    .from(fakeGoogleEvents)
    .where(
      and(
        eq(fakeGoogleEvents.subject, account.subject),
        ne(fakeGoogleEvents.status, 'cancelled'),
        gt(fakeGoogleEvents.endAt, new Date(timeMin)),
        lt(fakeGoogleEvents.startAt, new Date(timeMax)),
      ),
    )
    .orderBy(asc(fakeGoogleEvents.startAt))
  const periods: { start: number; end: number }[] = []
  for (const row of rows.filter((candidate) => isBusy(candidate, account))) {
    const start = Math.max(row.startAt.getTime(), timeMin)
    const end = Math.min(row.endAt.getTime(), timeMax)
    const last = periods.at(-1)
    if (last && start <= last.end) last.end = Math.max(last.end, end)
    else periods.push({ start, end })
  }
  return periods
}

/** Every event of an account, deleted ones included, by start: for the dev helper that shows a calendar. */
export async function allFakeEvents(db: Database, account: FakeAccount): Promise<EventRow[]> {
  return db.select().from(fakeGoogleEvents).where(eq(fakeGoogleEvents.subject, account.subject)).orderBy(asc(fakeGoogleEvents.startAt), asc(fakeGoogleEvents.id))
}

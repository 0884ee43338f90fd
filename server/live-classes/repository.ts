import { randomBytes } from 'node:crypto'
import { and, asc, count, eq, gt, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { groups, liveClasses, liveClassSeats, pillars, professionalProfiles, userGroups, users, type LiveClassAccess, type LocalizedText } from '#server/db/schema.ts'
import type { Services } from '#server/services.ts'
import { ZoomUnavailableError } from '#server/zoom/client.ts'
import { MEETING_AHEAD_MS, remindersSettledAtReservation } from '#server/live-classes/rules.ts'

/** The live classes' queries (decision 0058). */

export type LiveClassRow = typeof liveClasses.$inferSelect
type Teacher = { id: number; firstName: string; lastName: string; photoName: string | null; profession: string | null }
/** A class with what its answer names beside it: its pillar's id and its teacher. */
export type LiveClassView = { cls: LiveClassRow; pillarId: number; teacher: Teacher }

type Reader = Pick<Database, 'select'>

/** When the class ends, in SQL. */
const endsAtSql = sql`(${liveClasses.startsAt} + ${liveClasses.durationMinutes} * interval '1 minute')`

function selectClasses(db: Reader) {
  return db
    .select({
      cls: liveClasses,
      pillarId: pillars.id,
      teacher: { id: users.id, firstName: users.firstName, lastName: users.lastName, photoName: users.photoName, profession: professionalProfiles.profession },
    })
    .from(liveClasses)
    .innerJoin(pillars, eq(pillars.slug, liveClasses.pillarSlug))
    .innerJoin(users, eq(users.id, liveClasses.teacherId))
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, liveClasses.teacherId))
}

export type ClassFilter = { now: number; pillarSlug?: string; from?: number; to?: number; reservedBy?: number }

function filterOf({ now, pillarSlug, from, to, reservedBy }: ClassFilter): SQL | undefined {
  return and(
    isNull(liveClasses.cancelledAt),
    gt(endsAtSql, new Date(now)),
    pillarSlug ? eq(liveClasses.pillarSlug, pillarSlug) : undefined,
    from !== undefined ? gte(liveClasses.startsAt, new Date(from)) : undefined,
    to !== undefined ? lt(liveClasses.startsAt, new Date(to)) : undefined,
    reservedBy !== undefined
      ? inArray(liveClasses.id, sql`(select ${liveClassSeats.classId} from ${liveClassSeats} where ${liveClassSeats.userId} = ${reservedBy})`)
      : undefined,
  )
}

/** How many upcoming and ongoing classes (not cancelled, not ended) the filter keeps. */
export async function countClasses(db: Reader, filter: ClassFilter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(liveClasses).where(filterOf(filter))
  return row?.total ?? 0
}

/** One page of upcoming and ongoing classes, by start. */
export async function listClasses(db: Reader, filter: ClassFilter, page: { limit: number; offset: number }): Promise<LiveClassView[]> {
  return selectClasses(db).where(filterOf(filter)).orderBy(asc(liveClasses.startsAt), asc(liveClasses.id)).limit(page.limit).offset(page.offset)
}

export async function findClass(db: Reader, id: number): Promise<LiveClassView | undefined> {
  const [row] = await selectClasses(db).where(eq(liveClasses.id, id))
  return row
}

/** Which of these classes the user holds a seat in. */
export async function seatsHeld(db: Reader, userId: number, classIds: readonly number[]): Promise<Set<number>> {
  if (classIds.length === 0) return new Set()
  const rows = await db
    .select({ classId: liveClassSeats.classId })
    .from(liveClassSeats)
    .where(and(eq(liveClassSeats.userId, userId), inArray(liveClassSeats.classId, [...classIds])))
  return new Set(rows.map((row) => row.classId))
}

class NoSeatLeft extends Error {}

/**
 * Takes a seat for the user, the database deciding (decision 0058): the seat row (a second one for
 * the same person is nothing) and, in the same transaction, `seats_taken + 1` only while it is
 * below the seats and the class neither cancelled nor over; no row updated rolls the seat back.
 * The CHECK on seats_taken refuses overselling even if this were wrong.
 */
export async function reserveSeat(db: Database, cls: LiveClassRow, userId: number, now: number): Promise<'reserved' | 'already' | 'full'> {
  const settled = remindersSettledAtReservation(now, { startsAt: cls.startsAt.getTime(), durationMinutes: cls.durationMinutes })
  const at = new Date(now)
  try {
    return await db.transaction(async (tx) => {
      const [seat] = await tx
        .insert(liveClassSeats)
        .values({ classId: cls.id, userId, reservedAt: at, reminded24hAt: settled['24h'] ? at : null, reminded15mAt: settled['15m'] ? at : null })
        .onConflictDoNothing()
        .returning({ userId: liveClassSeats.userId })
      if (!seat) return 'already' as const
      const [taken] = await tx
        .update(liveClasses)
        .set({ seatsTaken: sql`${liveClasses.seatsTaken} + 1` })
        .where(and(eq(liveClasses.id, cls.id), lt(liveClasses.seatsTaken, liveClasses.seats), isNull(liveClasses.cancelledAt), gt(endsAtSql, at)))
        .returning({ id: liveClasses.id })
      if (!taken) throw new NoSeatLeft()
      return 'reserved' as const
    })
  } catch (error) {
    if (error instanceof NoSeatLeft) return 'full'
    throw error
  }
}

/**
 * The class's Zoom meeting, created once (decision 0058): made at Zoom, then kept only if the class
 * still has none (`… WHERE zoom_meeting_id IS NULL`); a process that lost that race deletes the
 * meeting it made and reads the winner's. Throws ZoomUnavailableError when Zoom is away.
 */
export async function ensureMeeting(services: Pick<Services, 'db' | 'zoom' | 'log'>, cls: LiveClassRow): Promise<LiveClassRow> {
  if (cls.zoomMeetingId) return cls
  const { db, zoom, log } = services
  const meeting = await zoom.createMeeting({ topic: cls.title.pt, startsAt: cls.startsAt, durationMinutes: cls.durationMinutes, timeZone: 'America/Sao_Paulo' })
  const [won] = await db
    .update(liveClasses)
    .set({ zoomMeetingId: meeting.id, joinUrl: meeting.joinUrl, startUrl: meeting.startUrl })
    .where(and(eq(liveClasses.id, cls.id), isNull(liveClasses.zoomMeetingId)))
    .returning()
  if (won) return won
  await zoom.deleteMeeting(meeting.id).catch((error: unknown) => log({ level: 'warn', msg: 'zoom meeting made twice could not be deleted', class_id: cls.id, meeting_id: meeting.id, error: String(error) }))
  const [row] = await db.select().from(liveClasses).where(eq(liveClasses.id, cls.id))
  return row!
}

/** The jobs' part: meetings for the classes starting within 48 hours that have none yet, a few per tick. */
export async function createDueMeetings(services: Pick<Services, 'db' | 'zoom' | 'log' | 'clock'>, limit = 10): Promise<{ created: number; failed: number }> {
  // No Zoom app named: joining says so (503); nothing to try ahead, nor to warn about every tick.
  if (!services.zoom.configured) return { created: 0, failed: 0 }
  const now = services.clock()
  const due = await services.db
    .select()
    .from(liveClasses)
    .where(and(isNull(liveClasses.zoomMeetingId), isNull(liveClasses.cancelledAt), gt(endsAtSql, new Date(now)), lt(liveClasses.startsAt, new Date(now + MEETING_AHEAD_MS))))
    .orderBy(asc(liveClasses.startsAt))
    .limit(limit)
  const report = { created: 0, failed: 0 }
  for (const cls of due) {
    try {
      await ensureMeeting(services, cls)
      report.created += 1
    } catch (error) {
      if (!(error instanceof ZoomUnavailableError)) throw error
      report.failed += 1
      services.log({ level: 'warn', msg: 'zoom meeting not created', class_id: cls.id, error: error.message })
      // Zoom is away: the rest wait for the next tick.
      break
    }
  }
  return report
}

/** An active professional (a class's teacher must be one). */
async function isActiveProfessional(db: Reader, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userGroups, eq(userGroups.userId, users.id))
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(and(eq(users.id, userId), eq(users.isActive, true), eq(groups.name, 'profissional')))
  return row !== undefined
}

type NewLiveClass = {
  pillarSlug: string
  title: LocalizedText
  description: LocalizedText
  teacherId: number
  startsAt: Date
  durationMinutes: number
  seats: number
  access: LiveClassAccess
}

/** "Yoga para dormir" → "yoga-para-dormir". */
function slugify(text: string, max = 80): string {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, max)
      .replace(/^-+|-+$/g, '') || 'aula'
  )
}

const DAY_MS = 86_400_000
/** How far ahead an admin may schedule a class. */
const MAX_SCHEDULE_AHEAD_DAYS = 365

/** The start an admin may give a class (new or moved): in the future, within 365 days; else the field's message. */
export function startProblem(startsAt: number, now: number): string | undefined {
  if (startsAt <= now) return 'The class must start in the future.'
  if (startsAt > now + MAX_SCHEDULE_AHEAD_DAYS * DAY_MS) return `The class must start within ${MAX_SCHEDULE_AHEAD_DAYS} days.`
  return undefined
}

/**
 * What the database cannot say about an admin's new class, by field (empty when none): a pillar
 * that exists, an active professional as its teacher, a start ahead within the year.
 */
export async function newClassProblems(db: Reader, values: { pillarSlug: string; teacherId: number; startsAt: number }, now: number): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {}
  const [pillar] = await db.select({ slug: pillars.slug }).from(pillars).where(eq(pillars.slug, values.pillarSlug))
  if (!pillar) problems.pillar = ['Select a valid choice. That choice is not one of the available choices.']
  if (!(await isActiveProfessional(db, values.teacherId))) problems.teacher_id = ['Select an active professional.']
  const start = startProblem(values.startsAt, now)
  if (start) problems.starts_at = [start]
  return problems
}

/**
 * An admin's new class. Its slug is the one given (the content editor's key, decision 0064), else
 * its title's, its date and a random tail. A slug already taken inserts nothing: undefined.
 */
export async function createClass(db: Pick<Database, 'insert'>, values: NewLiveClass & { slug?: string }, now: number): Promise<LiveClassRow | undefined> {
  const slug = values.slug ?? `${slugify(values.title.pt)}-${values.startsAt.toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`
  const [row] = await db
    .insert(liveClasses)
    .values({ ...values, slug, createdAt: new Date(now) })
    .onConflictDoNothing({ target: liveClasses.slug })
    .returning()
  return row
}

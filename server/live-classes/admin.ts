import { and, asc, count, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import { actorOf, changedFields } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import { discardDraft, saveDraft } from '#server/content/drafts.ts'
import { draftTextField, requireAllLanguages } from '#server/content/languages.ts'
import type { Database, Writer } from '#server/db/client.ts'
import { databaseError } from '#server/db/errors.ts'
import { liveClasses, liveClassSeats, outbox, users, type LiveClassAccess } from '#server/db/schema.ts'
import { apiError, notFound, validationError } from '#server/http/errors.ts'
import { charField, choiceField, idField, instantField, integerField, validate } from '#server/http/fields.ts'
import type { Services } from '#server/services.ts'
import { ZoomUnavailableError } from '#server/zoom/client.ts'
import { liveClassCancelledMessage, liveClassMovedMessage } from '#server/live-classes/notices.ts'
import { createClass, ensureMeeting, newClassProblems, startProblem, type LiveClassRow } from '#server/live-classes/repository.ts'
import { endOf, remindersSettledAtReservation } from '#server/live-classes/rules.ts'

/**
 * The admin's live classes (issue 26, decision 0067): a new class is a draft named by its slug
 * until it is published (decision 0064), which creates it and its Zoom meeting; a published
 * class's texts change through a draft too; its start, length and seats change at once (its seat
 * holders told, their reminders re-armed, the meeting moved at Zoom); a cancellation releases the
 * seats and tells the holders, exactly once. A class that has started or was cancelled changes no more.
 */

export const LIVE_CLASS_KIND = 'live_class' as const
const CLASS_TITLE_MAX = 120
const CLASS_DESCRIPTION_MAX = 2000
const CANCEL_REASON_MAX = 500
const SLUG_MAX = 120
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/
const ACCESS = ['free', 'members'] as const
const ZONE = 'America/Sao_Paulo'
const REQUIRED = 'This field is required.'

/** A blank or null value is no value (a draft may leave any field out). */
const optional = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value), schema.optional())

const texts = {
  title: draftTextField(CLASS_TITLE_MAX).default({ pt: '', en: '', es: '' }),
  description: draftTextField(CLASS_DESCRIPTION_MAX).default({ pt: '', en: '', es: '' }),
}

/** A new class's draft: every field bounded, any left out (the texts' languages included). */
const newClassDraftSchema = z.object({
  ...texts,
  pillar: optional(charField({ maxLength: 50 })),
  teacher_id: optional(idField()),
  starts_at: optional(instantField()),
  duration_minutes: optional(integerField({ min: 15, max: 240 })),
  seats: optional(integerField({ min: 1, max: 1000 })),
  access: optional(choiceField(ACCESS)),
})
type NewClassDraft = z.output<typeof newClassDraftSchema>

/** A published class's draft: its texts only (its schedule changes on its own, its teacher, pillar and access stay). */
const textsDraftSchema = z.object(texts)

const scheduleSchema = z.object({
  starts_at: instantField(),
  duration_minutes: integerField({ min: 15, max: 240 }),
  seats: integerField({ min: 1, max: 1000 }),
})

const cancelSchema = z.object({ reason: charField({ maxLength: CANCEL_REASON_MAX }) })

/** The draft as stored: the form's values, absent ones null, the start as an instant's text. */
function storedNewDraft(draft: NewClassDraft) {
  return {
    title: draft.title,
    description: draft.description,
    pillar: draft.pillar ?? null,
    teacher_id: draft.teacher_id ?? null,
    starts_at: draft.starts_at === undefined ? null : new Date(draft.starts_at).toISOString(),
    duration_minutes: draft.duration_minutes ?? null,
    seats: draft.seats ?? null,
    access: draft.access ?? null,
  }
}

/** A slug the table takes (its CHECK and length), or a 400 on `slug`. */
function requireSlug(slug: string): string {
  if (slug.length > SLUG_MAX || !SLUG.test(slug)) throw validationError({ slug: [`Enter a valid slug: lower-case letters, digits and single hyphens, at most ${SLUG_MAX} characters.`] })
  return slug
}

type ClassState = 'scheduled' | 'started' | 'cancelled'

/** Cancelled, started (or over), or still ahead: only a class ahead may be edited, moved or cancelled. */
function classState(cls: Pick<LiveClassRow, 'startsAt' | 'cancelledAt'>, now: number): ClassState {
  if (cls.cancelledAt) return 'cancelled'
  return cls.startsAt.getTime() <= now ? 'started' : 'scheduled'
}

/** The 409 for a class that can no longer change, or nothing. */
function refuseClosed(cls: Pick<LiveClassRow, 'startsAt' | 'cancelledAt'>, now: number): void {
  const state = classState(cls, now)
  if (state === 'cancelled') throw apiError(409, 'This class was cancelled: it can no longer be changed.', { code: 'cancelled' })
  if (state === 'started') throw apiError(409, 'This class has already started: it can no longer be changed.', { code: 'started' })
}

const teacher = alias(users, 'teacher')

type ClassWithTeacher = { cls: LiveClassRow; teacher: { id: number; firstName: string; lastName: string } }

function selectWithTeacher(db: Pick<Database, 'select'>) {
  return db
    .select({ cls: liveClasses, teacher: { id: teacher.id, firstName: teacher.firstName, lastName: teacher.lastName } })
    .from(liveClasses)
    .innerJoin(teacher, eq(teacher.id, liveClasses.teacherId))
}

export async function findClassBySlug(db: Pick<Database, 'select'>, slug: string): Promise<ClassWithTeacher | undefined> {
  const [row] = await selectWithTeacher(db).where(eq(liveClasses.slug, slug))
  return row
}

type ClassListWhen = 'upcoming' | 'past'

/** Upcoming: not started yet, soonest first (cancelled ones included, marked). Past: started, latest first. */
const listFilter = (when: ClassListWhen, now: number) => (when === 'upcoming' ? gt(liveClasses.startsAt, new Date(now)) : lte(liveClasses.startsAt, new Date(now)))

export async function countAdminClasses(db: Pick<Database, 'select'>, when: ClassListWhen, now: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(liveClasses).where(listFilter(when, now))
  return row?.total ?? 0
}

export async function adminClassesPage(db: Pick<Database, 'select'>, when: ClassListWhen, now: number, page: { limit: number; offset: number }): Promise<ClassWithTeacher[]> {
  const order = when === 'upcoming' ? [asc(liveClasses.startsAt), asc(liveClasses.id)] : [desc(liveClasses.startsAt), desc(liveClasses.id)]
  return selectWithTeacher(db)
    .where(listFilter(when, now))
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset)
}

/** Which of these slugs name a class. */
export async function existingSlugs(db: Pick<Database, 'select'>, slugs: string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set()
  const rows = await db.select({ slug: liveClasses.slug }).from(liveClasses).where(inArray(liveClasses.slug, slugs))
  return new Set(rows.map((row) => row.slug))
}

/** A class as the admin's pages read it: everything but the meeting's links (whether there is one). */
export function serializeAdminClass({ cls, teacher: who }: ClassWithTeacher, now: number) {
  return {
    id: cls.id,
    slug: cls.slug,
    pillar: cls.pillarSlug,
    title: cls.title,
    description: cls.description,
    teacher: { id: who.id, first_name: who.firstName, last_name: who.lastName },
    starts_at: cls.startsAt.toISOString(),
    ends_at: new Date(endOf({ startsAt: cls.startsAt.getTime(), durationMinutes: cls.durationMinutes })).toISOString(),
    duration_minutes: cls.durationMinutes,
    seats: cls.seats,
    seats_taken: cls.seatsTaken,
    access: cls.access,
    state: classState(cls, now),
    cancelled_at: cls.cancelledAt?.toISOString() ?? null,
    has_meeting: cls.zoomMeetingId !== null,
  }
}

/** What the audit log keeps of a class: its content and schedule, never its links. */
const snapshot = (cls: LiveClassRow) => ({
  slug: cls.slug,
  pillar: cls.pillarSlug,
  title: cls.title,
  description: cls.description,
  teacher_id: cls.teacherId,
  starts_at: cls.startsAt.toISOString(),
  duration_minutes: cls.durationMinutes,
  seats: cls.seats,
  access: cls.access,
})
const scheduleOf = (cls: LiveClassRow) => ({ starts_at: cls.startsAt.toISOString(), duration_minutes: cls.durationMinutes, seats: cls.seats })

type Ctx = { services: Pick<Services, 'db' | 'zoom' | 'log' | 'config'>; caller: Caller; now: number }

/** Saves a draft: a new class's whole form, or a published class's texts (a class no longer ahead refuses). */
export async function saveClassDraft({ services, caller, now }: Ctx, slug: string, fields: unknown) {
  const { db } = services
  const existing = await findClassBySlug(db, requireSlug(slug))
  if (existing) refuseClosed(existing.cls, now)
  const body = existing ? validate(textsDraftSchema, fields) : storedNewDraft(validate(newClassDraftSchema, fields))
  return saveDraft(db, LIVE_CLASS_KIND, slug, body, caller.user.id, now)
}

/** Discards a draft (404 when there is none), the discard audited. */
export async function discardClassDraft({ services, caller, now }: Ctx, slug: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    if (!(await discardDraft(tx, LIVE_CLASS_KIND, slug))) throw notFound()
    await recordAudit(tx, { ...actorOf(caller), action: 'live_class.discard', targetType: 'live_class', targetId: slug, at: now })
  })
}

/**
 * Publishes a draft (the body is the whole form, saved as the draft first). A new class: every
 * language of its texts, its pillar, an active teacher, a start ahead, then the row (its slug the
 * key: a slug taken meanwhile is 409), the draft removed and `live_class.create` audited, in one
 * transaction; then its Zoom meeting (Zoom away: the jobs' tick or the first join makes it). A
 * published class: its texts, audited as `live_class.publish` with what changed.
 */
export async function publishClass(ctx: Ctx, slug: string, fields: unknown): Promise<{ created: boolean; row: LiveClassRow }> {
  const { services, caller, now } = ctx
  const { db } = services
  const existing = await findClassBySlug(db, requireSlug(slug))
  if (existing) {
    refuseClosed(existing.cls, now)
    const body = validate(textsDraftSchema, fields)
    await saveDraft(db, LIVE_CLASS_KIND, slug, body, caller.user.id, now)
    const complete = requireAllLanguages({ title: body.title, description: body.description })
    const row = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(liveClasses).where(eq(liveClasses.slug, slug)).for('update')
      if (!before) throw notFound()
      refuseClosed(before, now)
      const [after] = await tx.update(liveClasses).set({ title: complete.title, description: complete.description }).where(eq(liveClasses.id, before.id)).returning()
      await discardDraft(tx, LIVE_CLASS_KIND, slug)
      await recordAudit(tx, { ...actorOf(caller), action: 'live_class.publish', targetType: 'live_class', targetId: slug, ...changedFields(snapshot(before), snapshot(after!)), at: now })
      return after!
    })
    return { created: false, row }
  }

  const draft = validate(newClassDraftSchema, fields)
  await saveDraft(db, LIVE_CLASS_KIND, slug, storedNewDraft(draft), caller.user.id, now)
  const complete = requireAllLanguages({ title: draft.title, description: draft.description })
  const missing = Object.fromEntries((['pillar', 'teacher_id', 'starts_at', 'duration_minutes', 'seats', 'access'] as const).filter((field) => draft[field] === undefined).map((field) => [field, [REQUIRED]]))
  if (Object.keys(missing).length > 0) throw validationError(missing)
  const values = { pillarSlug: draft.pillar!, teacherId: draft.teacher_id!, startsAt: draft.starts_at! }
  const row = await db.transaction(async (tx) => {
    const problems = await newClassProblems(tx, values, now)
    if (Object.keys(problems).length > 0) throw validationError(problems)
    const created = await createClass(
      tx,
      {
        slug,
        pillarSlug: values.pillarSlug,
        title: complete.title,
        description: complete.description,
        teacherId: values.teacherId,
        startsAt: new Date(values.startsAt),
        durationMinutes: draft.duration_minutes!,
        seats: draft.seats!,
        access: draft.access! as LiveClassAccess,
      },
      now,
    )
    if (!created) throw apiError(409, 'A class with this slug was published meanwhile.', { code: 'exists' })
    await discardDraft(tx, LIVE_CLASS_KIND, slug)
    await recordAudit(tx, { ...actorOf(caller), action: 'live_class.create', targetType: 'live_class', targetId: slug, before: null, after: snapshot(created), at: now })
    return created
  })
  return { created: true, row: await withMeeting(services, row) }
}

/** The class's Zoom meeting made now; Zoom away (or none configured) leaves it to the tick or the first join. */
async function withMeeting(services: Ctx['services'], row: LiveClassRow): Promise<LiveClassRow> {
  if (!services.zoom.configured) return row
  try {
    return await ensureMeeting(services, row)
  } catch (error) {
    if (!(error instanceof ZoomUnavailableError)) throw error
    services.log({ level: 'warn', msg: 'zoom meeting not created at publish', class_id: row.id, error: error.message })
    return row
  }
}

/** The seat holders of a class, with what their messages need. */
async function holdersOf(db: Pick<Database, 'select'>, classId: number, userIds?: number[]) {
  return db
    .select({ userId: users.id, email: users.email, firstName: users.firstName, timeZone: users.timeZone, isActive: users.isActive })
    .from(users)
    .where(userIds ? inArray(users.id, userIds.length > 0 ? userIds : [0]) : inArray(users.id, sql`(select ${liveClassSeats.userId} from ${liveClassSeats} where ${liveClassSeats.classId} = ${classId})`))
}

async function queue(tx: Writer, message: { to: string; subject: string; text: string; html: string }, now: number) {
  const at = new Date(now)
  await tx.insert(outbox).values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html, createdAt: at, nextAttemptAt: at })
}

const SEATS_TAKEN_CHECK = 'live_classes_seats_taken_check'
const isSeatsTakenViolation = (error: unknown) => {
  const found = databaseError(error)
  return found?.code === '23514' && (found.constraint === undefined || found.constraint === SEATS_TAKEN_CHECK)
}

/**
 * A new start, length or number of seats. Seats never below those taken: the CHECK decides (a 400
 * on `seats`). A new start or length tells each seat holder (the outbox, in the same transaction)
 * and, for a new start, re-arms their reminders for it: one still ahead is due again, one already
 * due for the new time is settled by this message. Then the meeting moves at Zoom.
 */
export async function rescheduleClass(ctx: Ctx, slug: string, fields: unknown) {
  const { services, caller, now } = ctx
  const { db, config } = services
  const input = validate(scheduleSchema, fields)
  const problem = startProblem(input.starts_at, now)
  let seatsTaken = 0
  let outcome: { before: LiveClassRow; after: LiveClassRow; notified: number }
  try {
    outcome = await db.transaction(async (tx) => {
      const [found] = await selectWithTeacher(tx).where(eq(liveClasses.slug, slug)).for('update', { of: liveClasses })
      if (!found) throw notFound()
      const before = found.cls
      refuseClosed(before, now)
      const startChanged = before.startsAt.getTime() !== input.starts_at
      if (problem && startChanged) throw validationError({ starts_at: [problem] })
      seatsTaken = before.seatsTaken
      const [after] = await tx
        .update(liveClasses)
        .set({ startsAt: new Date(input.starts_at), durationMinutes: input.duration_minutes, seats: input.seats })
        .where(eq(liveClasses.id, before.id))
        .returning()
      let notified = 0
      if (startChanged || before.durationMinutes !== input.duration_minutes) {
        if (startChanged) {
          const settled = remindersSettledAtReservation(now, { startsAt: input.starts_at, durationMinutes: input.duration_minutes })
          const at = new Date(now)
          await tx
            .update(liveClassSeats)
            .set({ reminded24hAt: settled['24h'] ? at : null, reminded15mAt: settled['15m'] ? at : null })
            .where(eq(liveClassSeats.classId, before.id))
        }
        for (const holder of await holdersOf(tx, before.id)) {
          if (!holder.isActive) continue
          const message = liveClassMovedMessage({
            to: holder,
            title: after!.title.pt,
            teacherFirstName: found.teacher.firstName,
            startsAt: after!.startsAt,
            durationMinutes: after!.durationMinutes,
            previousStartsAt: before.startsAt,
            link: `${config.appPublicUrl}/aulas-ao-vivo/${before.id}`,
          })
          await queue(tx, message, now)
          notified += 1
        }
      }
      await recordAudit(tx, { ...actorOf(caller), action: 'live_class.schedule', targetType: 'live_class', targetId: slug, ...changedFields(scheduleOf(before), scheduleOf(after!)), at: now })
      return { before, after: after!, notified }
    })
  } catch (error) {
    if (isSeatsTakenViolation(error)) throw validationError({ seats: [`${seatsTaken} seats are already taken: the class cannot have fewer.`] })
    throw error
  }
  const { before, after, notified } = outcome
  let meetingUpdated: boolean | null = null
  const moved = before.startsAt.getTime() !== after.startsAt.getTime() || before.durationMinutes !== after.durationMinutes
  if (moved && after.zoomMeetingId) {
    try {
      await services.zoom.updateMeeting(after.zoomMeetingId, { startsAt: after.startsAt, durationMinutes: after.durationMinutes, timeZone: ZONE })
      meetingUpdated = true
    } catch (error) {
      if (!(error instanceof ZoomUnavailableError)) throw error
      services.log({ level: 'warn', msg: 'zoom meeting not moved', class_id: after.id, error: error.message })
      meetingUpdated = false
    }
  }
  return { row: after, notified, meetingUpdated }
}

/**
 * Cancels a class, exactly once: the row's own UPDATE … WHERE cancelled_at IS NULL decides (a
 * second cancel finds no row and is a 409), and in the same transaction the seats are released
 * and every holder's message queued, the reason audited. Then the meeting is deleted at Zoom.
 */
export async function cancelClass(ctx: Ctx, slug: string, fields: unknown) {
  const { services, caller, now } = ctx
  const { db, config } = services
  const { reason } = validate(cancelSchema, fields)
  const at = new Date(now)
  const outcome = await db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(liveClasses)
      .set({ cancelledAt: at, seatsTaken: 0 })
      .where(and(eq(liveClasses.slug, slug), isNull(liveClasses.cancelledAt), gt(liveClasses.startsAt, at)))
      .returning()
    if (!cancelled) {
      const found = await findClassBySlug(tx, slug)
      if (!found) throw notFound()
      refuseClosed(found.cls, now)
      throw new Error('a class ahead was not cancelled')
    }
    const released = await tx.delete(liveClassSeats).where(eq(liveClassSeats.classId, cancelled.id)).returning({ userId: liveClassSeats.userId })
    const [who] = await tx.select({ firstName: users.firstName }).from(users).where(eq(users.id, cancelled.teacherId))
    let notified = 0
    for (const holder of await holdersOf(
      tx,
      cancelled.id,
      released.map((seat) => seat.userId),
    )) {
      if (!holder.isActive) continue
      await queue(tx, liveClassCancelledMessage({ to: holder, title: cancelled.title.pt, teacherFirstName: who?.firstName ?? '', startsAt: cancelled.startsAt, link: `${config.appPublicUrl}/aulas-ao-vivo` }), now)
      notified += 1
    }
    await recordAudit(tx, {
      ...actorOf(caller),
      action: 'live_class.cancel',
      targetType: 'live_class',
      targetId: slug,
      before: { cancelled_at: null, seats_taken: released.length },
      after: { cancelled_at: at.toISOString(), seats_taken: 0 },
      reason,
      at: now,
    })
    return { row: cancelled, notified }
  })
  let { row } = outcome
  let meetingDeleted: boolean | null = null
  const meetingId = row.zoomMeetingId
  if (meetingId) {
    try {
      await services.zoom.deleteMeeting(meetingId)
      const [cleared] = await db
        .update(liveClasses)
        .set({ zoomMeetingId: null, joinUrl: null, startUrl: null })
        .where(and(eq(liveClasses.id, row.id), eq(liveClasses.zoomMeetingId, meetingId)))
        .returning()
      row = cleared ?? row
      meetingDeleted = true
    } catch (error) {
      if (!(error instanceof ZoomUnavailableError)) throw error
      services.log({ level: 'warn', msg: 'zoom meeting of a cancelled class not deleted', class_id: row.id, meeting_id: meetingId, error: error.message })
      meetingDeleted = false
    }
  }
  return { row, notified: outcome.notified, meetingDeleted }
}

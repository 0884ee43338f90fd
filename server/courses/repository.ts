import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import type { Database, Writer } from '#server/db/client.ts'
import { courses, lessonProgress, lessons, pillars, products, purchaseGrants, subscriptions } from '#server/db/schema.ts'
import { roleOf, type Caller } from '#server/auth/authenticate.ts'
import type { Entitlements } from '#server/courses/access.ts'
import { applyReport, reportTooSoon, type Progress } from '#server/courses/progress.ts'

/** The courses' queries (decision 0057). */

type CourseRow = typeof courses.$inferSelect
export type LessonRow = typeof lessons.$inferSelect
export type ProgressRow = typeof lessonProgress.$inferSelect
/** A course with what its answer names beside it: its pillar's id and its product's price. */
export type CourseView = { course: CourseRow; pillarId: number; product: { id: number; priceCents: number } | null }

type Reader = Pick<Database, 'select' | 'selectDistinct'>

const LIVE_SUBSCRIPTION = ['trialing', 'active', 'past_due'] as const

function selectCourses(db: Reader) {
  return db
    .select({ course: courses, pillarId: pillars.id, productId: products.id, priceCents: products.priceCents })
    .from(courses)
    .innerJoin(pillars, eq(pillars.slug, courses.pillarSlug))
    .leftJoin(products, eq(products.id, courses.productId))
}

type SelectedCourse = { course: CourseRow; pillarId: number; productId: number | null; priceCents: number | null }
const toView = ({ course, pillarId, productId, priceCents }: SelectedCourse): CourseView => ({
  course,
  pillarId,
  product: productId === null || priceCents === null ? null : { id: productId, priceCents },
})

/** Active courses, by pillar then the catalogue's order; `pillarSlug` narrows, `ids` too. */
export async function listCourses(db: Reader, filter: { pillarSlug?: string; ids?: readonly number[] } = {}): Promise<CourseView[]> {
  if (filter.ids?.length === 0) return []
  const rows = await selectCourses(db)
    .where(and(eq(courses.active, true), filter.pillarSlug ? eq(courses.pillarSlug, filter.pillarSlug) : undefined, filter.ids ? inArray(courses.id, [...filter.ids]) : undefined))
    .orderBy(asc(pillars.order), asc(courses.sortOrder), asc(courses.id))
  return rows.map(toView)
}

export async function findCourse(db: Reader, id: number): Promise<CourseView | undefined> {
  const [row] = await selectCourses(db).where(and(eq(courses.id, id), eq(courses.active, true)))
  return row && toView(row)
}

/** The lessons of these courses, in each course's order. */
export async function lessonsOf(db: Reader, courseIds: readonly number[]): Promise<LessonRow[]> {
  if (courseIds.length === 0) return []
  return db.select().from(lessons).where(inArray(lessons.courseId, [...courseIds])).orderBy(asc(lessons.courseId), asc(lessons.number))
}

export async function findLesson(db: Reader, id: number): Promise<LessonRow | undefined> {
  const [row] = await db.select().from(lessons).where(eq(lessons.id, id))
  return row
}

/** The user's progress in these lessons, by lesson. */
export async function progressOf(db: Reader, userId: number, lessonIds: readonly number[]): Promise<Map<number, ProgressRow>> {
  if (lessonIds.length === 0) return new Map()
  const rows = await db
    .select()
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, userId), inArray(lessonProgress.lessonId, [...lessonIds])))
  return new Map(rows.map((row) => [row.lessonId, row]))
}

/** The courses the user has started (any progress in one of its lessons). */
export async function startedCourseIds(db: Reader, userId: number): Promise<Set<number>> {
  const rows = await db
    .selectDistinct({ courseId: lessons.courseId })
    .from(lessonProgress)
    .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
    .where(eq(lessonProgress.userId, userId))
  return new Set(rows.map((row) => row.courseId))
}

/** What opens paid courses for the caller: their course and program grants in force and available, and a live plan. */
export async function entitlementsOf(db: Reader, caller: Caller, now: number): Promise<Entitlements> {
  const role = roleOf(caller.groups)
  if (role !== 'paciente') return { role, courseProductIds: new Set(), hasProgram: false, hasLiveSubscription: false }
  const [grants, live] = await Promise.all([
    db
      .select({ productId: purchaseGrants.productId, kind: purchaseGrants.kind })
      .from(purchaseGrants)
      .where(
        and(
          eq(purchaseGrants.userId, caller.user.id),
          isNull(purchaseGrants.revokedAt),
          lte(purchaseGrants.availableAt, new Date(now)),
          inArray(purchaseGrants.kind, ['course', 'program']),
        ),
      ),
    db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, caller.user.id), inArray(subscriptions.status, [...LIVE_SUBSCRIPTION])))
      .limit(1),
  ])
  return {
    role,
    courseProductIds: new Set(grants.filter((grant) => grant.kind === 'course').map((grant) => grant.productId)),
    hasProgram: grants.some((grant) => grant.kind === 'program'),
    hasLiveSubscription: live.length > 0,
  }
}

/** The pillars that have active courses, in the pillars' order, with how many. */
export async function pillarsWithCourses(db: Reader) {
  return db
    .select({ slug: pillars.slug, id: pillars.id, name: pillars.name, coursesCount: sql<number>`count(*)::int` })
    .from(courses)
    .innerJoin(pillars, eq(pillars.slug, courses.pillarSlug))
    .where(eq(courses.active, true))
    .groupBy(pillars.id)
    .orderBy(asc(pillars.order))
}

/** The row to lock: created empty first so two first reports cannot both insert. */
async function lockedProgress(tx: Writer, userId: number, lessonId: number): Promise<ProgressRow> {
  await tx.insert(lessonProgress).values({ userId, lessonId }).onConflictDoNothing()
  const [row] = await tx
    .select()
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.lessonId, lessonId)))
    .for('update')
  return row!
}

const asProgress = (row: ProgressRow): Progress | undefined =>
  row.reportedAt === null && row.completedAt === null && row.watchedMs === 0 && row.positionMs === 0 ? undefined : row

/**
 * A report of the page playing the lesson (decision 0057), applied under the row's lock: refused
 * ('throttled') within the report interval of the previous one, whichever process took it.
 */
export async function reportProgress(
  db: Database,
  userId: number,
  lesson: Pick<LessonRow, 'id' | 'durationMs'>,
  report: { positionMs: number; watchedMs: number },
  now: number,
): Promise<ProgressRow | 'throttled'> {
  return db.transaction(async (tx) => {
    const row = await lockedProgress(tx, userId, lesson.id)
    if (reportTooSoon(row.reportedAt, now)) return 'throttled' as const
    const next = applyReport(asProgress(row), report, lesson.durationMs, now)
    const [updated] = await tx
      .update(lessonProgress)
      .set({ ...next, reportedAt: next.reportedAt ?? new Date(now), updatedAt: new Date(now) })
      .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.lessonId, lesson.id)))
      .returning()
    return updated!
  })
}

/** "Mark as done": done from now, or since it already was. */
export async function completeLesson(db: Database, userId: number, lessonId: number, now: number): Promise<ProgressRow> {
  const at = new Date(now)
  const [row] = await db
    .insert(lessonProgress)
    .values({ userId, lessonId, completedAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: [lessonProgress.userId, lessonProgress.lessonId],
      set: { completedAt: sql`coalesce(${lessonProgress.completedAt}, excluded.completed_at)`, updatedAt: at },
    })
    .returning()
  return row!
}

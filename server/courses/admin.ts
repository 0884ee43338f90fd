import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { actorOf, changedFields } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import { discardDraft, listDrafts, readDraft, saveDraft, type ContentDraft } from '#server/content/drafts.ts'
import { draftTextField, MISSING_LANGUAGE_MESSAGE, missingLanguages, type DraftText } from '#server/content/languages.ts'
import type { Database, Writer } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { contentDrafts, courses, lessons, pillars, products, SLUG_PATTERN, SORT_ORDER_MAX, type ContentKind, type LocalizedText } from '#server/db/schema.ts'
import { fieldError, validationError, type FieldErrors } from '#server/http/errors.ts'
import { booleanField, charField, idField, integerField } from '#server/http/fields.ts'
import { readLessonManifest, type LessonManifest } from '#server/courses/seed.ts'

/**
 * The admin content editor's courses and lessons (issue 26, decisions 0064 and 0066): drafts kept
 * as typed, published only with every language, the course row and the lesson row written with
 * the draft's removal and the audit entry in one transaction. A lesson's slug names its media
 * files, so a new lesson is made for a video of the media folder that no lesson uses yet.
 */

const COURSE_TITLE_MAX = 120
const COURSE_TEXT_MAX = 2000
export const COURSE_SLUG_MAX = 80
export const LESSON_SLUG_MAX = 120
const LESSON_NUMBER_MAX = 200
const SLUG = new RegExp(SLUG_PATTERN)

const REQUIRED = 'This field is required.'
const COURSE_EXISTS = 'A course with this address already exists: open it from the list.'
const LESSON_EXISTS = 'This video already belongs to a lesson.'
const PRODUCT_TAKEN = 'This product already sells another course.'
const NUMBER_TAKEN = 'Another lesson of this course has this number.'
const NOT_A_COURSE_PRODUCT = 'Select a course product of the catalogue.'
const NO_SUCH_PILLAR = 'Select a valid pillar.'
export const NO_SUCH_COURSE = 'This course does not exist.'
export const NO_SUCH_VIDEO = 'This video is not in the media folder.'

/** Whether a key may name a course (`max` 80) or a lesson (120): the tables' slug CHECK. */
export const isContentSlug = (key: string, max: number) => key.length <= max && SLUG.test(key)

/** An empty text field (or none) reads as nothing; anything else goes through `schema`. */
const orNull = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? null : value), schema.nullable())
const withDefault = <Schema extends z.ZodType>(schema: Schema, fallback: unknown) => z.preprocess((value) => (value === undefined ? fallback : value), schema)
const emptyText = (): DraftText => ({ pt: '', en: '', es: '' })
const text = (max: number) => withDefault(draftTextField(max), emptyText())

/** A course's draft: any language may be empty, the pillar too; every field bounded. */
export const courseDraftSchema = z.object({
  title: text(COURSE_TITLE_MAX),
  description: text(COURSE_TEXT_MAX),
  pillar: withDefault(charField({ maxLength: 50, allowBlank: true }), ''),
  sort_order: withDefault(integerField({ min: 0, max: SORT_ORDER_MAX }), 0),
  active: withDefault(booleanField(), true),
  product_id: orNull(idField()),
})
export type CourseDraft = z.output<typeof courseDraftSchema>

/** A lesson's draft: its course (by slug; fixed once published), texts, number (1-200, may wait) and the preview flag. */
export const lessonDraftSchema = z.object({
  course: charField({ maxLength: COURSE_SLUG_MAX }),
  title: text(COURSE_TITLE_MAX),
  summary: text(COURSE_TEXT_MAX),
  number: orNull(integerField({ min: 1, max: LESSON_NUMBER_MAX })),
  free: withDefault(booleanField(), false),
})
export type LessonDraft = z.output<typeof lessonDraftSchema>

/** Only a new item's first save or publish says `create`: it never replaces a draft or an item of that key. */
export const createFlagSchema = z.object({ create: withDefault(booleanField(), false) })

type CourseRow = typeof courses.$inferSelect
type LessonRow = typeof lessons.$inferSelect

/** What an editor edits of a course, as the draft holds it (and the audit's before/after). */
const courseBody = (row: CourseRow): CourseDraft => ({
  title: row.title,
  description: row.description,
  pillar: row.pillarSlug,
  sort_order: row.sortOrder,
  active: row.active,
  product_id: row.productId,
})

export const serializeAdminCourse = (row: CourseRow, lessonsCount: number) => ({ id: row.id, slug: row.slug, ...courseBody(row), lessons_count: lessonsCount })

const lessonBody = (row: LessonRow, courseSlug: string): LessonDraft => ({ course: courseSlug, title: row.title, summary: row.summary, number: row.number, free: row.free })

export const serializeAdminLesson = (row: LessonRow, courseSlug: string) => ({
  id: row.id,
  slug: row.slug,
  ...lessonBody(row, courseSlug),
  duration_seconds: row.durationMs / 1000,
  video_bytes: row.videoBytes,
})

export const serializeDraft = (draft: ContentDraft | undefined) => (draft ? { ...draft.body, updated_at: draft.updatedAt.toISOString() } : null)

/** The missing languages as the publish check names them (`title.en`), beside other problems. */
function languageErrors(texts: Record<string, Partial<DraftText>>): FieldErrors {
  const errors: FieldErrors = {}
  for (const [field, languages] of Object.entries(missingLanguages(texts))) for (const language of languages) errors[`${field}.${language}`] = [MISSING_LANGUAGE_MESSAGE]
  return errors
}

const throwIfAny = (errors: FieldErrors) => {
  if (Object.keys(errors).length > 0) throw validationError(errors)
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Every course, active or not, in the members' order, with how many lessons each has. */
export async function adminCourses(db: Database) {
  const rows = await db
    .select({ course: courses, lessonsCount: sql<number>`(select count(*)::int from ${lessons} where ${lessons.courseId} = ${courses.id})` })
    .from(courses)
    .innerJoin(pillars, eq(pillars.slug, courses.pillarSlug))
    .orderBy(asc(pillars.order), asc(courses.sortOrder), asc(courses.id))
  return rows
}

export async function courseBySlug(db: Pick<Database, 'select'>, slug: string): Promise<CourseRow | undefined> {
  const [row] = await db.select().from(courses).where(eq(courses.slug, slug))
  return row
}

export async function lessonBySlug(db: Pick<Database, 'select'>, slug: string): Promise<{ lesson: LessonRow; courseSlug: string } | undefined> {
  const [row] = await db.select({ lesson: lessons, courseSlug: courses.slug }).from(lessons).innerJoin(courses, eq(courses.id, lessons.courseId)).where(eq(lessons.slug, slug))
  return row
}

export async function lessonsOfCourse(db: Pick<Database, 'select'>, courseId: number): Promise<LessonRow[]> {
  return db.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.number))
}

/** What the course form offers: the pillars, and the catalogue's course products with the course each sells. */
export async function courseChoices(db: Database) {
  const [pillarRows, productRows] = await Promise.all([
    db.select({ slug: pillars.slug, name: pillars.name }).from(pillars).orderBy(asc(pillars.order)),
    db
      .select({ id: products.id, slug: products.slug, name: products.name, active: products.active, course: courses.slug })
      .from(products)
      .leftJoin(courses, eq(courses.productId, products.id))
      .where(eq(products.productType, 'course'))
      .orderBy(asc(products.sortOrder), asc(products.id)),
  ])
  return { pillars: pillarRows, products: productRows }
}

/**
 * The videos a new lesson may use: the manifest's entries whose `{slug}.mp4` is in the folder,
 * less those a lesson has, and those a new lesson's draft already claims. Pure.
 */
export function unusedVideos(manifest: LessonManifest, present: ReadonlySet<string>, used: ReadonlySet<string>) {
  return Object.entries(manifest)
    .filter(([slug]) => isContentSlug(slug, LESSON_SLUG_MAX) && present.has(slug) && !used.has(slug))
    .map(([slug, media]) => ({ slug, duration_seconds: media.duration_seconds, bytes: media.bytes }))
    .sort((a, b) => a.slug.localeCompare(b.slug))
}

async function hasVideo(directory: string, slug: string): Promise<boolean> {
  const stats = await stat(join(directory, `${slug}.mp4`)).catch(() => undefined)
  return stats?.isFile() ?? false
}

/** The media folder's videos with their manifest entries (a video without one cannot be timed, so it is not offered). */
export async function mediaVideos(directory: string): Promise<{ manifest: LessonManifest; present: Set<string> }> {
  const manifest = await readLessonManifest(directory)
  const slugs = Object.keys(manifest).filter((slug) => isContentSlug(slug, LESSON_SLUG_MAX))
  const found = await Promise.all(slugs.map(async (slug) => ((await hasVideo(directory, slug)) ? slug : null)))
  return { manifest, present: new Set(found.filter((slug): slug is string => slug !== null)) }
}

async function availableVideos(db: Database, directory: string) {
  const [{ manifest, present }, lessonRows, drafts] = await Promise.all([
    mediaVideos(directory),
    db.select({ slug: lessons.slug }).from(lessons),
    db.select({ key: contentDrafts.key }).from(contentDrafts).where(eq(contentDrafts.kind, 'lesson')),
  ])
  return unusedVideos(manifest, present, new Set([...lessonRows.map((row) => row.slug), ...drafts.map((row) => row.key)]))
}

/** A course's lessons with their drafts, the drafts of its new lessons, and the videos still free. */
export async function courseLessonsForAdmin(db: Database, course: CourseRow, directory: string) {
  const [rows, drafts, videos] = await Promise.all([lessonsOfCourse(db, course.id), listDrafts<LessonDraft>(db, 'lesson'), availableVideos(db, directory)])
  const draftOf = new Map(drafts.map((draft) => [draft.key, draft]))
  const slugs = new Set(rows.map((row) => row.slug))
  const existing = drafts.length === 0 ? [] : await db.select({ slug: lessons.slug }).from(lessons).where(inArray(lessons.slug, drafts.map((draft) => draft.key)))
  const published = new Set(existing.map((row) => row.slug))
  return {
    course: { slug: course.slug, title: course.title },
    results: rows.map((row) => ({ ...serializeAdminLesson(row, course.slug), draft: draftOf.has(row.slug) ? { updated_at: draftOf.get(row.slug)!.updatedAt.toISOString() } : null })),
    new_drafts: drafts
      .filter((draft) => !slugs.has(draft.key) && !published.has(draft.key) && draft.body.course === course.slug)
      .map((draft) => ({ key: draft.key, title: draft.body.title, number: draft.body.number ?? null, updated_at: draft.updatedAt.toISOString() })),
    videos,
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * A new item's draft, from the new-item form: refused when an item already has the key (the new
 * form never writes over a published course or lesson; at publishing the item's row lock and its
 * unique slug decide again). Two admins starting the same new item: the later save wins, as for
 * any draft (decision 0064).
 */
export async function startDraft(db: Writer, kind: Extract<ContentKind, 'course' | 'lesson'>, key: string, body: Record<string, unknown>, userId: number, now: number) {
  const taken = kind === 'course' ? await db.select({ id: courses.id }).from(courses).where(eq(courses.slug, key)) : await db.select({ id: lessons.id }).from(lessons).where(eq(lessons.slug, key))
  if (taken.length > 0) throw existsError(kind)
  return saveDraft(db, kind, key, body, userId, now)
}

const existsError = (kind: 'course' | 'lesson') => (kind === 'course' ? fieldError('slug', COURSE_EXISTS) : fieldError('video', LESSON_EXISTS))

/** Takes the item's draft under the transaction's lock: two publishes of one item run one after the other. */
const lockDraft = (tx: Writer, kind: ContentKind, key: string) =>
  tx
    .select({ key: contentDrafts.key })
    .from(contentDrafts)
    .where(and(eq(contentDrafts.kind, kind), eq(contentDrafts.key, key)))
    .for('update')

/**
 * Publishes a course's form (already saved as its draft): every language, a pillar, a course
 * product or none; then the row, the draft's removal and the audit entry, in one transaction.
 */
export async function publishCourse(db: Database, caller: Caller, slug: string, body: CourseDraft, options: { create: boolean; now: number }): Promise<{ row: CourseRow; created: boolean }> {
  const { now } = options
  try {
    return await db.transaction(async (tx) => {
      await lockDraft(tx, 'course', slug)
      const [before] = await tx.select().from(courses).where(eq(courses.slug, slug)).for('update')
      if (before && options.create) throw existsError('course')
      const errors = languageErrors({ title: body.title, description: body.description })
      if (!body.pillar) errors.pillar = [REQUIRED]
      else if ((await tx.select({ id: pillars.id }).from(pillars).where(eq(pillars.slug, body.pillar))).length === 0) errors.pillar = [NO_SUCH_PILLAR]
      if (body.product_id !== null) {
        const [product] = await tx.select({ type: products.productType }).from(products).where(eq(products.id, body.product_id))
        if (product?.type !== 'course') errors.product_id = [NOT_A_COURSE_PRODUCT]
      }
      throwIfAny(errors)
      const values = {
        title: body.title as LocalizedText,
        description: body.description as LocalizedText,
        pillarSlug: body.pillar,
        sortOrder: body.sort_order,
        active: body.active,
        productId: body.product_id,
      }
      const [row] = before
        ? await tx.update(courses).set(values).where(eq(courses.id, before.id)).returning()
        : await tx.insert(courses).values({ slug, ...values }).returning()
      await discardDraft(tx, 'course', slug)
      await recordAudit(tx, {
        ...actorOf(caller),
        action: before ? 'course.publish' : 'course.create',
        targetType: 'course',
        targetId: slug,
        ...changedFields(before ? courseBody(before) : {}, courseBody(row!)),
        at: now,
      })
      return { row: row!, created: !before }
    })
  } catch (error) {
    if (isUniqueViolation(error, 'courses_product_unique')) throw fieldError('product_id', PRODUCT_TAKEN)
    if (isUniqueViolation(error, 'courses_slug_unique')) throw fieldError('slug', COURSE_EXISTS)
    throw error
  }
}

/**
 * Publishes a lesson's form (already saved as its draft): every language and a number; a new
 * lesson's length, size and caption cues come from the media folder's manifest, as the seed's do.
 * A number another lesson of the course has is refused by the unique index, on `number`.
 */
export async function publishLesson(
  db: Database,
  caller: Caller,
  slug: string,
  body: LessonDraft,
  options: { lessonsDir: string; create: boolean; now: number },
): Promise<{ row: LessonRow; courseSlug: string; created: boolean }> {
  const media = await mediaVideos(options.lessonsDir)
  try {
    return await db.transaction(async (tx) => {
      await lockDraft(tx, 'lesson', slug)
      const [before] = await tx.select().from(lessons).where(eq(lessons.slug, slug)).for('update')
      if (before && options.create) throw existsError('lesson')
      const errors = languageErrors({ title: body.title, summary: body.summary })
      if (body.number === null) errors.number = [REQUIRED]
      const courseRow = before ? (await tx.select().from(courses).where(eq(courses.id, before.courseId)))[0] : await courseBySlug(tx, body.course)
      if (!courseRow) errors.course = [NO_SUCH_COURSE]
      const video = media.present.has(slug) ? media.manifest[slug] : undefined
      if (!before && !video) errors.video = [NO_SUCH_VIDEO]
      throwIfAny(errors)
      const values = { title: body.title as LocalizedText, summary: body.summary as LocalizedText, number: body.number!, free: body.free }
      const [row] = before
        ? await tx.update(lessons).set(values).where(eq(lessons.id, before.id)).returning()
        : await tx
            .insert(lessons)
            .values({ slug, courseId: courseRow!.id, ...values, durationMs: Math.round(video!.duration_seconds * 1000), videoBytes: video!.bytes, cues: video!.cues })
            .returning()
      await discardDraft(tx, 'lesson', slug)
      await recordAudit(tx, {
        ...actorOf(caller),
        action: before ? 'lesson.publish' : 'lesson.create',
        targetType: 'lesson',
        targetId: slug,
        ...changedFields(before ? lessonBody(before, courseRow!.slug) : {}, lessonBody(row!, courseRow!.slug)),
        at: options.now,
      })
      return { row: row!, courseSlug: courseRow!.slug, created: !before }
    })
  } catch (error) {
    if (isUniqueViolation(error, 'lessons_course_number_unique')) throw fieldError('number', NUMBER_TAKEN)
    if (isUniqueViolation(error, 'lessons_slug_unique')) throw fieldError('video', LESSON_EXISTS)
    throw error
  }
}

/** Discards an item's draft, recorded in the audit log (decision 0064); false when there was none. */
export async function discardWithAudit(db: Database, caller: Caller, kind: Extract<ContentKind, 'course' | 'lesson'>, key: string, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const draft = await readDraft(tx, kind, key)
    if (!draft || !(await discardDraft(tx, kind, key))) return false
    await recordAudit(tx, { ...actorOf(caller), action: `${kind}.discard`, targetType: kind, targetId: key, before: draft.body, after: null, at: now })
    return true
  })
}

import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { type LocalizedText, SLUG_PATTERN, createdAt, instant, localizedTextCheck } from '#server/db/schema/columns.ts'
import { products } from '#server/db/schema/commerce.ts'
import { pillars } from '#server/db/schema/content.ts'

/** One caption cue of a lesson's narration: seconds from the start, and its text. */
export type LessonCue = { start: number; end: number; text: string }
/** A lesson's captions in each language, the same cues' timings (its WebVTT files hold the same). */
export type LessonCues = { pt: LessonCue[]; en: LessonCue[]; es: LessonCue[] }

/**
 * Courses (issue 25, decision 0057): a pillar's video lessons. A course with a product is sold in
 * the catalogue (the product's grant, a program or a live plan opens it); without one it is free.
 */
export const courses = pgTable(
  'courses',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 80 }).notNull().unique(),
    pillarSlug: varchar('pillar_slug', { length: 50 })
      .notNull()
      .references(() => pillars.slug),
    productId: integer('product_id').references(() => products.id),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('courses_product_unique').on(table.productId).where(sql`${table.productId} is not null`),
    index('courses_listing_idx').on(table.pillarSlug, table.sortOrder, table.id).where(sql`${table.active}`),
    check('courses_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('courses_title_check', localizedTextCheck(table.title, 120)),
    check('courses_description_check', localizedTextCheck(table.description, 2000)),
    check('courses_sort_order_check', sql`${table.sortOrder} between 0 and 1000000`),
  ],
)

/** A course's lesson: its number in the course, its video's length and size, its captions' cues. */
export const lessons = pgTable(
  'lessons',
  {
    id: serial('id').primaryKey(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    // Also the name of its files in the media folder: {slug}.mp4, {slug}.jpg, {slug}.{lang}.vtt.
    slug: varchar('slug', { length: 120 }).notNull().unique(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    summary: jsonb('summary').$type<LocalizedText>().notNull(),
    // A preview anyone signed in may watch, also in a paid course.
    free: boolean('free').notNull().default(false),
    durationMs: integer('duration_ms').notNull(),
    videoBytes: integer('video_bytes').notNull(),
    cues: jsonb('cues').$type<LessonCues>().notNull(),
  },
  (table) => [
    uniqueIndex('lessons_course_number_unique').on(table.courseId, table.number),
    check('lessons_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('lessons_number_check', sql`${table.number} between 1 and 200`),
    check('lessons_duration_check', sql`${table.durationMs} between 1000 and 14400000`),
    check('lessons_video_bytes_check', sql`${table.videoBytes} > 0`),
    check('lessons_title_check', localizedTextCheck(table.title, 120)),
    check('lessons_summary_check', localizedTextCheck(table.summary, 2000)),
  ],
)

/**
 * A user's progress in a lesson (decision 0057): where they stopped, how much they actually played
 * (credited at most twice the wall time between reports), when it was done, and the last report's
 * time (one report per user and lesson every few seconds, decided under the row's lock).
 */
export const lessonProgress = pgTable(
  'lesson_progress',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lessonId: integer('lesson_id')
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    positionMs: integer('position_ms').notNull().default(0),
    watchedMs: integer('watched_ms').notNull().default(0),
    completedAt: instant('completed_at'),
    reportedAt: instant('reported_at'),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'lesson_progress_pk', columns: [table.userId, table.lessonId] }),
    index('lesson_progress_lesson_idx').on(table.lessonId),
    check('lesson_progress_position_check', sql`${table.positionMs} between 0 and 14400000`),
    check('lesson_progress_watched_check', sql`${table.watchedMs} between 0 and 14400000`),
  ],
)

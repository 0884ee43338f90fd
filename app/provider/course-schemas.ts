import { z } from 'zod'
import { localized, positiveCents } from './product-schemas.ts'
import { paginated } from './schemas.ts'

/**
 * Courses and video lessons as the provider answers them (docs/decisions/0057-courses-and-lessons.md,
 * "API"). Unknown extra fields are ignored; a missing or mistyped one fails the answer's check.
 */

const id = z.number().int().positive()
const seconds = z.number().finite().nonnegative()

/** How the user may watch a course; null when it is locked to them. */
const COURSE_ACCESS = ['free', 'owned', 'program', 'subscription', 'staff'] as const

const courseProgressSchema = z.object({
  completed_lessons: z.number().int().nonnegative(),
  total_lessons: z.number().int().nonnegative(),
  percent: z.number().min(0).max(100),
  started: z.boolean(),
  /** The first unfinished lesson ("Continue"), null when every lesson is done. */
  next_lesson_id: id.nullable(),
  next_position_seconds: seconds.nullable().optional().transform((value) => value ?? 0),
})

export const courseSchema = z.object({
  id,
  slug: z.string(),
  pillar: z.string(),
  pillar_id: z.number().int().nullable().optional(),
  title: localized,
  description: localized,
  /** Null when the course is free; else the catalogue product that sells it. */
  product: z.object({ id, price_cents: positiveCents, currency: z.literal('BRL') }).nullable(),
  lessons_count: z.number().int().nonnegative(),
  duration_seconds: seconds,
  poster_url: z.string().nullable().optional().transform((value) => value ?? null),
  access: z.enum(COURSE_ACCESS).nullable(),
  progress: courseProgressSchema,
})
export type Course = z.infer<typeof courseSchema>

export const coursePageSchema = paginated(courseSchema)

/** A lesson's progress for the user; a lesson never opened may come as null (read as nothing done). */
export const lessonProgressSchema = z.object({
  position_seconds: seconds,
  watched_seconds: seconds,
  completed: z.boolean(),
  completed_at: z.string().nullable(),
})
type LessonProgress = z.infer<typeof lessonProgressSchema>
const NO_PROGRESS: LessonProgress = { position_seconds: 0, watched_seconds: 0, completed: false, completed_at: null }

const lessonSchema = z.object({
  id,
  course_id: id,
  number: z.number().int().positive(),
  slug: z.string(),
  title: localized,
  summary: localized,
  duration_seconds: seconds,
  free: z.boolean(),
  locked: z.boolean(),
  poster_url: z.string().nullable().optional().transform((value) => value ?? null),
  progress: lessonProgressSchema.nullable().transform((value) => value ?? NO_PROGRESS),
})
export type Lesson = z.infer<typeof lessonSchema>

export const lessonListSchema = z.array(lessonSchema)

export const lessonDetailSchema = lessonSchema.extend({
  course: courseSchema,
  previous_id: id.nullable(),
  next_id: id.nullable(),
  /** A signed URL (a few hours); null when the lesson is locked. */
  video: z.object({ url: z.string(), type: z.string(), bytes: z.number().int().nonnegative(), expires_at: z.union([z.string(), z.number()]) }).nullable(),
  captions: z.array(z.object({ lang: z.string(), url: z.string() })),
  transcript: z.array(z.object({ start: seconds, end: seconds, text: z.string() })),
  lock: z.object({ reason: z.string(), product_id: id.nullable() }).nullable(),
})
export type LessonDetail = z.infer<typeof lessonDetailSchema>

/** The pillars that have courses, in the pillars' order. */
export const coursePillarListSchema = z.array(
  z.object({
    pillar: z.string(),
    pillar_id: z.number().int().nullable().optional(),
    name: localized,
    courses_count: z.number().int().nonnegative(),
  }),
)
export type CoursePillar = z.infer<typeof coursePillarListSchema>[number]

import { z } from 'zod'
import { contentIntentField, languagesBeforePublishing, localizedDraftField, SORT_ORDER_MAX } from './localized-text.ts'

/**
 * The admin content editor's course and lesson forms (decisions 0064 and 0066): drafts may leave a
 * language empty; publishing needs every language, a course's pillar and a lesson's number. Used
 * by the server and, deferred, the browser (forms/form-validation.ts).
 */

const COURSE_TITLE_MAX = 120
const COURSE_TEXT_MAX = 2000
const COURSE_SLUG_MAX = 80
const LESSON_SLUG_MAX = 120
const LESSON_NUMBER_MAX = 200
/** The tables' slug rule (server/db/schema.ts SLUG_PATTERN). */
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/
/** Addresses the editor's own pages take: /admin/courses/new is the new-course form. */
const RESERVED_SLUGS = ['new']

const courseFields = {
  intent: contentIntentField(),
  title: localizedDraftField(COURSE_TITLE_MAX),
  description: localizedDraftField(COURSE_TEXT_MAX),
  pillar: z.string().trim().max(50, { error: 'validation.tooLong' }).default(''),
  sort_order: z
    .number({ error: 'admin-courses:validation.sortOrder' })
    .int({ error: 'admin-courses:validation.sortOrder' })
    .min(0, { error: 'admin-courses:validation.sortOrder' })
    .max(SORT_ORDER_MAX, { error: 'admin-courses:validation.sortOrder' })
    .default(0),
  active: z.boolean().default(false),
  product_id: z.number({ error: 'admin-courses:validation.product' }).int().positive({ error: 'admin-courses:validation.product' }).optional(),
}

type CourseValue = { intent: 'save' | 'publish'; title: unknown; description: unknown; pillar: string }
const courseChecks = (value: CourseValue, context: z.RefinementCtx) => {
  languagesBeforePublishing<CourseValue>(['title', 'description'])(value, context)
  if (value.intent === 'publish' && !value.pillar) context.addIssue({ code: 'custom', path: ['pillar'], message: 'admin-courses:validation.pillar' })
}

/** A course's form: its texts, pillar, place in the list, whether members see it, and the product that sells it (none: free). */
export const courseContentSchema = z.object(courseFields).superRefine(courseChecks)

/** A new course's form: the same, and its address (slug) chosen first. */
export const newCourseSchema = z
  .object({
    ...courseFields,
    slug: z
      .string({ error: 'admin-courses:validation.slug' })
      .trim()
      .max(COURSE_SLUG_MAX, { error: 'admin-courses:validation.slug' })
      .regex(SLUG, { error: 'admin-courses:validation.slug' })
      .refine((slug) => !RESERVED_SLUGS.includes(slug), { error: 'admin-courses:validation.slug' }),
  })
  .superRefine(courseChecks)

const lessonFields = {
  intent: contentIntentField(),
  title: localizedDraftField(COURSE_TITLE_MAX),
  summary: localizedDraftField(COURSE_TEXT_MAX),
  number: z
    .number({ error: 'admin-courses:validation.number' })
    .int({ error: 'admin-courses:validation.number' })
    .min(1, { error: 'admin-courses:validation.number' })
    .max(LESSON_NUMBER_MAX, { error: 'admin-courses:validation.number' })
    .optional(),
  free: z.boolean().default(false),
}

type LessonValue = { intent: 'save' | 'publish'; title: unknown; summary: unknown; number?: number }
const lessonChecks = (value: LessonValue, context: z.RefinementCtx) => {
  languagesBeforePublishing<LessonValue>(['title', 'summary'])(value, context)
  if (value.intent === 'publish' && value.number === undefined) context.addIssue({ code: 'custom', path: ['number'], message: 'admin-courses:validation.number' })
}

/** A lesson's form: its texts, its number in the course (1-200, one per lesson) and whether it is a free preview. */
export const lessonContentSchema = z.object(lessonFields).superRefine(lessonChecks)

/** A new lesson's form: the same, and the video it shows (one of the media folder's that no lesson uses). */
export const newLessonSchema = z
  .object({
    ...lessonFields,
    video: z
      .string({ error: 'admin-courses:validation.video' })
      .trim()
      .max(LESSON_SLUG_MAX, { error: 'admin-courses:validation.video' })
      .regex(SLUG, { error: 'admin-courses:validation.video' }),
  })
  .superRefine(lessonChecks)

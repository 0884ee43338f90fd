import { z } from 'zod'

/**
 * The admin content editor's courses and lessons as the provider answers them
 * (`/admin/content/courses/`, `/admin/content/lessons/`; decisions 0064 and 0066). A draft's
 * languages may be empty; a published item's never are.
 */

const id = z.number().int().positive()
const text = z.object({ pt: z.string(), en: z.string(), es: z.string() })
/** A draft's text as saved: a language may be missing in an older draft (read as empty). */
const draftText = z
  .object({ pt: z.string().optional(), en: z.string().optional(), es: z.string().optional() })
  .optional()
  .transform((value) => ({ pt: value?.pt ?? '', en: value?.en ?? '', es: value?.es ?? '' }))
const draftMark = z.object({ updated_at: z.string() }).nullable()

const courseFields = {
  title: text,
  description: text,
  pillar: z.string(),
  sort_order: z.number().int(),
  active: z.boolean(),
  product_id: id.nullable(),
}

export const adminCourseSchema = z.object({ id, slug: z.string(), ...courseFields, lessons_count: z.number().int().nonnegative() })
export type AdminCourse = z.infer<typeof adminCourseSchema>

export const courseDraftSchema = z.object({
  title: draftText,
  description: draftText,
  pillar: z.string().catch(''),
  sort_order: z.number().int().nullable().catch(null),
  active: z.boolean().catch(true),
  product_id: id.nullable().catch(null),
  updated_at: z.string(),
})
export type CourseDraft = z.infer<typeof courseDraftSchema>

const courseChoicesSchema = z.object({
  pillars: z.array(z.object({ slug: z.string(), name: text })),
  products: z.array(z.object({ id, slug: z.string(), name: text, active: z.boolean(), course: z.string().nullable() })),
})
export type CourseChoices = z.infer<typeof courseChoicesSchema>

export const adminCourseListSchema = z.object({
  results: z.array(adminCourseSchema.extend({ draft: draftMark })),
  new_drafts: z.array(z.object({ key: z.string(), title: draftText, updated_at: z.string() })),
  choices: courseChoicesSchema,
})

export const adminCourseDetailSchema = z.object({ published: adminCourseSchema.nullable(), draft: courseDraftSchema.nullable(), choices: courseChoicesSchema })

export const adminLessonSchema = z.object({
  id,
  slug: z.string(),
  course: z.string(),
  title: text,
  summary: text,
  number: z.number().int(),
  free: z.boolean(),
  duration_seconds: z.number().nonnegative(),
  video_bytes: z.number().int().nonnegative(),
})
export type AdminLesson = z.infer<typeof adminLessonSchema>

export const lessonDraftSchema = z.object({
  course: z.string(),
  title: draftText,
  summary: draftText,
  number: z.number().int().nullable().catch(null),
  free: z.boolean().catch(false),
  updated_at: z.string(),
})
export type LessonDraft = z.infer<typeof lessonDraftSchema>

const videoSchema = z.object({ slug: z.string(), duration_seconds: z.number().nonnegative(), bytes: z.number().int().nonnegative() })
export type Video = z.infer<typeof videoSchema>

export const adminLessonListSchema = z.object({
  course: z.object({ slug: z.string(), title: text }),
  results: z.array(adminLessonSchema.extend({ draft: draftMark })),
  new_drafts: z.array(z.object({ key: z.string(), title: draftText, number: z.number().int().nullable(), updated_at: z.string() })),
  videos: z.array(videoSchema),
})

export const adminLessonDetailSchema = z.object({ published: adminLessonSchema.nullable(), draft: lessonDraftSchema.nullable() })

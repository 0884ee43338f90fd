import { type SignedInCaller } from './fetch.server.ts'
import {
  adminCourseDetailSchema,
  adminCourseListSchema,
  adminCourseSchema,
  adminLessonDetailSchema,
  adminLessonListSchema,
  adminLessonSchema,
  courseDraftSchema,
  lessonDraftSchema,
} from './admin-content-course-schemas.ts'

/**
 * The admin content editor's calls for courses and lessons (decisions 0064 and 0066). A form is
 * sent as typed; `create` marks a new item's first save or publish (never replacing another's draft).
 */

type LocalizedForm = { pt: string; en: string; es: string }
export type CourseForm = { title: LocalizedForm; description: LocalizedForm; pillar: string; sort_order: number; active: boolean; product_id: number | null; create?: boolean }
export type LessonForm = { course: string; title: LocalizedForm; summary: LocalizedForm; number: number | null; free: boolean; create?: boolean }

const key = (slug: string) => encodeURIComponent(slug)

export const listAdminCourses = (auth: SignedInCaller) => auth.call('/admin/content/courses/', adminCourseListSchema)
export const getAdminCourse = (auth: SignedInCaller, slug: string) => auth.call(`/admin/content/courses/${key(slug)}/`, adminCourseDetailSchema)
export const saveCourseDraft = (auth: SignedInCaller, slug: string, form: CourseForm) =>
  auth.call(`/admin/content/courses/${key(slug)}/draft/`, courseDraftSchema, { method: 'PUT', json: form })
export const discardCourseDraft = (auth: SignedInCaller, slug: string) => auth.send(`/admin/content/courses/${key(slug)}/draft/`, { method: 'DELETE' })
export const publishCourse = (auth: SignedInCaller, slug: string, form: CourseForm) =>
  auth.call(`/admin/content/courses/${key(slug)}/publish/`, adminCourseSchema, { method: 'POST', json: form })

export const listAdminLessons = (auth: SignedInCaller, course: string) => auth.call('/admin/content/lessons/', adminLessonListSchema, { query: { course } })
export const getAdminLesson = (auth: SignedInCaller, slug: string) => auth.call(`/admin/content/lessons/${key(slug)}/`, adminLessonDetailSchema)
export const saveLessonDraft = (auth: SignedInCaller, slug: string, form: LessonForm) =>
  auth.call(`/admin/content/lessons/${key(slug)}/draft/`, lessonDraftSchema, { method: 'PUT', json: form })
export const discardLessonDraft = (auth: SignedInCaller, slug: string) => auth.send(`/admin/content/lessons/${key(slug)}/draft/`, { method: 'DELETE' })
export const publishLesson = (auth: SignedInCaller, slug: string, form: LessonForm) =>
  auth.call(`/admin/content/lessons/${key(slug)}/publish/`, adminLessonSchema, { method: 'POST', json: form })

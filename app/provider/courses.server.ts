import { type PillarSlug } from '#app/domain/pillars.ts'
import { type Language } from '#app/i18n/config.ts'
import { type SignedInCaller } from './fetch.server.ts'
import { coursePageSchema, coursePillarListSchema, courseSchema, lessonDetailSchema, lessonListSchema, lessonProgressSchema } from './course-schemas.ts'

/** Courses and video lessons (docs/decisions/0057-courses-and-lessons.md): every call is the signed-in user's. */

/** The pillars that have courses, with their names and how many. */
export const listCoursePillars = (auth: SignedInCaller) => auth.call('/videos/courses/pillars/', coursePillarListSchema)

/** Every course (a few: one page holds them), of one pillar or all; `mine`: those the user has or started. */
export const listCourses = (auth: SignedInCaller, { pillar, mine }: { pillar?: PillarSlug; mine?: boolean } = {}) =>
  auth.call('/videos/courses/', coursePageSchema, { query: { pillar, mine: mine ? 'true' : undefined, page_size: 100 } })

export const getCourse = (auth: SignedInCaller, id: number) => auth.call(`/videos/courses/${id}/`, courseSchema)

/** A course's lessons in order (not paged). */
export const listLessons = (auth: SignedInCaller, courseId: number) => auth.call('/videos/lessons/', lessonListSchema, { query: { course: courseId } })

/** One lesson with its course, neighbours, signed video and captions, and the transcript in `language`. */
export const getLesson = (auth: SignedInCaller, id: number, language: Language) => auth.call(`/videos/lessons/${id}/`, lessonDetailSchema, { query: { lang: language } })

type ProgressReport = { position_seconds: number; watched_seconds: number }

/** What the player played since its last report; answers the lesson's progress (403 locked, 429 too soon). */
export const reportLessonProgress = (auth: SignedInCaller, id: number, report: ProgressReport) =>
  auth.call(`/videos/lessons/${id}/progress/`, lessonProgressSchema, { method: 'POST', json: report })

/** "Mark as done": the lesson's progress, completed (again the same when it already was). */
export const completeLesson = (auth: SignedInCaller, id: number) => auth.call(`/videos/lessons/${id}/complete/`, lessonProgressSchema, { method: 'POST' })

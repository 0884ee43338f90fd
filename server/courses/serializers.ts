import type { LessonCue } from '#server/db/schema.ts'
import type { AccessReason } from '#server/courses/access.ts'
import { courseProgress, type Progress } from '#server/courses/progress.ts'
import type { CourseView, LessonRow, ProgressRow } from '#server/courses/repository.ts'

/** The answers of the Videos calls (docs/product.md §3, decision 0057). Times in seconds, one decimal. */

export type Language = 'pt' | 'en' | 'es'
export const LANGUAGES: readonly Language[] = ['pt', 'en', 'es']

const seconds = (ms: number) => Math.round(ms / 100) / 10

/** Where the media files are: the provider's public address, or MEDIA_BASE_URL's. */
export type MediaLinks = {
  /** A poster's public address. */
  poster: (lessonSlug: string) => string
  /** A signed, expiring address of a lesson's file (`{slug}.mp4`, `{slug}.pt.vtt`…), and when it ends. */
  signed: (file: string) => { url: string; expiresAt: number }
}

const asProgress = (row: ProgressRow | undefined): Progress | undefined => row

export function serializeCourse(view: CourseView, lessons: readonly LessonRow[], progress: ReadonlyMap<number, ProgressRow>, access: AccessReason | null, media: MediaLinks) {
  const { course, pillarId, product } = view
  const summary = courseProgress(lessons, (id) => asProgress(progress.get(id)))
  const first = lessons[0]
  return {
    id: course.id,
    slug: course.slug,
    pillar: course.pillarSlug,
    pillar_id: pillarId,
    title: course.title,
    description: course.description,
    product: product && { id: product.id, price_cents: product.priceCents, currency: 'BRL' },
    lessons_count: lessons.length,
    duration_seconds: seconds(lessons.reduce((total, lesson) => total + lesson.durationMs, 0)),
    poster_url: first ? media.poster(first.slug) : null,
    access,
    progress: {
      completed_lessons: summary.completedLessons,
      total_lessons: summary.totalLessons,
      percent: summary.percent,
      started: summary.started,
      next_lesson_id: summary.next?.lessonId ?? null,
      next_position_seconds: summary.next ? seconds(summary.next.positionMs) : null,
    },
  }
}

export function serializeProgress(row: ProgressRow | undefined) {
  return {
    position_seconds: seconds(row?.positionMs ?? 0),
    watched_seconds: seconds(row?.watchedMs ?? 0),
    completed: Boolean(row?.completedAt),
    completed_at: row?.completedAt?.toISOString() ?? null,
  }
}

export function serializeLesson(lesson: LessonRow, plays: boolean, progress: ProgressRow | undefined, media: MediaLinks) {
  return {
    id: lesson.id,
    course_id: lesson.courseId,
    number: lesson.number,
    slug: lesson.slug,
    title: lesson.title,
    summary: lesson.summary,
    duration_seconds: seconds(lesson.durationMs),
    free: lesson.free,
    locked: !plays,
    poster_url: media.poster(lesson.slug),
    progress: serializeProgress(progress),
  }
}

/** One lesson's page: the lesson, its course, its neighbours, and its media only when it plays. */
export function serializeLessonDetail(
  lesson: LessonRow,
  context: { course: ReturnType<typeof serializeCourse>; siblings: readonly LessonRow[]; plays: boolean; progress: ProgressRow | undefined; lang: Language; media: MediaLinks },
) {
  const { course, siblings, plays, progress, lang, media } = context
  const index = siblings.findIndex((sibling) => sibling.id === lesson.id)
  const video = plays ? media.signed(`${lesson.slug}.mp4`) : null
  return {
    ...serializeLesson(lesson, plays, progress, media),
    course,
    previous_id: siblings[index - 1]?.id ?? null,
    next_id: siblings[index + 1]?.id ?? null,
    video: video && { url: video.url, type: 'video/mp4', bytes: lesson.videoBytes, expires_at: new Date(video.expiresAt).toISOString() },
    captions: plays ? LANGUAGES.map((language) => ({ lang: language, url: media.signed(`${lesson.slug}.${language}.vtt`).url })) : [],
    transcript: plays ? lesson.cues[lang].map(({ start, end, text }: LessonCue) => ({ start, end, text })) : [],
    lock: plays ? null : { reason: 'purchase' as const, product_id: course.product?.id ?? null },
  }
}

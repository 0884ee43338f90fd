/**
 * The progress rules of a lesson and a course (docs/product.md §7, decision 0057). Pure: times are
 * milliseconds, `now` is given.
 */

/** At most one report per user and lesson in this long. */
export const REPORT_INTERVAL_MS = 3_000
/** What a report may claim as played since the previous one. */
export const MAX_REPORTED_WATCH_MS = 60_000
/** What a first report (no earlier one to measure from) is credited at most. */
const FIRST_REPORT_CREDIT_MS = 10_000
/** The fastest the player plays (2×), and the slack for the network between two reports. */
const PLAYBACK_RATE_LIMIT = 2
const REPORT_SLACK_MS = 2_000
/** The share of a lesson played that makes it done. */
const DONE_SHARE = 0.8
/** Closer than this to the end, "continue" starts the lesson again. */
const RESTART_WITHIN_MS = 5_000

export type Progress = { positionMs: number; watchedMs: number; completedAt: Date | null; reportedAt: Date | null }

/** Whether a report now comes too soon after the previous one. */
export function reportTooSoon(reportedAt: Date | null, now: number): boolean {
  return reportedAt !== null && now - reportedAt.getTime() < REPORT_INTERVAL_MS
}

/** The played time a report is credited: what it claims, at most what the clock allows. */
export function creditedWatchMs(claimedMs: number, reportedAt: Date | null, now: number): number {
  const allowed = reportedAt === null ? FIRST_REPORT_CREDIT_MS : Math.max(0, now - reportedAt.getTime()) * PLAYBACK_RATE_LIMIT + REPORT_SLACK_MS
  return Math.max(0, Math.min(claimedMs, allowed, MAX_REPORTED_WATCH_MS))
}

/** A report applied to the stored progress (or none yet): position, the played time summed, done once enough was played. */
export function applyReport(previous: Progress | undefined, report: { positionMs: number; watchedMs: number }, durationMs: number, now: number): Progress {
  const reportedAt = previous?.reportedAt ?? null
  const watchedMs = Math.min(durationMs, (previous?.watchedMs ?? 0) + creditedWatchMs(report.watchedMs, reportedAt, now))
  const positionMs = Math.max(0, Math.min(durationMs, Math.round(report.positionMs)))
  const completedAt = previous?.completedAt ?? (watchedMs >= durationMs * DONE_SHARE ? new Date(now) : null)
  return { positionMs, watchedMs: Math.round(watchedMs), completedAt, reportedAt: new Date(now) }
}

/** Where a lesson starts again: its position, or the beginning once done at the end or nearly. */
export function resumePositionMs(progress: Pick<Progress, 'positionMs'> | undefined, durationMs: number): number {
  if (!progress) return 0
  return durationMs - progress.positionMs < RESTART_WITHIN_MS ? 0 : progress.positionMs
}

type CourseProgress = {
  completedLessons: number
  totalLessons: number
  percent: number
  started: boolean
  /** The first unfinished lesson, and where to start it; null when every lesson is done. */
  next: { lessonId: number; positionMs: number } | null
}

/** A course's progress from its lessons in order and the user's progress in each. */
export function courseProgress(lessons: readonly { id: number; durationMs: number }[], progressOf: (lessonId: number) => Progress | undefined): CourseProgress {
  let completedLessons = 0
  let started = false
  let next: CourseProgress['next'] = null
  for (const lesson of lessons) {
    const progress = progressOf(lesson.id)
    if (progress) started = true
    if (progress?.completedAt) completedLessons += 1
    else if (next === null) next = { lessonId: lesson.id, positionMs: resumePositionMs(progress, lesson.durationMs) }
  }
  const totalLessons = lessons.length
  return { completedLessons, totalLessons, percent: totalLessons === 0 ? 0 : Math.round((completedLessons / totalLessons) * 100), started, next }
}

import { describe, expect, it } from 'vitest'
import { applyReport, courseProgress, creditedWatchMs, reportTooSoon, resumePositionMs, type Progress } from '#server/courses/progress.ts'

const at = (iso: string) => new Date(iso)
const t0 = at('2026-11-27T12:00:00Z').getTime()

describe('lesson progress', () => {
  it('refuses a report within 3 s of the previous one', () => {
    expect(reportTooSoon(null, t0)).toBe(false)
    expect(reportTooSoon(new Date(t0 - 2_999), t0)).toBe(true)
    expect(reportTooSoon(new Date(t0 - 3_000), t0)).toBe(false)
  })

  it('credits at most twice the time since the previous report plus 2 s, 10 s for a first one, 60 s ever', () => {
    expect(creditedWatchMs(5_000, new Date(t0 - 5_000), t0)).toBe(5_000)
    expect(creditedWatchMs(30_000, new Date(t0 - 5_000), t0)).toBe(12_000)
    expect(creditedWatchMs(30_000, null, t0)).toBe(10_000)
    expect(creditedWatchMs(600_000, new Date(t0 - 3_600_000), t0)).toBe(60_000)
    expect(creditedWatchMs(-5, null, t0)).toBe(0)
  })

  it('sums played time, keeps the position inside the video, and is done once 80 % was played, for good', () => {
    const duration = 30_000
    let progress: Progress | undefined
    let now = t0
    for (let i = 0; i < 4; i += 1) {
      now += 5_000
      progress = applyReport(progress, { positionMs: (i + 1) * 5_000, watchedMs: 5_000 }, duration, now)
    }
    expect(progress).toMatchObject({ watchedMs: 20_000, positionMs: 20_000, completedAt: null })
    now += 5_000
    progress = applyReport(progress, { positionMs: 25_000, watchedMs: 5_000 }, duration, now)
    expect(progress.completedAt).toEqual(new Date(now))
    const done = progress.completedAt
    progress = applyReport(progress, { positionMs: 99_000, watchedMs: 5_000 }, duration, now + 5_000)
    expect(progress).toMatchObject({ positionMs: 30_000, watchedMs: 30_000, completedAt: done })
  })

  it('starts a lesson again when it stopped within 5 s of its end', () => {
    expect(resumePositionMs(undefined, 30_000)).toBe(0)
    expect(resumePositionMs({ positionMs: 12_000 }, 30_000)).toBe(12_000)
    expect(resumePositionMs({ positionMs: 26_000 }, 30_000)).toBe(0)
  })

  it("gives a course's completion and the first unfinished lesson with its resume point", () => {
    const lessons = [
      { id: 1, durationMs: 30_000 },
      { id: 2, durationMs: 30_000 },
      { id: 3, durationMs: 30_000 },
    ]
    const stored = new Map<number, Progress>([
      [1, { positionMs: 30_000, watchedMs: 30_000, completedAt: new Date(t0), reportedAt: null }],
      [2, { positionMs: 9_000, watchedMs: 9_000, completedAt: null, reportedAt: null }],
    ])
    expect(courseProgress(lessons, (id) => stored.get(id))).toEqual({ completedLessons: 1, totalLessons: 3, percent: 33, started: true, next: { lessonId: 2, positionMs: 9_000 } })
    expect(courseProgress(lessons, () => undefined)).toMatchObject({ started: false, percent: 0, next: { lessonId: 1, positionMs: 0 } })
    const done = { positionMs: 1, watchedMs: 1, completedAt: new Date(t0), reportedAt: null }
    expect(courseProgress(lessons, () => done)).toMatchObject({ completedLessons: 3, percent: 100, next: null })
  })
})

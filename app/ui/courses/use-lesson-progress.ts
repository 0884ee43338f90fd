import { type RefObject, useEffect, useRef } from 'react'
import { type ProgressReport, type SendOutcome, createProgressReporter } from '#app/domain/lesson-progress.ts'

/** The lesson's resource route (app/routes/aula.$id_.progresso.ts): the lesson page never revalidates for it. */
const progressPath = (lessonId: number) => `/aula/${lessonId}/progresso`

const asForm = (report: ProgressReport) => new URLSearchParams({ position_seconds: String(report.position_seconds), watched_seconds: String(report.watched_seconds) })

/**
 * Reports what the video plays (JavaScript only; decision 0057): its events feed the pure reporter
 * (app/domain/lesson-progress.ts), which sends through `fetch` while the page lives and through a
 * beacon when it goes. `onCompleted` runs once when the provider says the lesson is done.
 */
export function useLessonProgress(video: RefObject<HTMLVideoElement | null>, { lessonId, position, onCompleted }: { lessonId: number; position: number; onCompleted: () => void }) {
  const completed = useRef(onCompleted)
  completed.current = onCompleted

  useEffect(() => {
    const element = video.current
    if (!element) return
    const url = progressPath(lessonId)
    let told = false

    async function send(report: ProgressReport): Promise<SendOutcome> {
      try {
        const response = await fetch(url, { method: 'POST', body: asForm(report), headers: { Accept: 'application/json' } })
        if (response.ok) {
          const body = (await response.json().catch(() => null)) as { progress?: { completed?: boolean } } | null
          if (body?.progress?.completed && !told) {
            told = true
            completed.current()
          }
          return 'sent'
        }
        // Throttled, or the provider away: the seconds go with the next report. Locked, signed out, gone: stop.
        if (response.status === 429 || response.status >= 500) return 'retry'
        return response.status === 400 ? 'sent' : 'stop'
      } catch {
        return 'retry'
      }
    }

    const reporter = createProgressReporter({
      send,
      beacon: (report) => navigator.sendBeacon(url, asForm(report)),
      clock: { now: () => Date.now(), setTimeout: (callback, ms) => window.setTimeout(callback, ms), clearTimeout: (handle) => window.clearTimeout(handle as number) },
      initialPosition: position,
    })
    const on: Record<string, () => void> = {
      play: () => reporter.play(element.currentTime),
      timeupdate: () => reporter.timeUpdate(element.currentTime),
      seeking: () => reporter.seeking(),
      seeked: () => reporter.seeked(element.currentTime),
      pause: () => reporter.pause(element.currentTime),
      ended: () => reporter.ended(element.currentTime),
    }
    for (const [name, handler] of Object.entries(on)) element.addEventListener(name, handler)
    // Played before the page's script ran: counted from here.
    if (!element.paused) reporter.play(element.currentTime)
    const leave = () => reporter.leave()
    window.addEventListener('pagehide', leave)
    return () => {
      for (const [name, handler] of Object.entries(on)) element.removeEventListener(name, handler)
      window.removeEventListener('pagehide', leave)
      // Another lesson, or another page of the site: what was played still counts.
      reporter.leave()
    }
    // The resume point is read once, when the lesson opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lessonId, video])
}

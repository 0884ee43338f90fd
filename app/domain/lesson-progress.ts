/**
 * What a lesson's player reports while it plays (decision 0057, "Progress"): the seconds actually
 * played (a seek is not watching), summed between reports, and the play head as the resume point.
 * At most one report per REPORT_INTERVAL_MS while it plays; a pause or the end sends what is left
 * once that interval has passed since the previous report (the provider refuses reports closer
 * than 3 s with a 429); leaving the page hands what is left to a beacon. Pure: the clock, the
 * request and the beacon come from the caller.
 */

export const REPORT_INTERVAL_MS = 5_000
/** The most seconds one report may claim (the provider's bound: 0-60). */
const MAX_WATCHED_PER_REPORT = 60
/**
 * A step of the play head between two time updates longer than this was not played (a jump the
 * seeking event did not announce). Browsers fire timeupdate every 15-250 ms, so even 2× stays far below.
 */
const MAX_STEP_SECONDS = 3

export type ProgressReport = { position_seconds: number; watched_seconds: number }

/** How a report went: taken; to be sent again later (throttled, network); or no use going on (locked, signed out). */
export type SendOutcome = 'sent' | 'retry' | 'stop'

type Clock = {
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

type ReporterOptions = {
  send(report: ProgressReport): Promise<SendOutcome>
  /** For leaving the page: a request that outlives it (navigator.sendBeacon). */
  beacon(report: ProgressReport): void
  clock: Clock
  /** The resume point the page opened at (a report only for a move of the head from there). */
  initialPosition?: number
}

type ProgressReporter = {
  play(time: number): void
  timeUpdate(time: number): void
  seeking(): void
  seeked(time: number): void
  pause(time: number): void
  ended(time: number): void
  /** The page goes away (or the player is removed): what is left goes by beacon. */
  leave(): void
}

export function createProgressReporter({ send, beacon, clock, initialPosition = 0 }: ReporterOptions): ProgressReporter {
  let playing = false
  /** The head at the previous update while playing; null after a seek or a pause. */
  let lastTime: number | null = null
  let unsent = 0
  let position = initialPosition
  let reportedPosition = initialPosition
  /** When the previous report left, or playing first started: the next may leave REPORT_INTERVAL_MS later. */
  let lastSentAt: number | null = null
  let inFlight = false
  let stopped = false
  let trailing: unknown = null

  const pending = () => !stopped && (Math.floor(unsent) >= 1 || Math.abs(position - reportedPosition) >= 1)
  const due = () => lastSentAt === null || clock.now() - lastSentAt >= REPORT_INTERVAL_MS

  function take(): ProgressReport {
    const watched = Math.min(MAX_WATCHED_PER_REPORT, Math.floor(unsent))
    unsent -= watched
    reportedPosition = position
    lastSentAt = clock.now()
    return { position_seconds: Math.floor(position), watched_seconds: watched }
  }

  function cancelTrailing() {
    if (trailing === null) return
    clock.clearTimeout(trailing)
    trailing = null
  }

  function flush() {
    if (inFlight || !pending()) return
    cancelTrailing()
    inFlight = true
    const report = take()
    void send(report).then(
      (outcome) => settle(report, outcome),
      () => settle(report, 'retry'),
    )
  }

  function settle(report: ProgressReport, outcome: SendOutcome) {
    inFlight = false
    if (outcome === 'stop') {
      stopped = true
      cancelTrailing()
      return
    }
    if (outcome === 'retry') unsent += report.watched_seconds
    if (!playing) scheduleTrailing()
  }

  /** Not playing: what is left leaves once the interval since the previous report has passed. */
  function scheduleTrailing() {
    if (trailing !== null || !pending()) return
    const wait = lastSentAt === null ? 0 : Math.max(0, lastSentAt + REPORT_INTERVAL_MS - clock.now())
    trailing = clock.setTimeout(() => {
      trailing = null
      if (inFlight) return // its settling schedules again
      flush()
    }, wait)
  }

  function advance(time: number) {
    if (playing && lastTime !== null) {
      const step = time - lastTime
      if (step > 0 && step <= MAX_STEP_SECONDS) unsent += step
    }
    position = time
    lastTime = playing ? time : null
  }

  function stop(time: number) {
    advance(time)
    playing = false
    lastTime = null
    scheduleTrailing()
  }

  return {
    play(time) {
      playing = true
      position = time
      lastTime = time
      lastSentAt ??= clock.now()
    },
    timeUpdate(time) {
      advance(time)
      if (playing && due()) flush()
    },
    seeking() {
      lastTime = null
    },
    seeked(time) {
      position = time
      lastTime = playing ? time : null
      if (!playing) scheduleTrailing()
    },
    pause: stop,
    ended: stop,
    leave() {
      cancelTrailing()
      if (pending()) beacon(take())
    },
  }
}

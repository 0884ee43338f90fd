import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type ProgressReport, type SendOutcome, REPORT_INTERVAL_MS, createProgressReporter } from './lesson-progress'

/** A player driven by hand: `playFor(s)` advances the head and the clock together, as a 1× playback does. */
function setup({ outcome = 'sent' as SendOutcome, initialPosition = 0 } = {}) {
  const sent: ProgressReport[] = []
  const beacons: ProgressReport[] = []
  const send = vi.fn(async (report: ProgressReport) => {
    sent.push(report)
    return outcome
  })
  const reporter = createProgressReporter({
    send,
    beacon: (report) => beacons.push(report),
    clock: { now: () => Date.now(), setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
    initialPosition,
  })
  let head = initialPosition
  const playFor = async (seconds: number) => {
    for (let step = 0; step < seconds * 4; step += 1) {
      await vi.advanceTimersByTimeAsync(250)
      head += 0.25
      reporter.timeUpdate(head)
    }
  }
  return { reporter, sent, beacons, send, playFor, at: () => head, jump: (to: number) => (head = to) }
}

describe('lesson progress reports', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => vi.useRealTimers())

  test('while playing, one report per 5 s with the seconds played and the head', async () => {
    const { reporter, sent, playFor } = setup()
    reporter.play(0)
    await playFor(4)
    expect(sent).toEqual([])
    await playFor(8)
    expect(sent).toEqual([
      { position_seconds: 5, watched_seconds: 5 },
      { position_seconds: 10, watched_seconds: 5 },
    ])
  })

  test('a seek is not watching; the jump moves the head only', async () => {
    const { reporter, sent, playFor, jump } = setup()
    reporter.play(0)
    await playFor(2)
    reporter.seeking()
    reporter.timeUpdate(jump(20))
    reporter.seeked(20)
    await playFor(3)
    expect(sent).toEqual([{ position_seconds: 23, watched_seconds: 5 }])
  })

  test('a pause sends what is left once 5 s have passed since the previous report, not before', async () => {
    const { reporter, sent, playFor, at } = setup()
    reporter.play(0)
    await playFor(6) // a report at 5 s
    reporter.pause(at())
    expect(sent).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(REPORT_INTERVAL_MS - 1_000 - 1)
    expect(sent).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(sent.at(-1)).toEqual({ position_seconds: 6, watched_seconds: 1 })
    // Nothing new: nothing more.
    await vi.advanceTimersByTimeAsync(60_000)
    expect(sent).toHaveLength(2)
  })

  test('the end, long after the previous report, goes at once', async () => {
    const { reporter, sent, playFor, at } = setup()
    reporter.play(0)
    await playFor(3)
    await vi.advanceTimersByTimeAsync(10_000) // buffering: no time updates
    reporter.ended(at())
    await vi.advanceTimersByTimeAsync(0)
    expect(sent).toEqual([{ position_seconds: 3, watched_seconds: 3 }])
  })

  test('a throttled report is kept for the next one; a locked lesson stops reporting', async () => {
    const throttled = setup({ outcome: 'retry' })
    throttled.reporter.play(0)
    await throttled.playFor(11)
    expect(throttled.sent.map((report) => report.watched_seconds)).toEqual([5, 10])

    const locked = setup({ outcome: 'stop' })
    locked.reporter.play(0)
    await locked.playFor(11)
    locked.reporter.pause(locked.at())
    await vi.advanceTimersByTimeAsync(10_000)
    locked.reporter.leave()
    expect(locked.sent).toHaveLength(1)
    expect(locked.beacons).toEqual([])
  })

  test('leaving the page hands the unsent seconds to a beacon, once', async () => {
    const { reporter, sent, beacons, playFor } = setup({ initialPosition: 12 })
    reporter.leave()
    expect(beacons).toEqual([]) // nothing played, the head where it opened
    reporter.play(12)
    await playFor(7)
    expect(sent).toEqual([{ position_seconds: 17, watched_seconds: 5 }])
    reporter.leave()
    reporter.leave()
    expect(beacons).toEqual([{ position_seconds: 19, watched_seconds: 2 }])
  })
})

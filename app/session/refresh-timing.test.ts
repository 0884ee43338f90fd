import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type RefreshOutcome, createRefreshScheduler, refreshDelayMs } from './refresh-timing'

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0)

describe('refreshDelayMs', () => {
  test('half the remaining lifetime when that is sooner (5-minute token)', () => {
    expect(refreshDelayMs(NOW / 1000 + 300, NOW)).toBe(150_000)
  })
  test('one minute before expiry when that is sooner (100 s left)', () => {
    expect(refreshDelayMs(NOW / 1000 + 100, NOW)).toBe(40_000)
  })
  test('a 1-day token refreshes at half its lifetime', () => {
    expect(refreshDelayMs(NOW / 1000 + 86_400, NOW)).toBe(43_200_000)
  })
  test('at once when the time has passed', () => {
    expect(refreshDelayMs(NOW / 1000 + 30, NOW)).toBe(0)
    expect(refreshDelayMs(NOW / 1000 - 10, NOW)).toBe(0)
  })
  test('the rules cross at two minutes', () => {
    expect(refreshDelayMs(NOW / 1000 + 120, NOW)).toBe(60_000)
  })
})

describe('createRefreshScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(NOW)
  })
  afterEach(() => vi.useRealTimers())

  function setup(outcomes: RefreshOutcome[]) {
    const refresh = vi.fn(async () => outcomes.shift() ?? { kind: 'failed' as const })
    const onLogout = vi.fn()
    const scheduler = createRefreshScheduler({
      refresh,
      onLogout,
      timers: { now: () => Date.now(), setTimeout: (cb, ms) => setTimeout(cb, ms), clearTimeout: (h) => clearTimeout(h as number) },
    })
    return { refresh, onLogout, scheduler }
  }

  test('refreshes on time and reschedules from the new expiry', async () => {
    const { refresh, scheduler } = setup([{ kind: 'ok', expiresAt: NOW / 1000 + 450 }])
    scheduler.start(NOW / 1000 + 300)
    await vi.advanceTimersByTimeAsync(149_999)
    expect(refresh).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(refresh).toHaveBeenCalledTimes(1)
    // new token: 450 s from NOW, checked at NOW+150 s → 300 s left → next in 150 s
    await vi.advanceTimersByTimeAsync(149_999)
    expect(refresh).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(refresh).toHaveBeenCalledTimes(2)
  })

  test('refreshes at once when the time has passed', async () => {
    const { refresh, scheduler } = setup([{ kind: 'ok', expiresAt: NOW / 1000 + 300 }])
    scheduler.start(NOW / 1000 + 20)
    await vi.advanceTimersByTimeAsync(0)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  test('a network failure is retried once after 30 s', async () => {
    const { refresh, onLogout, scheduler } = setup([{ kind: 'network' }, { kind: 'ok', expiresAt: NOW / 1000 + 600 }])
    scheduler.start(NOW / 1000 + 10)
    await vi.advanceTimersByTimeAsync(0)
    expect(refresh).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(refresh).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(refresh).toHaveBeenCalledTimes(2)
    expect(onLogout).not.toHaveBeenCalled()
  })

  test('a second network failure forces the logout', async () => {
    const { onLogout, scheduler } = setup([{ kind: 'network' }, { kind: 'network' }])
    scheduler.start(NOW / 1000)
    await vi.advanceTimersByTimeAsync(30_000)
    expect(onLogout).toHaveBeenCalledTimes(1)
  })

  test('any other failure forces the logout at once', async () => {
    const { refresh, onLogout, scheduler } = setup([{ kind: 'failed' }])
    scheduler.start(NOW / 1000)
    await vi.advanceTimersByTimeAsync(0)
    expect(onLogout).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(600_000)
    expect(refresh).toHaveBeenCalledTimes(1)
  })

  test('stop cancels the timer', async () => {
    const { refresh, scheduler } = setup([])
    scheduler.start(NOW / 1000 + 300)
    scheduler.stop()
    await vi.advanceTimersByTimeAsync(600_000)
    expect(refresh).not.toHaveBeenCalled()
  })
})

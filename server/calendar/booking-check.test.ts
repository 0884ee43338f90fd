import { describe, expect, it } from 'vitest'
import { isWindowFree } from './booking-check'

const at = (hour: number, minute = 0) => Date.UTC(2026, 2, 3, hour, minute)
const span = (from: [number, number?], to: [number, number?]) => ({ start: at(...from), end: at(...to) })

describe('isWindowFree', () => {
  const window = span([10], [10, 50])

  it('is free without busy time, or with busy time only outside the window (touching is not overlapping)', () => {
    expect(isWindowFree(window, [])).toBe(true)
    expect(isWindowFree(window, [span([9], [10]), span([10, 50], [12])])).toBe(true)
  })

  it('is not free when any busy time falls inside the window', () => {
    expect(isWindowFree(window, [span([10, 40], [11])])).toBe(false)
    expect(isWindowFree(window, [span([8], [18])])).toBe(false)
  })

  it('takes the caller’s own appointments out of the busy time, even fused with a neighbouring event', () => {
    // Rescheduling 10:00-10:50 to 10:30-11:20: the own event is no conflict.
    expect(isWindowFree(span([10, 30], [11, 20]), [span([10], [10, 50])], [span([10], [10, 50])])).toBe(true)
    // Own 10:00-10:50 fused by freeBusy with a personal 09:00-10:00: the window 10:20-11:10 is free.
    expect(isWindowFree(span([10, 20], [11, 10]), [span([9], [10, 50])], [span([10], [10, 50])])).toBe(true)
    // Fused with a personal 10:50-11:00 that the new time overlaps: not free.
    expect(isWindowFree(span([10, 30], [11, 20]), [span([10], [11])], [span([10], [10, 50])])).toBe(false)
  })
})

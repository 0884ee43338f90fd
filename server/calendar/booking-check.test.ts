import { describe, expect, it } from 'vitest'
import { isTimeFree } from '#server/calendar/booking-check.ts'

const at = (hour: number, minute = 0) => Date.UTC(2026, 2, 3, hour, minute)
const window = { start: at(10), end: at(10, 50) }
const event = (from: [number, number?], to: [number, number?], overrides: Record<string, unknown> = {}) => ({
  status: 'confirmed',
  transparency: 'opaque',
  selfResponseStatus: null as string | null,
  inneraAppointmentId: null as number | null,
  startAt: new Date(at(...from)),
  endAt: new Date(at(...to)),
  ...overrides,
})

describe('isTimeFree (a patient’s live check)', () => {
  it('is free without events, or with events only beside the window (touching is not overlapping)', () => {
    expect(isTimeFree(window, [])).toBe(true)
    expect(isTimeFree(window, [event([9], [10]), event([10, 50], [12])])).toBe(true)
  })

  it('is not free when an event that counts as busy overlaps the window', () => {
    expect(isTimeFree(window, [event([10, 40], [11])])).toBe(false)
    expect(isTimeFree(window, [event([8], [18], { selfResponseStatus: 'accepted' })])).toBe(false)
  })

  it('counts events as the stored copy does: not unanswered or declined invitations, free time, or the product’s appointment events', () => {
    for (const overrides of [{ selfResponseStatus: 'needsAction' }, { selfResponseStatus: 'declined' }, { transparency: 'transparent' }, { inneraAppointmentId: 31 }]) {
      expect(isTimeFree(window, [event([10], [10, 50], overrides)])).toBe(true)
    }
  })
})

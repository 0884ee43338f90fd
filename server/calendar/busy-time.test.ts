import { describe, expect, it } from 'vitest'
import { countsAsBusy } from '#server/calendar/busy-time.ts'

const event = (overrides: Partial<Parameters<typeof countsAsBusy>[0]> = {}) => ({
  status: 'confirmed',
  transparency: 'opaque',
  selfResponseStatus: null,
  inneraAppointmentId: null,
  ...overrides,
})

describe('countsAsBusy (decisions 0026 and 0036)', () => {
  it('counts confirmed and tentative events, the professional’s own (no answer of theirs), and invitations accepted or tentatively accepted', () => {
    expect(countsAsBusy(event())).toBe(true)
    expect(countsAsBusy(event({ status: 'tentative' }))).toBe(true)
    for (const answer of ['accepted', 'tentative']) expect(countsAsBusy(event({ selfResponseStatus: answer }))).toBe(true)
  })

  it('leaves out free (transparent), cancelled, declined and unanswered events, and the product’s own appointment events', () => {
    expect(countsAsBusy(event({ transparency: 'transparent' }))).toBe(false)
    expect(countsAsBusy(event({ status: 'cancelled' }))).toBe(false)
    expect(countsAsBusy(event({ selfResponseStatus: 'declined' }))).toBe(false)
    expect(countsAsBusy(event({ selfResponseStatus: 'needsAction' }))).toBe(false)
    expect(countsAsBusy(event({ inneraAppointmentId: 12 }))).toBe(false)
  })
})

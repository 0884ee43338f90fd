import { describe, expect, it } from 'vitest'
import { countsAsBusy } from './busy-time'

const event = (overrides: Partial<Parameters<typeof countsAsBusy>[0]> = {}) => ({
  status: 'confirmed',
  transparency: 'opaque',
  selfResponseStatus: null,
  inneraAppointmentId: null,
  ...overrides,
})

describe('countsAsBusy (decision 0026)', () => {
  it('counts confirmed and tentative events, and invitations not declined', () => {
    expect(countsAsBusy(event())).toBe(true)
    expect(countsAsBusy(event({ status: 'tentative' }))).toBe(true)
    for (const answer of ['accepted', 'tentative', 'needsAction']) expect(countsAsBusy(event({ selfResponseStatus: answer }))).toBe(true)
  })

  it('leaves out free (transparent), cancelled and declined events, and the product’s own appointment events', () => {
    expect(countsAsBusy(event({ transparency: 'transparent' }))).toBe(false)
    expect(countsAsBusy(event({ status: 'cancelled' }))).toBe(false)
    expect(countsAsBusy(event({ selfResponseStatus: 'declined' }))).toBe(false)
    expect(countsAsBusy(event({ inneraAppointmentId: 12 }))).toBe(false)
  })
})

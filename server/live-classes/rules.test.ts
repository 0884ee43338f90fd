import { describe, expect, it } from 'vitest'
import type { Entitlements } from '#server/courses/access.ts'
import { wallClockOf, wallTimeResolver } from '#server/dates.ts'
import { classAccess, joinState, joinWindow, reminderDueAt, remindersSettledAtReservation, reminderStillUseful } from '#server/live-classes/rules.ts'

const MINUTE = 60_000
const patient = (over: Partial<Entitlements> = {}): Entitlements => ({ role: 'paciente', courseProductIds: new Set(), hasProgram: false, hasLiveSubscription: false, ...over })

describe('the join window', () => {
  it('opens 10 minutes before a 19:00 class in São Paulo at 18:50 there, whatever the server zone', () => {
    // 19:00 in São Paulo (UTC-3, no daylight saving since 2019) is 22:00 UTC.
    const startsAt = Date.parse('2026-12-01T19:00:00-03:00')
    const cls = { startsAt, durationMinutes: 60 }
    const { opensAt, closesAt } = joinWindow(cls)
    expect(new Date(opensAt).toISOString()).toBe('2026-12-01T21:50:00.000Z')
    expect(wallClockOf(opensAt, 'America/Sao_Paulo')).toBe('18:50')
    expect(wallClockOf(closesAt, 'America/Sao_Paulo')).toBe('20:00')
    expect(joinState(opensAt - 1, cls)).toBe('too_early')
    expect(joinState(opensAt, cls)).toBe('open')
    expect(joinState(closesAt - 1, cls)).toBe('open')
    expect(joinState(closesAt, cls)).toBe('ended')
    expect(joinState(opensAt, { ...cls, cancelledAt: opensAt - MINUTE })).toBe('cancelled')
  })

  it('is instants, not wall clock, across a daylight-saving change (New York, 2026-11-01)', () => {
    // Clocks go back at 02:00 EDT to 01:00 EST: a class at 01:05 EST (the second 01:05) opens 10
    // minutes before as instants, at 01:55 EDT, which reads 50 minutes *later* on the wall clock.
    const startsAt = Date.parse('2026-11-01T01:05:00-05:00')
    const { opensAt } = joinWindow({ startsAt, durationMinutes: 30 })
    expect(startsAt - opensAt).toBe(10 * MINUTE)
    expect(wallClockOf(opensAt, 'America/New_York')).toBe('01:55')
    // A class at 03:00 the day clocks go forward (2026-03-08, 02:00 → 03:00): its window opens at 01:50 EST.
    const spring = wallTimeResolver('2026-03-08', 'America/New_York')(3 * 60)!
    expect(wallClockOf(joinWindow({ startsAt: spring, durationMinutes: 30 }).opensAt, 'America/New_York')).toBe('01:50')
    expect(joinState(spring - 10 * MINUTE, { startsAt: spring, durationMinutes: 30 })).toBe('open')
  })
})

describe('access', () => {
  it('opens free classes to all, members classes to a program or a live plan, and to staff', () => {
    expect(classAccess(patient(), { access: 'free' })).toBe('free')
    expect(classAccess(patient(), { access: 'members' })).toBeNull()
    // A course bought is not a membership.
    expect(classAccess(patient({ courseProductIds: new Set([3]) }), { access: 'members' })).toBeNull()
    expect(classAccess(patient({ hasProgram: true }), { access: 'members' })).toBe('program')
    expect(classAccess(patient({ hasLiveSubscription: true }), { access: 'members' })).toBe('subscription')
    expect(classAccess({ ...patient(), role: 'profissional' }, { access: 'members' })).toBe('staff')
    expect(classAccess({ ...patient(), role: 'admin' }, { access: 'members' })).toBe('staff')
  })
})

describe('reminders', () => {
  const cls = { startsAt: Date.parse('2026-12-01T22:00:00Z'), durationMinutes: 60 }
  it('are due 24 hours and 15 minutes before', () => {
    const due = reminderDueAt(cls)
    expect(new Date(due['24h']).toISOString()).toBe('2026-11-30T22:00:00.000Z')
    expect(new Date(due['15m']).toISOString()).toBe('2026-12-01T21:45:00.000Z')
  })
  it('skips those already due at reservation, and late ones that no longer help', () => {
    expect(remindersSettledAtReservation(cls.startsAt - 48 * 3600_000, cls)).toEqual({ '24h': false, '15m': false })
    expect(remindersSettledAtReservation(cls.startsAt - 3600_000, cls)).toEqual({ '24h': true, '15m': false })
    expect(remindersSettledAtReservation(cls.startsAt - 5 * MINUTE, cls)).toEqual({ '24h': true, '15m': true })
    expect(reminderStillUseful('24h', cls.startsAt - 20 * MINUTE, cls)).toBe(true)
    expect(reminderStillUseful('24h', cls.startsAt - 10 * MINUTE, cls)).toBe(false)
    expect(reminderStillUseful('15m', cls.startsAt - MINUTE, cls)).toBe(true)
    expect(reminderStillUseful('15m', cls.startsAt, cls)).toBe(false)
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Schedule } from '#app/provider/schedule.server.ts'
import { WEEKDAYS, type WeeklyAvailability } from './availability'
import { type CalendarEvent } from './calendar'
import {
  type CalendarConflict,
  type ConflictSchedule,
  blocksTime,
  conflictSeverity,
  findConflicts,
  slotInterval,
  slotsOn,
  sortConflicts,
  weekdayOf,
} from './calendar-conflicts'

const closed = { enabled: false, slots: [] }
function weekly(days: Partial<WeeklyAvailability>): WeeklyAvailability {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, days[day] ?? closed])) as WeeklyAvailability
}
const mornings = { enabled: true, slots: [{ start: '09:00', end: '12:00' }, { start: '14:00', end: '18:00' }] }

const timed = (id: string, start: string, end: string, extra: Partial<CalendarEvent> = {}): CalendarEvent => ({
  id,
  summary: 'Reunião',
  start: { dateTime: start },
  end: { dateTime: end },
  ...extra,
})
const allDay = (id: string, date: string, end: string, extra: Partial<CalendarEvent> = {}): CalendarEvent => ({
  id,
  summary: 'Congresso',
  start: { date },
  end: { date: end },
  ...extra,
})

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the provider schedule', () => {
  it('is a schedule conflicts can read', () => {
    const schedule: ConflictSchedule = {} as Schedule
    expect(schedule).toBeDefined()
  })
})

describe('severity', () => {
  it('is high with an event of the product', () => {
    expect(conflictSeverity([timed('a', '', '', { summary: 'urgente' }), timed('b', '', '', { summary: 'Consulta Innera com Ana' })])).toBe('high')
    expect(conflictSeverity([timed('a', '', '', { summary: 'Almoço', innera_appointment_id: 3 })])).toBe('high')
  })

  it.each([['IMPORTANTE: banca'], ['Reunião Urgente'], ['reunião importante'], ['URGÊNTE'], ['Importânte']])('is medium for %j in the title', (summary) => {
    expect(conflictSeverity([timed('a', '', '', { summary })])).toBe('medium')
  })

  it('is medium for the words in the description, and low otherwise', () => {
    expect(conflictSeverity([timed('a', '', '', { summary: 'Banca', description: 'Muito IMPORTANTE' })])).toBe('medium')
    expect(conflictSeverity([timed('a', '', '', { summary: 'Almoço', description: null }), timed('b', '', '', { summary: null })])).toBe('low')
    expect(conflictSeverity([timed('a', '', '', { summary: 'Import', description: 'urge' })])).toBe('low')
  })
})

describe('which events take time', () => {
  it('leaves out free, cancelled and declined events, and keeps tentative ones', () => {
    expect(blocksTime(timed('a', '', ''))).toBe(true)
    expect(blocksTime(timed('a', '', '', { status: 'tentative', transparency: 'opaque' }))).toBe(true)
    expect(blocksTime(timed('a', '', '', { transparency: 'transparent' }))).toBe(false)
    expect(blocksTime(timed('a', '', '', { status: 'cancelled' }))).toBe(false)
    expect(blocksTime(timed('a', '', '', { attendees: [{ email: 'me@x.test', self: true, responseStatus: 'declined' }] }))).toBe(false)
    expect(blocksTime(timed('a', '', '', { attendees: [{ email: 'other@x.test', responseStatus: 'declined' }] }))).toBe(true)
  })
})

describe('slots of a date', () => {
  const schedule: ConflictSchedule = {
    time_zone: 'America/Sao_Paulo',
    availability: weekly({ monday: mornings, tuesday: { enabled: false, slots: [{ start: '09:00', end: '10:00' }] } }),
    exceptions: [
      { date: '2026-11-30', slots: [] },
      { date: '2026-12-01', slots: [{ start: '08:00', end: '09:00' }] },
    ],
  }
  it('takes the weekday of the date, a disabled day none, and an exception instead', () => {
    expect(weekdayOf('2026-11-23')).toBe('monday')
    expect(weekdayOf('2026-11-29')).toBe('sunday')
    expect(slotsOn(schedule, '2026-11-23')).toEqual(mornings.slots)
    expect(slotsOn(schedule, '2026-11-24')).toEqual([])
    expect(slotsOn(schedule, '2026-11-30')).toEqual([])
    expect(slotsOn(schedule, '2026-12-01')).toEqual([{ start: '08:00', end: '09:00' }])
  })

  it('puts slot times at the right instants across daylight-saving changes', () => {
    const iso = (interval: { start: number; end: number } | null) => interval && [new Date(interval.start).toISOString(), new Date(interval.end).toISOString()]
    // Lisbon goes from WEST (+1) to WET (0) at 02:00 on 25 October 2026.
    expect(iso(slotInterval('2026-10-24', { start: '09:00', end: '12:00' }, 'Europe/Lisbon'))).toEqual(['2026-10-24T08:00:00.000Z', '2026-10-24T11:00:00.000Z'])
    expect(iso(slotInterval('2026-10-25', { start: '09:00', end: '12:00' }, 'Europe/Lisbon'))).toEqual(['2026-10-25T09:00:00.000Z', '2026-10-25T12:00:00.000Z'])
    expect(iso(slotInterval('2026-10-25', { start: '00:00', end: '03:00' }, 'Europe/Lisbon'))).toEqual(['2026-10-24T23:00:00.000Z', '2026-10-25T03:00:00.000Z'])
    // New York goes from EDT (-4) to EST (-5) at 02:00 on 1 November 2026.
    expect(iso(slotInterval('2026-10-31', { start: '09:00', end: '17:00' }, 'America/New_York'))).toEqual(['2026-10-31T13:00:00.000Z', '2026-10-31T21:00:00.000Z'])
    expect(iso(slotInterval('2026-11-01', { start: '09:00', end: '17:00' }, 'America/New_York'))).toEqual(['2026-11-01T14:00:00.000Z', '2026-11-01T22:00:00.000Z'])
    expect(iso(slotInterval('2026-11-01', { start: '20:00', end: '24:00' }, 'America/New_York'))).toEqual(['2026-11-02T01:00:00.000Z', '2026-11-02T05:00:00.000Z'])
  })

  it('skips malformed or empty slots', () => {
    expect(slotInterval('2026-11-23', { start: '9h', end: '10:00' }, 'UTC')).toBeNull()
    expect(slotInterval('2026-11-23', { start: '10:00', end: '10:00' }, 'UTC')).toBeNull()
    expect(slotInterval('2026-11-23', { start: '11:00', end: '10:00' }, 'UTC')).toBeNull()
    // 01:00-02:00 does not exist in Lisbon on 29 March 2026.
    expect(slotInterval('2026-03-29', { start: '01:00', end: '02:00' }, 'Europe/Lisbon')).toBeNull()
  })
})

describe('findConflicts', () => {
  const saoPaulo: ConflictSchedule = { time_zone: 'America/Sao_Paulo', availability: weekly({ monday: mornings, wednesday: mornings }), exceptions: [] }

  it('gives one conflict per slot an event overlaps, with its fields', () => {
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z')) // Monday 07:00 in São Paulo
    const meeting = timed('m', '2026-11-23T11:00:00-03:00', '2026-11-23T15:00:00-03:00', { summary: 'Reunião de equipe' })
    const conflicts = findConflicts(saoPaulo, [meeting], new Date())
    expect(conflicts).toEqual([
      {
        id: '2026-11-23-09:00-12:00',
        dayName: 'monday',
        date: '2026-11-23',
        timeSlot: '09:00-12:00',
        start: '2026-11-23T12:00:00.000Z',
        end: '2026-11-23T15:00:00.000Z',
        conflictingEvents: [meeting],
        severity: 'low',
        suggestedResolution: { key: 'calendar:conflicts.resolution.low', values: { count: 1, title: 'Reunião de equipe', date: '2026-11-23', timeSlot: '09:00-12:00' } },
      },
      expect.objectContaining({ id: '2026-11-23-14:00-18:00', timeSlot: '14:00-18:00', conflictingEvents: [meeting] }),
    ])
  })

  it('lets touching events be, and lists every event of a slot in start order', () => {
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'))
    const before = timed('before', '2026-11-23T08:00:00-03:00', '2026-11-23T09:00:00-03:00')
    const between = timed('between', '2026-11-23T12:00:00-03:00', '2026-11-23T14:00:00-03:00')
    const late = timed('late', '2026-11-23T11:30:00-03:00', '2026-11-23T12:00:00-03:00')
    const early = timed('early', '2026-11-23T09:00:00-03:00', '2026-11-23T09:15:00-03:00')
    const conflicts = findConflicts(saoPaulo, [before, between, late, early], new Date())
    expect(conflicts.map((conflict) => [conflict.id, conflict.conflictingEvents.map((event) => event.id)])).toEqual([['2026-11-23-09:00-12:00', ['early', 'late']]])
  })

  it('has an all-day event hit every slot of its days, and leaves out free, cancelled and other-day events', () => {
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'))
    const events = [
      allDay('congress', '2026-11-25', '2026-11-26'),
      allDay('holiday', '2026-11-30', '2026-12-01', { transparency: 'transparent' }),
      timed('cancelled', '2026-11-30T10:00:00-03:00', '2026-11-30T11:00:00-03:00', { status: 'cancelled' }),
      allDay('tuesday', '2026-11-24', '2026-11-25'),
    ]
    expect(findConflicts(saoPaulo, events, new Date()).map((conflict) => [conflict.id, conflict.dayName])).toEqual([
      ['2026-11-25-09:00-12:00', 'wednesday'],
      ['2026-11-25-14:00-18:00', 'wednesday'],
    ])
  })

  it('looks from today (all of it) to 30 days later only', () => {
    vi.setSystemTime(new Date('2026-11-23T20:00:00Z')) // Monday 17:00 in São Paulo
    const events = [
      timed('this morning', '2026-11-23T10:00:00-03:00', '2026-11-23T10:30:00-03:00'),
      timed('day 29', '2026-12-21T10:00:00-03:00', '2026-12-21T10:30:00-03:00'), // a Monday, 28 days on
      timed('day 30', '2026-12-23T10:00:00-03:00', '2026-12-23T10:30:00-03:00'), // the 30th day after today: outside
      timed('last week', '2026-11-16T10:00:00-03:00', '2026-11-16T10:30:00-03:00'),
    ]
    expect(findConflicts(saoPaulo, events, new Date()).map((conflict) => conflict.id)).toEqual(['2026-11-23-09:00-12:00', '2026-12-21-09:00-12:00'])
    expect(findConflicts(saoPaulo, events, new Date(), 60).map((conflict) => conflict.id)).toContain('2026-12-23-09:00-12:00')
  })

  it('sorts by severity, then date and time', () => {
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'))
    const events = [
      timed('low', '2026-11-23T10:00:00-03:00', '2026-11-23T10:30:00-03:00', { summary: 'Almoço' }),
      timed('medium-late', '2026-11-25T15:00:00-03:00', '2026-11-25T16:00:00-03:00', { summary: 'Banca', description: 'URGENTE' }),
      timed('medium-early', '2026-11-25T10:00:00-03:00', '2026-11-25T11:00:00-03:00', { summary: 'Reunião importante' }),
      timed('high', '2026-11-30T15:00:00-03:00', '2026-11-30T16:00:00-03:00', { summary: 'Consulta Innera com Ana', innera_appointment_id: 7 }),
      timed('high-and-low', '2026-11-23T15:00:00-03:00', '2026-11-23T16:00:00-03:00', { summary: 'Consulta', description: 'Agendada pela innera' }),
    ]
    const conflicts = findConflicts(saoPaulo, events, new Date())
    expect(conflicts.map((conflict) => [conflict.severity, conflict.id])).toEqual([
      ['high', '2026-11-23-14:00-18:00'],
      ['high', '2026-11-30-14:00-18:00'],
      ['medium', '2026-11-25-09:00-12:00'],
      ['medium', '2026-11-25-14:00-18:00'],
      ['low', '2026-11-23-09:00-12:00'],
    ])
    expect(conflicts[0]!.suggestedResolution.key).toBe('calendar:conflicts.resolution.high')
    expect(conflicts[2]!.suggestedResolution.key).toBe('calendar:conflicts.resolution.medium')
    // Sorting again changes nothing.
    expect(sortConflicts([...conflicts].reverse())).toEqual(conflicts)
  })

  it('puts slots right across the Lisbon change of 25 October 2026', () => {
    vi.setSystemTime(new Date('2026-10-20T12:00:00Z'))
    const lisbon: ConflictSchedule = { time_zone: 'Europe/Lisbon', availability: weekly({ saturday: mornings, sunday: mornings, monday: mornings }) }
    const events = [
      // 08:00-09:00 WEST on Saturday: just before the slot.
      timed('sat', '2026-10-24T07:00:00Z', '2026-10-24T08:00:00Z'),
      // 08:30-09:30 WET on Sunday (after the change): inside 09:00-12:00.
      timed('sun', '2026-10-25T08:30:00Z', '2026-10-25T09:30:00Z'),
      // 11:30-12:30 UTC on Monday is 11:30-12:30 WET: inside 09:00-12:00.
      timed('mon', '2026-10-26T11:30:00Z', '2026-10-26T12:30:00Z'),
    ]
    expect(findConflicts(lisbon, events, new Date()).map((conflict: CalendarConflict) => [conflict.id, conflict.start])).toEqual([
      ['2026-10-25-09:00-12:00', '2026-10-25T09:00:00.000Z'],
      ['2026-10-26-09:00-12:00', '2026-10-26T09:00:00.000Z'],
    ])
  })

  it('puts slots right across the New York change of 1 November 2026', () => {
    vi.setSystemTime(new Date('2026-10-28T12:00:00Z'))
    const newYork: ConflictSchedule = { time_zone: 'America/New_York', availability: weekly({ saturday: mornings, sunday: mornings }) }
    const events = [
      // 13:00-13:30 UTC: 09:00 EDT on Saturday (in the slot), 08:00 EST on Sunday (before it).
      timed('sat', '2026-10-31T13:00:00Z', '2026-10-31T13:30:00Z'),
      timed('sun', '2026-11-01T13:00:00Z', '2026-11-01T13:30:00Z'),
      // 17:30-18:30 EST on Sunday: overlaps 14:00-18:00, which ends at 23:00 UTC (18:00 EST).
      timed('sun-evening', '2026-11-01T22:30:00Z', '2026-11-01T23:30:00Z'),
    ]
    expect(findConflicts(newYork, events, new Date()).map((conflict) => [conflict.id, conflict.end])).toEqual([
      ['2026-10-31-09:00-12:00', '2026-10-31T16:00:00.000Z'],
      ['2026-11-01-14:00-18:00', '2026-11-01T23:00:00.000Z'],
    ])
  })

  it('finds nothing without events or without availability', () => {
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'))
    expect(findConflicts(saoPaulo, [], new Date())).toEqual([])
    expect(findConflicts({ time_zone: 'America/Sao_Paulo', availability: weekly({}) }, [allDay('a', '2026-11-23', '2026-12-23')], new Date())).toEqual([])
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  type CalendarEvent,
  calendarStats,
  conflictWindow,
  eventInterval,
  isAllDay,
  isInneraEvent,
  overlaps,
  refreshWindow,
  startOfLocalDay,
  wallClock,
  windowDates,
} from './calendar'

const at = (iso: string) => Date.parse(iso)
const timed = (id: string, start: string, end: string, extra: Partial<CalendarEvent> = {}): CalendarEvent => ({
  id,
  summary: 'Reunião',
  start: { dateTime: start },
  end: { dateTime: end },
  ...extra,
})
const allDay = (id: string, start: string, end: string, extra: Partial<CalendarEvent> = {}): CalendarEvent => ({
  id,
  summary: 'Feriado',
  start: { date: start },
  end: { date: end },
  ...extra,
})

afterEach(() => {
  vi.useRealTimers()
})

describe('derived fields', () => {
  it('reads an event with a date and no time as all-day', () => {
    expect(isAllDay(allDay('a', '2026-11-20', '2026-11-21'))).toBe(true)
    expect(isAllDay(timed('b', '2026-11-20T12:00:00Z', '2026-11-20T13:00:00Z'))).toBe(false)
    expect(isAllDay({ start: { date: '2026-11-20', dateTime: '2026-11-20T12:00:00Z' } })).toBe(false)
  })

  it("knows the product's events by name in any case, or by their appointment", () => {
    expect(isInneraEvent({ summary: 'Consulta Innera com Ana' })).toBe(true)
    expect(isInneraEvent({ summary: 'Reunião', description: 'marcado pela INNERA' })).toBe(true)
    expect(isInneraEvent({ summary: 'Almoço', description: null, innera_appointment_id: 12 })).toBe(true)
    expect(isInneraEvent({ summary: 'Almoço', description: 'com a equipe', innera_appointment_id: null })).toBe(false)
    expect(isInneraEvent({})).toBe(false)
  })
})

describe('eventInterval', () => {
  it('takes a timed event at its own instants, whatever the zone', () => {
    const event = timed('a', '2026-11-20T09:00:00-03:00', '2026-11-20T10:30:00-03:00')
    expect(eventInterval(event, 'Europe/Lisbon')).toEqual({ start: at('2026-11-20T12:00:00Z'), end: at('2026-11-20T13:30:00Z') })
  })

  it('reads a time without an offset in the event zone, else the viewer zone', () => {
    expect(eventInterval({ start: { dateTime: '2026-11-20T09:00:00', timeZone: 'Europe/Lisbon' }, end: { dateTime: '2026-11-20T10:00:00' } }, 'America/Sao_Paulo')).toEqual({
      start: at('2026-11-20T09:00:00Z'),
      end: at('2026-11-20T13:00:00Z'),
    })
  })

  it('takes an all-day event as whole local days, the end date exclusive', () => {
    expect(eventInterval(allDay('a', '2026-11-20', '2026-11-21'), 'America/Sao_Paulo')).toEqual({ start: at('2026-11-20T03:00:00Z'), end: at('2026-11-21T03:00:00Z') })
    expect(eventInterval(allDay('b', '2026-11-20', '2026-11-23'), 'Europe/Lisbon')).toEqual({ start: at('2026-11-20T00:00:00Z'), end: at('2026-11-23T00:00:00Z') })
    // A missing or wrong end is one day.
    expect(eventInterval({ start: { date: '2026-11-20' }, end: {} }, 'Europe/Lisbon')).toEqual({ start: at('2026-11-20T00:00:00Z'), end: at('2026-11-21T00:00:00Z') })
  })

  it('gives an all-day event on a daylight-saving change its real length', () => {
    // Lisbon goes back an hour on 25 October 2026: that day lasts 25 hours.
    const interval = eventInterval(allDay('a', '2026-10-25', '2026-10-26'), 'Europe/Lisbon')!
    expect(interval).toEqual({ start: at('2026-10-24T23:00:00Z'), end: at('2026-10-26T00:00:00Z') })
    expect((interval.end - interval.start) / 3_600_000).toBe(25)
  })

  it('refuses times it cannot read', () => {
    expect(eventInterval({ start: { date: '2026-02-30' }, end: { date: '2026-03-01' } }, 'UTC')).toBeNull()
    expect(eventInterval({ start: { dateTime: 'tomorrow' }, end: { dateTime: '2026-11-20T10:00:00Z' } }, 'UTC')).toBeNull()
    expect(eventInterval({ start: { dateTime: '2026-11-20T10:00:00Z' }, end: {} }, 'UTC')).toBeNull()
    expect(eventInterval(timed('x', '2026-11-20T10:00:00Z', '2026-11-20T09:00:00Z'), 'UTC')).toBeNull()
  })
})

describe('wall times across daylight-saving changes', () => {
  it('takes the first of a repeated hour and steps over a skipped one', () => {
    // Lisbon, 25 October 2026: 01:00-02:00 happens twice (WEST, then WET).
    expect(new Date(wallClock('2026-10-25', 'Europe/Lisbon')(90)).toISOString()).toBe('2026-10-25T00:30:00.000Z')
    expect(new Date(wallClock('2026-10-25', 'Europe/Lisbon')(180)).toISOString()).toBe('2026-10-25T03:00:00.000Z')
    // New York, 1 November 2026: 01:00-02:00 happens twice (EDT, then EST).
    expect(new Date(wallClock('2026-11-01', 'America/New_York')(90)).toISOString()).toBe('2026-11-01T05:30:00.000Z')
    expect(new Date(wallClock('2026-11-01', 'America/New_York')(9 * 60)).toISOString()).toBe('2026-11-01T14:00:00.000Z')
    // Lisbon, 29 March 2026: 01:00-02:00 does not exist; 01:30 lands half an hour after the jump.
    expect(new Date(wallClock('2026-03-29', 'Europe/Lisbon')(90)).toISOString()).toBe('2026-03-29T01:30:00.000Z')
    expect(new Date(wallClock('2026-03-29', 'Europe/Lisbon')(9 * 60)).toISOString()).toBe('2026-03-29T08:00:00.000Z')
  })

  it('starts a day whose midnight was skipped where the day begins', () => {
    // Santiago moves from 00:00 to 01:00 on 6 September 2026.
    expect(new Date(startOfLocalDay('2026-09-06', 'America/Santiago')).toISOString()).toBe('2026-09-06T04:00:00.000Z')
  })
})

describe('overlaps', () => {
  const a = { start: 10, end: 20 }
  it.each([
    [{ start: 15, end: 25 }, true],
    [{ start: 0, end: 11 }, true],
    [{ start: 12, end: 18 }, true],
    [{ start: 0, end: 30 }, true],
    [{ start: 20, end: 30 }, false],
    [{ start: 0, end: 10 }, false],
    [{ start: 15, end: 15 }, false],
  ])('[10, 20) and %j: %s', (b, expected) => {
    expect(overlaps(a, b)).toBe(expected)
    expect(overlaps(b, a)).toBe(expected)
  })
})

describe('windows', () => {
  it('reads from Monday of the current week to 35 days later in the user zone', () => {
    vi.useFakeTimers()
    // Sunday 22 November 2026, 23:30 in São Paulo; already Monday the 23rd in Lisbon.
    vi.setSystemTime(new Date('2026-11-23T02:30:00Z'))
    const saoPaulo = refreshWindow(new Date(), 'America/Sao_Paulo')
    expect(saoPaulo).toEqual({ startDate: '2026-11-16', endDate: '2026-12-21', start: at('2026-11-16T03:00:00Z'), end: at('2026-12-21T03:00:00Z') })
    expect(windowDates(saoPaulo)).toHaveLength(35)
    const lisbon = refreshWindow(Date.now(), 'Europe/Lisbon')
    expect(lisbon).toEqual({ startDate: '2026-11-23', endDate: '2026-12-28', start: at('2026-11-23T00:00:00Z'), end: at('2026-12-28T00:00:00Z') })
  })

  it('looks for conflicts from today to 30 days later, across a daylight-saving change', () => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-10-10T12:00:00Z'))
    const window = conflictWindow(new Date(), 'Europe/Lisbon')
    expect(window).toEqual({ startDate: '2026-10-10', endDate: '2026-11-09', start: at('2026-10-09T23:00:00Z'), end: at('2026-11-09T00:00:00Z') })
    expect(windowDates(window)).toHaveLength(30)
    expect(windowDates(window)[0]).toBe('2026-10-10')
    expect(windowDates(window).at(-1)).toBe('2026-11-08')
    expect(conflictWindow(new Date(), 'America/Sao_Paulo', 7).endDate).toBe('2026-10-17')
  })
})

describe('calendarStats', () => {
  it('counts events, the product ones, the upcoming ones and the conflicts given', () => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-11-20T15:00:00Z')) // 12:00 in São Paulo
    const events = [
      timed('past', '2026-11-20T11:00:00Z', '2026-11-20T12:00:00Z'),
      timed('now', '2026-11-20T15:00:00Z', '2026-11-20T16:00:00Z'),
      timed('innera', '2026-11-21T12:00:00Z', '2026-11-21T13:00:00Z', { summary: 'Consulta Innera com Ana', innera_appointment_id: 4 }),
      allDay('today', '2026-11-20', '2026-11-21'),
      allDay('tomorrow', '2026-11-21', '2026-11-22'),
    ]
    expect(calendarStats(events, [{}, {}], new Date(), 'America/Sao_Paulo')).toEqual({
      totalEvents: 5,
      inneraEvents: 1,
      externalEvents: 4,
      upcomingEvents: 2,
      conflictsDetected: 2,
    })
    vi.setSystemTime(new Date('2026-11-22T00:00:00Z'))
    expect(calendarStats(events, [], Date.now(), 'America/Sao_Paulo').upcomingEvents).toBe(0)
    expect(calendarStats([], [], Date.now(), 'America/Sao_Paulo')).toEqual({ totalEvents: 0, inneraEvents: 0, externalEvents: 0, upcomingEvents: 0, conflictsDetected: 0 })
  })
})

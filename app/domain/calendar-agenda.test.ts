import { describe, expect, it } from 'vitest'
import { type CalendarEvent } from './calendar'
import {
  calendarWeek,
  eventDays,
  eventFormTimes,
  eventInstants,
  eventsByDay,
  eventsQuery,
  inRefreshWindow,
  isAppointmentEvent,
  isDeclined,
  meaningfulConflicts,
} from './calendar-agenda'
import { type CalendarConflict } from './calendar-conflicts'

const ZONE = 'America/Sao_Paulo'
/** Monday 30 November 2026, 09:00 in São Paulo. */
const MONDAY = new Date('2026-11-30T12:00:00.000Z')
/** Sunday 6 December 2026, 09:00 in São Paulo. */
const SUNDAY = new Date('2026-12-06T12:00:00.000Z')

const timed = (id: string, start: string, end: string, extra: Partial<CalendarEvent> = {}): CalendarEvent => ({ id, summary: id, start: { dateTime: start }, end: { dateTime: end }, ...extra })
const allDay = (id: string, date: string, end: string): CalendarEvent => ({ id, summary: id, start: { date }, end: { date: end } })

describe('the week shown', () => {
  it('is this week by default, with a link to the next and none to the past', () => {
    expect(calendarWeek(null, ZONE, MONDAY)).toEqual({
      start: '2026-11-30',
      days: ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06'],
      today: '2026-11-30',
      previous: null,
      next: '2026-12-07',
    })
  })

  it('is any of the refresh window’s five weeks; the last has no next', () => {
    expect(calendarWeek('2026-12-16', ZONE, MONDAY)).toMatchObject({ start: '2026-12-14', previous: '2026-12-07', next: '2026-12-21' })
    expect(calendarWeek('2026-12-28', ZONE, MONDAY)).toMatchObject({ start: '2026-12-28', previous: '2026-12-21', next: null })
  })

  it('falls back to this week outside the window or for a date that is not one', () => {
    for (const requested of ['2027-01-04', '2026-11-23', '2026-02-30', 'amanhã', ['2026-12-07']]) expect(calendarWeek(requested, ZONE, MONDAY).start).toBe('2026-11-30')
  })

  it('starts on the Monday of the professional’s zone (late Sunday in São Paulo is Monday in UTC)', () => {
    expect(calendarWeek(null, ZONE, new Date('2026-12-07T02:00:00.000Z')).start).toBe('2026-11-30')
  })
})

describe('the dates read', () => {
  it('are the refresh window: Monday to 35 days later', () => {
    expect(eventsQuery(MONDAY, ZONE)).toEqual({ start_date: '2026-11-30', end_date: '2027-01-04' })
  })

  it('stretch to the conflict window’s end on a Sunday (today + 30 days is after the refresh window)', () => {
    expect(eventsQuery(SUNDAY, ZONE)).toEqual({ start_date: '2026-11-30', end_date: '2027-01-05' })
  })

  it('count only what takes some of the refresh window', () => {
    const events = [timed('in', '2026-12-01T12:00:00Z', '2026-12-01T13:00:00Z'), timed('after', '2027-01-04T12:00:00Z', '2027-01-04T13:00:00Z'), allDay('first', '2026-11-30', '2026-12-01')]
    expect(inRefreshWindow(events, MONDAY, ZONE).map((event) => event.id)).toEqual(['in', 'first'])
  })
})

describe('events by day', () => {
  const days = calendarWeek(null, ZONE, MONDAY).days

  it('an all-day event of three days is on each of them (the end date is exclusive)', () => {
    expect(eventDays(allDay('congresso', '2026-12-02', '2026-12-05'), days, ZONE)).toEqual(['2026-12-02', '2026-12-03', '2026-12-04'])
  })

  it('a timed event past midnight is on both dates; one ending at midnight only on its own', () => {
    expect(eventDays(timed('plantão', '2026-12-01T23:00:00-03:00', '2026-12-02T02:00:00-03:00'), days, ZONE)).toEqual(['2026-12-01', '2026-12-02'])
    expect(eventDays(timed('jantar', '2026-12-01T20:00:00-03:00', '2026-12-02T00:00:00-03:00'), days, ZONE)).toEqual(['2026-12-01'])
  })

  it('all-day events first, then by start', () => {
    const events = [timed('tarde', '2026-12-01T15:00:00-03:00', '2026-12-01T16:00:00-03:00'), timed('manhã', '2026-12-01T09:00:00-03:00', '2026-12-01T10:00:00-03:00'), allDay('feriado', '2026-12-01', '2026-12-02')]
    const tuesday = eventsByDay(events, days, ZONE).find((day) => day.date === '2026-12-01')
    expect(tuesday?.events.map((event) => event.id)).toEqual(['feriado', 'manhã', 'tarde'])
    expect(eventsByDay(events, days, ZONE)).toHaveLength(7)
  })

  it('unreadable times are left out', () => {
    expect(eventsByDay([{ id: 'x', start: {}, end: {} }], days, ZONE).flatMap((day) => day.events)).toEqual([])
  })
})

describe('what an event is', () => {
  it('a booked appointment’s event has its id', () => {
    expect(isAppointmentEvent({ innera_appointment_id: 4 })).toBe(true)
    expect(isAppointmentEvent({ innera_appointment_id: null })).toBe(false)
    expect(isAppointmentEvent({})).toBe(false)
  })

  it('declined by the owner, not by a guest', () => {
    expect(isDeclined({ attendees: [{ email: 'eu@x', self: true, responseStatus: 'declined' }] })).toBe(true)
    expect(isDeclined({ attendees: [{ email: 'outro@x', responseStatus: 'declined' }] })).toBe(false)
  })
})

describe('conflicts', () => {
  const conflict = (id: string, events: CalendarEvent[], dayName: CalendarConflict['dayName'] = 'tuesday', timeSlot = '09:00-12:00'): CalendarConflict => ({
    id,
    dayName,
    date: '2026-12-01',
    timeSlot,
    start: '',
    end: '',
    conflictingEvents: events,
    severity: 'low',
    suggestedResolution: { key: 'k', values: {} },
  })
  const booked = timed('Consulta Innera com Ana', '', '', { innera_appointment_id: 3 })
  const dentist = timed('Dentista', '', '')

  it('a slot holding only booked consultations is no conflict; beside another event it is', () => {
    expect(meaningfulConflicts([conflict('a', [booked]), conflict('b', [booked, dentist]), conflict('c', [dentist])]).map((item) => item.id)).toEqual(['b', 'c'])
  })
})

describe('the event form’s times', () => {
  it('read a timed event in the zone', () => {
    expect(eventFormTimes(timed('x', '2026-12-01T12:00:00Z', '2026-12-01T13:30:00Z'), ZONE)).toEqual({ date: '2026-12-01', start: '09:00', end: '10:30' })
    expect(eventFormTimes(timed('x', '2026-12-01T12:00:00Z', '2026-12-01T13:30:00Z'), 'Europe/Lisbon')).toEqual({ date: '2026-12-01', start: '12:00', end: '13:30' })
  })

  it('are not offered for an all-day event', () => {
    expect(eventFormTimes(allDay('x', '2026-12-01', '2026-12-02'), ZONE)).toBeNull()
  })

  it('become instants in the zone, DST included', () => {
    expect(eventInstants('2026-12-01', '09:00', '10:30', ZONE)).toEqual({ start_time: '2026-12-01T12:00:00.000Z', end_time: '2026-12-01T13:30:00.000Z' })
    // Lisbon moves to summer time on 29 March 2026 at 01:00 UTC.
    expect(eventInstants('2026-03-29', '00:30', '03:00', 'Europe/Lisbon')).toEqual({ start_time: '2026-03-29T00:30:00.000Z', end_time: '2026-03-29T02:00:00.000Z' })
  })

  it('refuse an end not after the start, or what is not a time or a date', () => {
    expect(eventInstants('2026-12-01', '10:00', '10:00', ZONE)).toBeNull()
    expect(eventInstants('2026-12-01', '10:00', '09:00', ZONE)).toBeNull()
    expect(eventInstants('2026-12-01', '9h', '10:00', ZONE)).toBeNull()
    expect(eventInstants('2026-13-01', '09:00', '10:00', ZONE)).toBeNull()
  })
})

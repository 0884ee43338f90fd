import { describe, expect, it } from 'vitest'
import { storedEventOf } from '#server/calendar/event-store.ts'

const OWNER = { owners: ['paula@gmail.test'], timeZone: 'America/Sao_Paulo' }

describe('storedEventOf', () => {
  it('keeps a timed event with its instants and Google’s own times', () => {
    const stored = storedEventOf(
      {
        id: 'abc123',
        status: 'confirmed',
        summary: 'Dentista',
        start: { dateTime: '2026-03-03T10:00:00-03:00', timeZone: 'America/Sao_Paulo' },
        end: { dateTime: '2026-03-03T11:00:00-03:00' },
        htmlLink: 'https://calendar.google.com/event?eid=x',
        colorId: '5',
      },
      2,
      OWNER,
    )
    expect(stored).toMatchObject({
      userId: 2,
      googleEventId: 'abc123',
      summary: 'Dentista',
      description: '',
      start: { dateTime: '2026-03-03T10:00:00-03:00', timeZone: 'America/Sao_Paulo' },
      startAt: new Date('2026-03-03T13:00:00Z'),
      endAt: new Date('2026-03-03T14:00:00Z'),
      allDay: false,
      transparency: 'opaque',
      colorId: '5',
      inneraAppointmentId: null,
      createdByInnera: false,
    })
  })

  it('places an all-day event from midnight to midnight in the calendar’s zone (the end date is exclusive)', () => {
    const stored = storedEventOf({ id: 'day', start: { date: '2026-03-04' }, end: { date: '2026-03-06' }, transparency: 'transparent' }, 2, OWNER)
    expect(stored).toMatchObject({ allDay: true, startAt: new Date('2026-03-04T03:00:00Z'), endAt: new Date('2026-03-06T03:00:00Z'), transparency: 'transparent' })
    expect(storedEventOf({ id: 'day', start: { date: '2026-03-04' }, end: { date: '2026-03-05' } }, 2, { ...OWNER, timeZone: 'Europe/Lisbon' })!.startAt).toEqual(new Date('2026-03-04T00:00:00Z'))
  })

  it('finds the owner’s answer among the attendees, marked self or by address', () => {
    const invitation = (attendees: { email: string; responseStatus: string; self?: boolean }[]) =>
      storedEventOf({ id: 'inv', start: { dateTime: '2026-03-03T13:00:00Z' }, end: { dateTime: '2026-03-03T14:00:00Z' }, attendees }, 2, OWNER)!.selfResponseStatus
    expect(invitation([{ email: 'boss@example.test', responseStatus: 'accepted' }, { email: 'me@alias.test', responseStatus: 'declined', self: true }])).toBe('declined')
    expect(invitation([{ email: 'Paula@Gmail.test', responseStatus: 'tentative' }])).toBe('tentative')
    expect(invitation([{ email: 'boss@example.test', responseStatus: 'accepted' }])).toBeNull()
  })

  it('reads an event the professional organizes as accepted, whatever Google lists as their own answer (decision 0036)', () => {
    const organized = (organizer: { email?: string; self?: boolean }, responseStatus = 'needsAction') =>
      storedEventOf(
        { id: 'org', start: { dateTime: '2026-03-03T13:00:00Z' }, end: { dateTime: '2026-03-03T14:00:00Z' }, organizer, attendees: [{ email: 'paula@gmail.test', responseStatus }] },
        2,
        OWNER,
      )!.selfResponseStatus
    expect(organized({ email: 'paula@gmail.test', self: true })).toBe('accepted')
    expect(organized({ email: 'PAULA@gmail.test' })).toBe('accepted')
    expect(organized({ email: 'paula@gmail.test' }, 'declined')).toBe('declined')
    expect(organized({ email: 'stranger@example.test' })).toBe('needsAction')
  })

  it('keeps no event outside the years 2000-2100 (its dates could not be placed in a zone)', () => {
    expect(storedEventOf({ id: 'old', start: { date: '0999-01-04' }, end: { date: '0999-01-05' } }, 2, OWNER)).toBeUndefined()
    expect(storedEventOf({ id: 'far', start: { dateTime: '9999-12-27T10:00:00Z' }, end: { dateTime: '9999-12-27T11:00:00Z' } }, 2, OWNER)).toBeUndefined()
  })

  it('recognises the product’s own events by their private properties', () => {
    const stored = storedEventOf(
      { id: 'own', start: { dateTime: '2026-03-03T13:00:00Z' }, end: { dateTime: '2026-03-03T14:00:00Z' }, extendedProperties: { private: { innera: '1', inneraAppointmentId: '42' } } },
      2,
      OWNER,
    )
    expect(stored).toMatchObject({ inneraAppointmentId: 42, createdByInnera: true })
  })

  it('keeps nothing of a cancelled event or one without usable times', () => {
    expect(storedEventOf({ id: 'x', status: 'cancelled' }, 2, OWNER)).toBeUndefined()
    expect(storedEventOf({ id: 'x', start: { dateTime: 'soon' }, end: { dateTime: '2026-03-03T14:00:00Z' } }, 2, OWNER)).toBeUndefined()
    expect(storedEventOf({ start: { date: '2026-03-03' }, end: { date: '2026-03-04' } }, 2, OWNER)).toBeUndefined()
  })
})

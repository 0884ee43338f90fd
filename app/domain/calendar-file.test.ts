import { describe, expect, it } from 'vitest'
import { appointmentsCalendar } from './calendar-file'

const texts = { title: (name: string) => `Consulta Innera com ${name}`, manage: (url: string) => `Remarque ou cancele em: ${url}`, calendarName: 'Consultas Innera' }

describe('appointmentsCalendar', () => {
  const ics = appointmentsCalendar({
    appointments: [
      { id: 7, status: 'scheduled', start: '2026-03-29T00:30:00.000Z', end: '2026-03-29T01:20:00.000Z', otherFirstName: 'Paula' },
      { id: 8, status: 'cancelled', start: '2026-12-01T12:00:00.000Z', end: '2026-12-01T12:50:00.000Z', otherFirstName: 'Paula' },
    ],
    origin: 'https://innera.example',
    timeZone: 'Europe/Lisbon',
    texts,
  })
  const lines = ics.split('\r\n')

  it('writes each consultation at its instant, in UTC, with a stable id and the way to manage it', () => {
    expect(lines).toContain('BEGIN:VCALENDAR')
    expect(lines).toContain('X-WR-TIMEZONE:Europe/Lisbon')
    expect(lines).toContain('UID:appointment-7@innera')
    expect(lines).toContain('DTSTART:20260329T003000Z')
    expect(lines).toContain('DTEND:20260329T012000Z')
    expect(lines).toContain('SUMMARY:Consulta Innera com Paula')
    expect(lines).toContain('URL;VALUE=URI:https://innera.example/consultas/7')
    expect(ics).toContain('Remarque ou cancele em: https://innera.example/consultas/7')
  })

  it('marks a cancelled consultation cancelled, so subscribed calendars drop it', () => {
    const cancelled = ics.slice(ics.indexOf('UID:appointment-8@innera'))
    expect(cancelled.split('\r\n')).toContain('STATUS:CANCELLED')
  })

  it('carries nothing but the title, the times and the link', () => {
    expect(ics).not.toMatch(/ATTENDEE|ORGANIZER|LOCATION/)
  })
})

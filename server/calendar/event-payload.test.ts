import { describe, expect, it } from 'vitest'
import { eventDescription, eventTitle, googleEventOf, parseEventPayload } from './event-payload'

describe('event titles (no more than the first name, LGPD)', () => {
  it('names a consultation by the patient’s first name only', () => {
    expect(eventTitle('consultation', 'Pedro Santos Silva')).toBe('Consulta Innera com Pedro')
    expect(eventTitle('consultation', '  Mariana  ')).toBe('Consulta Innera com Mariana')
    expect(eventTitle('consultation', '')).toBe('Consulta Innera')
    expect(eventTitle('class', 'Pedro')).toBe('Aula Innera')
    expect(eventTitle('personal', 'Pedro')).toBe('Compromisso pessoal')
    expect(eventTitle('other', 'Pedro')).toBe('Evento Innera')
  })

  it('puts the notes and the meeting link in the description', () => {
    expect(eventDescription(' Trazer exames ', 'https://meet.jit.si/innera-x')).toBe('Trazer exames\n\nSala da consulta: https://meet.jit.si/innera-x')
    expect(eventDescription('', '')).toBe('')
  })
})

describe('parseEventPayload and googleEventOf', () => {
  it('defaults to a consultation and builds the Google event in the professional’s zone', () => {
    const payload = parseEventPayload({ start_time: '2026-03-03T10:00:00-03:00', end_time: '2026-03-03T10:50:00-03:00', patient_name: 'Pedro Santos', attendees: ['A@x.com', 'a@x.com'] })
    expect(payload).toEqual({
      start: Date.parse('2026-03-03T13:00:00Z'),
      end: Date.parse('2026-03-03T13:50:00Z'),
      type: 'consultation',
      relatedObjectId: null,
      attendees: ['a@x.com'],
      notes: '',
      patientName: 'Pedro Santos',
      meetingLink: '',
    })
    expect(googleEventOf(payload, { timeZone: 'America/Sao_Paulo', appointmentId: 7 })).toEqual({
      status: 'confirmed',
      summary: 'Consulta Innera com Pedro',
      description: '',
      start: { dateTime: '2026-03-03T13:00:00.000Z', timeZone: 'America/Sao_Paulo' },
      end: { dateTime: '2026-03-03T13:50:00.000Z', timeZone: 'America/Sao_Paulo' },
      attendees: [{ email: 'a@x.com' }],
      extendedProperties: { private: { innera: '1', inneraEventType: 'consultation', inneraAppointmentId: '7' } },
    })
  })

  it('takes null or empty for the optional related object and meeting link', () => {
    const payload = parseEventPayload({ start_time: '2026-03-03T13:00:00Z', end_time: '2026-03-03T14:00:00Z', related_object_id: null, meeting_link: '' })
    expect(payload).toMatchObject({ relatedObjectId: null, meetingLink: '' })
    expect(parseEventPayload({ start_time: '2026-03-03T13:00:00Z', end_time: '2026-03-03T14:00:00Z', related_object_id: '12' }).relatedObjectId).toBe(12)
  })
})

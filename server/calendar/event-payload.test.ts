import { describe, expect, it } from 'vitest'
import { eventDescription, eventTitle, googleEventOf, ownersText, parseEventPayload } from '#server/calendar/event-payload.ts'

describe('event titles (no more than the first name, LGPD)', () => {
  it('names a consultation by the patient’s first name only', () => {
    expect(eventTitle('consultation', 'Pedro Santos Silva')).toBe('Consulta Innera com Pedro')
    expect(eventTitle('consultation', '  Mariana  ')).toBe('Consulta Innera com Mariana')
    expect(eventTitle('consultation', '')).toBe('Consulta Innera')
    expect(eventTitle('class', 'Pedro')).toBe('Aula Innera')
    expect(eventTitle('personal', 'Pedro')).toBe('Compromisso pessoal')
    expect(eventTitle('other', 'Pedro')).toBe('Evento Innera')
  })

})

describe('event descriptions (no notes, LGPD: decision 0029)', () => {
  it('holds only Innera’s neutral lines: the manage link and the meeting link', () => {
    expect(eventDescription({ meetingLink: 'https://meet.jit.si/innera-x' })).toBe('Sala da consulta: https://meet.jit.si/innera-x')
    expect(eventDescription({ manageLink: 'https://innera.test/consultas/7', meetingLink: 'https://meet.jit.si/innera-x' })).toBe(
      'Gerenciar a consulta: https://innera.test/consultas/7\n\nSala da consulta: https://meet.jit.si/innera-x',
    )
    expect(eventDescription({})).toBe('')
  })

  it('keeps what the event’s owner wrote, before Innera’s lines', () => {
    expect(eventDescription({ meetingLink: 'https://meet.jit.si/b' }, ' Levar o crachá ')).toBe('Levar o crachá\n\nSala da consulta: https://meet.jit.si/b')
  })

  it('finds the owner’s text in a description Innera wrote lines into', () => {
    expect(ownersText('Levar o crachá\n\nSala da consulta: https://meet.jit.si/a')).toBe('Levar o crachá')
    expect(ownersText('Gerenciar a consulta: https://innera.test/consultas/7\n\nSala da consulta: https://meet.jit.si/a')).toBe('')
    expect(ownersText('Pauta:\n- orçamento\n\n\nSala da consulta: https://x.test\n\nFim')).toBe('Pauta:\n- orçamento\n\nFim')
    expect(ownersText('')).toBe('')
  })

  it('never puts the payload’s notes in the Google event', () => {
    const payload = parseEventPayload({ start_time: '2026-03-03T13:00:00Z', end_time: '2026-03-03T14:00:00Z', notes: 'Ansiedade, insônia', meeting_link: 'https://meet.jit.si/a' })
    expect(payload.notes).toBe('Ansiedade, insônia')
    const event = googleEventOf(payload, { timeZone: 'America/Sao_Paulo', appointmentId: null })
    expect(event.description).toBe('Sala da consulta: https://meet.jit.si/a')
    expect(JSON.stringify(event)).not.toContain('Ansiedade')
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
      notes: null,
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

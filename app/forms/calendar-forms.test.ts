import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { calendarIntentOf, eventFormSchema, eventIdField, splitAttendees } from './calendar-forms.ts'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}
const parse = (fields: Record<string, string>) => parseWithZod(form(fields), { schema: eventFormSchema })
const base = { date: '2026-12-01', start: '09:00', end: '09:50' }

describe('the event form', () => {
  test('a consultation by default; the optional fields empty; guests split, lower-cased, each once', () => {
    const submission = parse({ ...base, attendees: ' Ana@Example.com;bruno@example.com\nana@example.com ' })
    expect(submission.status === 'success' && submission.value).toEqual({
      event_type: 'consultation',
      ...base,
      patient_name: '',
      attendees: ['ana@example.com', 'bruno@example.com'],
      notes: '',
      meeting_link: '',
      related_object_id: null,
    })
  })

  test('says which field is wrong, with translation keys', () => {
    const errors = (fields: Record<string, string>) => parse(fields).reply().error
    expect(errors({ ...base, end: '08:00' })).toEqual({ end: ['calendar:validation.order'] })
    expect(errors({ ...base, start: '24:00' })).toEqual({ start: ['calendar:validation.time'] })
    expect(errors({ ...base, date: '2026-02-30' })).toEqual({ date: ['calendar:validation.date'] })
    expect(errors({ ...base, meeting_link: 'javascript:alert(1)' })).toEqual({ meeting_link: ['calendar:validation.meetingLink'] })
    expect(errors({ ...base, meeting_link: `https://meet.example.com/${'a'.repeat(500)}` })).toEqual({ meeting_link: ['calendar:validation.meetingLink'] })
    expect(errors({ ...base, related_object_id: '2147483648' })).toEqual({ related_object_id: ['calendar:validation.relatedObject'] })
    expect(errors({ ...base, patient_name: 'x'.repeat(201) })).toEqual({ patient_name: ['calendar:validation.nameTooLong'] })
  })

  test('event ids: printable, no path characters', () => {
    expect(eventIdField().safeParse('abc_20261201T130000Z').success).toBe(true)
    for (const id of ['', 'a/b', '../x', 'a b', 'a?b', 'x'.repeat(1025)]) expect(eventIdField().safeParse(id).success, id).toBe(false)
  })

  test('intents', () => {
    expect(calendarIntentOf('sync-full')).toBe('sync-full')
    expect(calendarIntentOf('drop-tables')).toBeNull()
    expect(calendarIntentOf(null)).toBeNull()
    expect(splitAttendees('')).toEqual([])
  })
})

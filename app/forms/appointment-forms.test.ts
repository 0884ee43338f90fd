import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { bookingIntentOf, bookingSchema, cancelSchema, startTimeMessage, upcomingLimitMessage } from './appointment-forms.ts'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('bookingSchema', () => {
  test('a chosen instant and trimmed notes; notes may be left out', () => {
    const submission = parseWithZod(form({ start_time: '2026-12-01T13:00:00.000Z', notes: '  Sono  ' }), { schema: bookingSchema })
    expect(submission.status === 'success' && submission.value).toEqual({ start_time: '2026-12-01T13:00:00.000Z', notes: 'Sono' })
    const bare = parseWithZod(form({ start_time: '2026-12-01T13:00Z' }), { schema: bookingSchema })
    expect(bare.status === 'success' && bare.value).toEqual({ start_time: '2026-12-01T13:00Z', notes: '' })
  })

  test('says which field is wrong, with translation keys', () => {
    const errors = (fields: Record<string, string>) => parseWithZod(form(fields), { schema: bookingSchema }).reply().error
    expect(errors({})).toEqual({ start_time: ['appointments:validation.chooseTime'] })
    expect(errors({ start_time: '2026-12-01 13:00' })).toEqual({ start_time: ['appointments:validation.chooseTime'] })
    expect(errors({ start_time: '2026-13-45T99:00:00Z' })).toEqual({ start_time: ['appointments:validation.chooseTime'] })
    expect(errors({ start_time: '2026-12-01T13:00:00Z', notes: 'x'.repeat(1001) })).toEqual({ notes: ['appointments:validation.notesTooLong'] })
    expect(parseWithZod(form({ reason: 'x'.repeat(501) }), { schema: cancelSchema }).reply().error).toEqual({ reason: ['appointments:validation.reasonTooLong'] })
  })

  test("carries the review step's key; anything that is not one is no key", () => {
    const key = 'Zq3k_-9vX2mP0aBcDeFgHiJk'
    const parsed = parseWithZod(form({ start_time: '2026-12-01T13:00:00.000Z', idempotency_key: key }), { schema: bookingSchema })
    expect(parsed.status === 'success' && parsed.value.idempotency_key).toBe(key)
    for (const forged of ['short', 'with spaces in it, long enough', 'x'.repeat(65)]) {
      const submission = parseWithZod(form({ start_time: '2026-12-01T13:00:00.000Z', idempotency_key: forged }), { schema: bookingSchema })
      expect(submission.status === 'success' && submission.value.idempotency_key).toBeUndefined()
    }
  })

  test('the button that sent the form; none (Enter in a field) is the first step', () => {
    expect(bookingIntentOf('confirm')).toBe('confirm')
    expect(bookingIntentOf('back')).toBe('back')
    expect(bookingIntentOf(null)).toBe('review')
    expect(bookingIntentOf('delete')).toBe('review')
  })
})

test('each provider message on start_time becomes ours, with its number', () => {
  expect(startTimeMessage('This time is inside the minimum notice of 1 hour.')).toEqual({ key: 'appointments:errors.notice', values: { count: 1 } })
  expect(startTimeMessage('This time is beyond the booking horizon of 90 days.')).toEqual({ key: 'appointments:errors.horizon', values: { count: 90 } })
  expect(startTimeMessage('This time is in the past.')).toEqual({ key: 'appointments:errors.past' })
  expect(startTimeMessage("This time is outside the professional's availability.")).toEqual({ key: 'appointments:errors.outside' })
  expect(startTimeMessage('Something new.')).toEqual({ key: 'appointments:errors.startTime' })
})

test("the provider's refusal past a limit becomes ours, with its number", () => {
  expect(upcomingLimitMessage('You already have 4 upcoming appointments with this professional.')).toEqual({ key: 'appointments:booking.limitProfessional', values: { count: 4 } })
  expect(upcomingLimitMessage('You already have 8 upcoming appointments.')).toEqual({ key: 'appointments:booking.limitTotal', values: { count: 8 } })
  expect(upcomingLimitMessage('You already have 1 upcoming appointment.')).toEqual({ key: 'appointments:booking.limitTotal', values: { count: 1 } })
  expect(upcomingLimitMessage(undefined)).toEqual({ key: 'appointments:booking.limitUnknown' })
})

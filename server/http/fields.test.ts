import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ApiError } from './errors'
import { booleanField, charField, emailField, integerField, isIsoDate, nullableDateField, passwordField, validate } from './fields'

function errorsOf(schema: z.ZodType, data: unknown) {
  try {
    validate(schema, data)
  } catch (error) {
    if (error instanceof ApiError) return error.body
    throw error
  }
  throw new Error('expected a validation error')
}

describe('DRF-style fields', () => {
  const schema = z.object({ email: emailField(), password: passwordField(), name: charField({ maxLength: 5 }) })

  it('reports every missing field with DRF messages', () => {
    expect(errorsOf(schema, {})).toEqual({
      email: ['This field is required.'],
      password: ['This field is required.'],
      name: ['This field is required.'],
    })
  })

  it('distinguishes blank, null, wrong type and too long', () => {
    expect(errorsOf(schema, { email: '  ', password: null, name: 'abcdefg' })).toEqual({
      email: ['This field may not be blank.'],
      password: ['This field may not be null.'],
      name: ['Ensure this field has no more than 5 characters.'],
    })
    expect(errorsOf(z.object({ name: charField() }), { name: 3 })).toEqual({ name: ['Not a valid string.'] })
  })

  it('validates e-mail addresses and trims them, but never passwords', () => {
    expect(errorsOf(schema, { email: 'not-an-email', password: 'x', name: 'a' })).toEqual({ email: ['Enter a valid email address.'] })
    expect(validate(schema, { email: ' Ana@Example.com ', password: ' pw ', name: 'a' })).toEqual({
      email: 'Ana@Example.com',
      password: ' pw ',
      name: 'a',
    })
  })

  it('parses dates strictly', () => {
    expect(isIsoDate('2024-02-29')).toBe(true)
    expect(isIsoDate('2023-02-29')).toBe(false)
    expect(isIsoDate('29/02/2024')).toBe(false)
    const dates = z.object({ birth_date: nullableDateField() })
    expect(validate(dates, { birth_date: '' })).toEqual({ birth_date: null })
    expect(errorsOf(dates, { birth_date: '2023-13-01' })).toEqual({
      birth_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    })
  })

  it('accepts DRF boolean spellings', () => {
    const flags = z.object({ on: booleanField() })
    expect(validate(flags, { on: 'true' })).toEqual({ on: true })
    expect(validate(flags, { on: 0 })).toEqual({ on: false })
    expect(errorsOf(flags, { on: 'maybe' })).toEqual({ on: ['Must be a valid boolean.'] })
  })

  it('parses integers from strings', () => {
    const ids = z.object({ id: integerField() })
    expect(validate(ids, { id: '42' })).toEqual({ id: 42 })
    expect(errorsOf(ids, { id: 'x' })).toEqual({ id: ['A valid integer is required.'] })
    expect(errorsOf(ids, {})).toEqual({ id: ['This field is required.'] })
  })
})

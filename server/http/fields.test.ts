import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ApiError } from './errors'
import { booleanField, charField, emailField, idField, isIsoDate, listField, nullableDateField, passwordField, validate } from './fields'

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

  it('parses ids from strings and numbers, within PostgreSQL integer range', () => {
    const ids = z.object({ id: idField() })
    expect(validate(ids, { id: '42' })).toEqual({ id: 42 })
    expect(validate(ids, { id: 2147483647 })).toEqual({ id: 2147483647 })
    expect(validate(ids, { id: ' 007 ' })).toEqual({ id: 7 })
    expect(errorsOf(ids, { id: 'x' })).toEqual({ id: ['A valid integer is required.'] })
    expect(errorsOf(ids, { id: 1.5 })).toEqual({ id: ['A valid integer is required.'] })
    expect(errorsOf(ids, {})).toEqual({ id: ['This field is required.'] })
    expect(errorsOf(ids, { id: null })).toEqual({ id: ['This field may not be null.'] })
    expect(errorsOf(ids, { id: '2147483648' })).toEqual({ id: ['Ensure this value is less than or equal to 2147483647.'] })
    expect(errorsOf(ids, { id: 1e21 })).toEqual({ id: ['Ensure this value is less than or equal to 2147483647.'] })
    expect(errorsOf(ids, { id: '9'.repeat(100_000) })).toEqual({ id: ['Ensure this value is less than or equal to 2147483647.'] })
    expect(errorsOf(ids, { id: '0' })).toEqual({ id: ['Ensure this value is greater than or equal to 1.'] })
    expect(errorsOf(ids, { id: '-5' })).toEqual({ id: ['Ensure this value is greater than or equal to 1.'] })
  })

  it('caps a list before looking at its items', () => {
    let itemsSeen = 0
    const item = z.string().refine(() => (itemsSeen += 1) > 0)
    const schema = z.object({ tags: listField(item, { maxLength: 3 }) })
    expect(validate(schema, { tags: ['a', 'b'] })).toEqual({ tags: ['a', 'b'] })
    itemsSeen = 0
    expect(errorsOf(schema, { tags: Array.from({ length: 100_000 }, () => 'x') })).toEqual({ tags: ['Ensure this field has no more than 3 elements.'] })
    expect(itemsSeen).toBe(0)
    expect(errorsOf(schema, { tags: 'a' })).toEqual({ tags: ['Expected a list of items but got type "str".'] })
    expect(errorsOf(schema, { tags: [1] })).toEqual({ tags: ['Invalid input: expected string, received number'] })
    expect(errorsOf(z.object({ tags: listField(item, { maxLength: 3, allowEmpty: false }) }), { tags: [] })).toEqual({ tags: ['This list may not be empty.'] })
  })
})

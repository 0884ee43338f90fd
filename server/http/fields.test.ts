import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ApiError } from '#server/http/errors.ts'
import {
  booleanField,
  charField,
  choiceField,
  dateField,
  emailField,
  fieldName,
  idField,
  instantField,
  integerField,
  isIsoDate,
  listField,
  nullableDateField,
  parseInstant,
  passwordField,
  timeZoneField,
  toFieldErrors,
  validate,
} from '#server/http/fields.ts'

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

  it('keeps dates and instants within the years 2000-2100, with DRF bound messages', () => {
    const dates = z.object({ date: dateField() })
    expect(validate(dates, { date: ' 2000-01-01 ' })).toEqual({ date: '2000-01-01' })
    expect(validate(dates, { date: '2100-12-31' })).toEqual({ date: '2100-12-31' })
    expect(errorsOf(dates, { date: '0999-01-04' })).toEqual({ date: ['Ensure this value is greater than or equal to 2000-01-01.'] })
    expect(errorsOf(dates, { date: '9999-12-27' })).toEqual({ date: ['Ensure this value is less than or equal to 2100-12-31.'] })
    expect(errorsOf(dates, { date: '+10000-01-01' })).toEqual({ date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] })
    expect(errorsOf(dates, {})).toEqual({ date: ['This field is required.'] })
    const birth = z.object({ birth_date: nullableDateField({ earliest: '1900-01-01' }) })
    expect(validate(birth, { birth_date: '1950-06-01' })).toEqual({ birth_date: '1950-06-01' })
    expect(errorsOf(birth, { birth_date: '0999-01-01' })).toEqual({ birth_date: ['Ensure this value is greater than or equal to 1900-01-01.'] })
    const instants = z.object({ at: instantField() })
    expect(errorsOf(instants, { at: '0999-01-01T00:00:00Z' })).toEqual({ at: ['Ensure this value is greater than or equal to 2000-01-01T00:00:00Z.'] })
    expect(errorsOf(instants, { at: '9999-12-31T12:00:00Z' })).toEqual({ at: ['Ensure this value is less than or equal to 2100-12-31T23:59:59Z.'] })
    expect(validate(instants, { at: '2100-12-31T23:59:59Z' })).toEqual({ at: Date.parse('2100-12-31T23:59:59Z') })
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

describe('choices', () => {
  it('takes one of the choices and names a wrong one, cut short', () => {
    const schema = z.object({ kind: choiceField(['class', 'personal']), other: choiceField(['a']).optional() })
    expect(validate(schema, { kind: 'class' })).toEqual({ kind: 'class' })
    expect(errorsOf(schema, { kind: 'yoga' })).toEqual({ kind: ['"yoga" is not a valid choice.'] })
    expect(errorsOf(schema, { kind: 'y'.repeat(100) })).toEqual({ kind: [`"${'y'.repeat(40)}…" is not a valid choice.`] })
    expect(errorsOf(schema, { kind: 3 })).toEqual({ kind: ['"3" is not a valid choice.'] })
    expect(errorsOf(schema, {})).toEqual({ kind: ['This field is required.'] })
    expect(errorsOf(schema, { kind: null })).toEqual({ kind: ['This field may not be null.'] })
  })
})

describe('integers, time zones and instants', () => {
  it('reads bounded integers as DRF does', () => {
    const schema = z.object({ minutes: integerField({ min: 15, max: 240 }) })
    expect(validate(schema, { minutes: 50 })).toEqual({ minutes: 50 })
    expect(validate(schema, { minutes: ' 60 ' })).toEqual({ minutes: 60 })
    expect(errorsOf(schema, {})).toEqual({ minutes: ['This field is required.'] })
    expect(errorsOf(schema, { minutes: null })).toEqual({ minutes: ['This field may not be null.'] })
    expect(errorsOf(schema, { minutes: 50.5 })).toEqual({ minutes: ['A valid integer is required.'] })
    expect(errorsOf(schema, { minutes: '9'.repeat(100_000) })).toEqual({ minutes: ['A valid integer is required.'] })
    expect(errorsOf(schema, { minutes: 10 })).toEqual({ minutes: ['Ensure this value is greater than or equal to 15.'] })
    expect(errorsOf(schema, { minutes: '241' })).toEqual({ minutes: ['Ensure this value is less than or equal to 240.'] })
  })

  it('accepts IANA time zones and UTC only', () => {
    const schema = z.object({ time_zone: timeZoneField() })
    for (const zone of ['America/Sao_Paulo', 'Europe/Lisbon', 'America/New_York', 'UTC']) expect(validate(schema, { time_zone: zone })).toEqual({ time_zone: zone })
    for (const zone of ['Mars/Olympus', 'america/sao_paulo', '-03:00', 'x'.repeat(65)]) {
      expect(Object.keys(errorsOf(schema, { time_zone: zone }))).toEqual(['time_zone'])
    }
    expect(errorsOf(schema, { time_zone: 'Nowhere/City' })).toEqual({ time_zone: ['Enter a valid time zone.'] })
  })

  it('reads instants with an offset, refusing wall times without one', () => {
    expect(parseInstant('2026-12-01T12:00:00.000Z')).toBe(Date.UTC(2026, 11, 1, 12))
    expect(parseInstant('2026-12-01T09:00-03:00')).toBe(Date.UTC(2026, 11, 1, 12))
    expect(parseInstant('2026-12-01T13:00:00.123456+0100')).toBe(Date.UTC(2026, 11, 1, 12, 0, 0, 123))
    for (const bad of ['2026-12-01T12:00:00', '2026-02-30T12:00Z', '2026-12-01T24:00Z', '2026-12-01', 'tomorrow', '2026-12-01 12:00Z']) expect(parseInstant(bad)).toBeUndefined()
    const schema = z.object({ start_time: instantField() })
    expect(errorsOf(schema, { start_time: 'soon' })).toEqual({
      start_time: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]](+HH:MM|-HH:MM|Z).'],
    })
    expect(errorsOf(schema, { start_time: 1_700_000_000_000 })).toEqual(errorsOf(schema, { start_time: 'soon' }))
    expect(errorsOf(schema, {})).toEqual({ start_time: ['This field is required.'] })
  })
})

describe('field errors by the input they are about', () => {
  it('names inputs as conform does', () => {
    expect(fieldName(['questions', 3, 'text', 'en'])).toBe('questions[3].text.en')
    expect(fieldName(['questions', 0, 'options', 2, 'es'])).toBe('questions[0].options[2].es')
    expect(fieldName(['title', 'pt'])).toBe('title.pt')
  })

  it('keys each message by its path down to the depth asked, DRF top-level fields by default', () => {
    const text = z.object({ pt: z.string().min(1, 'Fill it in.'), en: z.string().min(1, 'Fill it in.') })
    const schema = z.object({ title: text, questions: z.array(z.object({ text })), count: z.number({ message: 'A number.' }) })
    const result = schema.safeParse({ title: { pt: '', en: 'x' }, questions: [{ text: { pt: 'a', en: 'b' } }, { text: { pt: 'a', en: '' } }] })
    expect(result.success).toBe(false)
    const error = result.error!
    expect(toFieldErrors(error)).toEqual({ title: ['Fill it in.'], questions: ['Fill it in.'], count: ['A number.'] })
    expect(toFieldErrors(error, 2)).toEqual({ 'title.pt': ['Fill it in.'], 'questions[1]': ['Fill it in.'], count: ['A number.'] })
    expect(toFieldErrors(error, Infinity)).toEqual({ 'title.pt': ['Fill it in.'], 'questions[1].text.en': ['Fill it in.'], count: ['A number.'] })
    expect(toFieldErrors(z.object({}).refine(() => false, 'Not like this.').safeParse({}).error!)).toEqual({ non_field_errors: ['Not like this.'] })
  })
})

import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { contactFieldErrorKey, contactSchema } from './contact-form.ts'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

const good = { name: 'Ana Souza', email: 'ana@example.com', phone: '', subject: 'patient', message: 'Uma pergunta sobre o programa.' }

describe('contactSchema', () => {
  test('accepts a good message, trims it and takes the phone as optional', () => {
    const submission = parseWithZod(form({ ...good, name: '  Ana Souza  ', message: '  0123456789  ' }), { schema: contactSchema })
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toEqual({ ...good, message: '0123456789' })
  })

  test('says which field is wrong, with translation keys', () => {
    const errors = (fields: Record<string, string>) => parseWithZod(form(fields), { schema: contactSchema }).reply().error
    expect(errors({})).toEqual({ name: ['errors.required'], email: ['errors.required'], subject: ['errors.required'], message: ['errors.required'] })
    expect(errors({ ...good, email: 'ana@' })).toEqual({ email: ['errors.invalidEmail'] })
    expect(errors({ ...good, name: 'x'.repeat(151) })).toEqual({ name: ['validation.tooLong'] })
    expect(errors({ ...good, phone: '11 abc' })).toEqual({ phone: ['validation.phone'] })
    expect(errors({ ...good, phone: '9'.repeat(31) })).toEqual({ phone: ['validation.tooLong'] })
    expect(errors({ ...good, subject: 'doctor' })).toEqual({ subject: ['contact:validation.subject'] })
    expect(errors({ ...good, message: ' short ' })).toEqual({ message: ['contact:validation.messageTooShort'] })
    expect(errors({ ...good, message: 'x'.repeat(5001) })).toEqual({ message: ['contact:validation.messageTooLong'] })
  })
})

describe('contactFieldErrorKey', () => {
  test('gives each of the provider field errors one of our messages', () => {
    expect(contactFieldErrorKey('email', 'Enter a valid email address.')).toBe('errors.invalidEmail')
    expect(contactFieldErrorKey('name', 'This field may not be blank.')).toBe('errors.required')
    expect(contactFieldErrorKey('message', 'This field is required.')).toBe('errors.required')
    expect(contactFieldErrorKey('message', 'Ensure this field has at least 10 characters.')).toBe('contact:validation.messageTooShort')
    expect(contactFieldErrorKey('message', 'Ensure this field has no more than 5000 characters.')).toBe('contact:validation.messageTooLong')
    expect(contactFieldErrorKey('phone', 'Enter a valid phone number.')).toBe('validation.phone')
    expect(contactFieldErrorKey('phone', 'Ensure this field has no more than 30 characters.')).toBe('validation.tooLong')
    expect(contactFieldErrorKey('subject', '"x" is not a valid choice.')).toBe('contact:validation.subject')
    expect(contactFieldErrorKey('name', 'Ensure this field has no more than 150 characters.')).toBe('validation.tooLong')
  })
})

import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { changePasswordSchema, profileSchema } from './account-forms'

function form(fields: Record<string, string | File>) {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('profileSchema', () => {
  test('an untouched form with empty optional fields is valid', () => {
    const submission = parseWithZod(form({ first_name: 'Ana', last_name: '', phone: '', birth_date: '', bio: '', photo: new File([], '') }), { schema: profileSchema })
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toMatchObject({ first_name: 'Ana', phone: '', birth_date: '', bio: '' })
  })
  test('refuses a bad phone, a bad date and a missing first name', () => {
    const submission = parseWithZod(form({ first_name: '', phone: 'abc', birth_date: '2020-13-45' }), { schema: profileSchema })
    expect(submission.reply().error).toMatchObject({ first_name: ['errors.required'], phone: ['validation.phone'], birth_date: ['validation.birthDate'] })
  })
  test('names are letters, spaces, apostrophes, hyphens and dots; the last name may be empty (issue 22)', () => {
    const errors = (fields: Record<string, string>) => parseWithZod(form({ first_name: 'Ana', ...fields }), { schema: profileSchema }).reply().error ?? {}
    expect(errors({ first_name: 'Mariana https://evil.example/pix', last_name: 'Alves\nPIX' })).toMatchObject({ first_name: ['validation.personName'], last_name: ['validation.personName'] })
    expect(errors({ first_name: 'Ana Maria', last_name: '' })).not.toHaveProperty('first_name')
    expect(errors({ last_name: '' })).not.toHaveProperty('last_name')
  })
  test('a birth date is from 1900 to today', () => {
    const birth = (birth_date: string) => parseWithZod(form({ first_name: 'Ana', birth_date }), { schema: profileSchema }).reply().error?.birth_date
    expect(birth('1950-06-01')).toBeUndefined()
    for (const date of ['0999-01-04', '1899-12-31', '9999-12-27']) expect(birth(date)).toEqual(['validation.birthDate'])
  })
  test('refuses photos that are too big or not images', () => {
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' })
    const text = new File(['hello'], 'a.txt', { type: 'text/plain' })
    expect(parseWithZod(form({ first_name: 'Ana', photo: big }), { schema: profileSchema }).reply().error).toMatchObject({ photo: ['validation.photoTooBig'] })
    expect(parseWithZod(form({ first_name: 'Ana', photo: text }), { schema: profileSchema }).reply().error).toMatchObject({ photo: ['validation.photoType'] })
  })
})

test('changePasswordSchema reports every problem at once', () => {
  const submission = parseWithZod(form({ old_password: '', new_password: 'short', confirm_password: 'other' }), { schema: changePasswordSchema })
  expect(submission.reply().error).toMatchObject({ old_password: ['errors.required'], new_password: ['validation.passwordTooShort'], confirm_password: ['validation.passwordsDiffer'] })
})

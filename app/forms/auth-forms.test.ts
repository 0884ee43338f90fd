import { describe, expect, test } from 'vitest'
import { authModeOf, loginSchema, registerSchema, resetSchema } from './auth-forms'

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))

describe('loginSchema', () => {
  test('requires both fields, with the spec texts as keys', () => {
    expect(issues(loginSchema.safeParse({}))).toEqual({ email: 'errors.required', password: 'errors.required' })
    expect(issues(loginSchema.safeParse({ email: 'nope', password: 'x' }))).toEqual({ email: 'errors.invalidEmail' })
  })
  test('accepts a good sign-in', () => {
    expect(loginSchema.safeParse({ email: ' ana@example.com ', password: 'secret' })).toMatchObject({ success: true, data: { email: 'ana@example.com' } })
  })
})

describe('registerSchema', () => {
  const good = { username: 'ana.s', name: 'Ana Souza', email: 'ana@example.com', password: 'longenough1', confirmPassword: 'longenough1', acceptTerms: 'on' }
  test('accepts a complete registration', () => {
    expect(registerSchema.safeParse(good).success).toBe(true)
  })
  test('needs the consent, matching passwords and a clean username', () => {
    expect(issues(registerSchema.safeParse({ ...good, acceptTerms: undefined }))).toEqual({ acceptTerms: 'validation.acceptTerms' })
    expect(issues(registerSchema.safeParse({ ...good, confirmPassword: 'other' }))).toEqual({ confirmPassword: 'validation.passwordsDiffer' })
    expect(issues(registerSchema.safeParse({ ...good, username: 'ana souza' }))).toEqual({ username: 'validation.usernameChars' })
    expect(issues(registerSchema.safeParse({ ...good, password: 'short', confirmPassword: 'short' }))).toEqual({ password: 'validation.passwordTooShort' })
  })
  test('takes a name of letters, spaces, apostrophes, hyphens and dots only (issue 22)', () => {
    for (const name of ['Mariana https://evil.example/pix', 'Mariana\nPague o PIX', 'Ana 123']) expect(issues(registerSchema.safeParse({ ...good, name }))).toEqual({ name: 'validation.personName' })
    expect(registerSchema.safeParse({ ...good, name: "Inês d'Ávila-Marques" }).success).toBe(true)
  })
  test('refuses a filled honeypot', () => {
    expect(registerSchema.safeParse({ ...good, website: 'http://spam' }).success).toBe(false)
  })
})

test('resetSchema needs matching passwords', () => {
  expect(issues(resetSchema.safeParse({ password: 'longenough1', confirmPassword: 'longenough2' }))).toEqual({ confirmPassword: 'validation.passwordsDiffer' })
})

test('authModeOf defaults to login', () => {
  expect(authModeOf('register')).toBe('register')
  expect(authModeOf('hack')).toBe('login')
  expect(authModeOf(null)).toBe('login')
})

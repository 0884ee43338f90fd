import { describe, expect, it } from 'vitest'
import { quickRatio, validatePassword } from './password-rules'

describe('quickRatio', () => {
  it('matches Python difflib on known inputs', () => {
    expect(quickRatio('abcd', 'bcde')).toBeCloseTo(0.75)
    expect(quickRatio('', '')).toBe(1)
    expect(quickRatio('abc', 'xyz')).toBe(0)
  })
})

describe('validatePassword', () => {
  it('accepts a reasonable password', () => {
    expect(validatePassword('innera-demo-2025', { email: 'paciente@innera.local', username: 'paciente' })).toEqual([])
    expect(validatePassword('Caminhada ao sol 7', { email: 'ana@example.com' })).toEqual([])
  })

  it('reports short, common and numeric passwords together', () => {
    expect(validatePassword('1234567')).toEqual([
      'This password is too short. It must contain at least 8 characters.',
      'This password is entirely numeric.',
    ])
    expect(validatePassword('12345678')).toEqual(['This password is too common.', 'This password is entirely numeric.'])
    expect(validatePassword('Senha123')).toEqual(['This password is too common.'])
  })

  it('refuses a password too similar to the e-mail', () => {
    expect(validatePassword('mariana.alves', { email: 'mariana.alves@example.com' })).toContain(
      'The password is too similar to the email address.',
    )
    expect(validatePassword('alvesmariana', { email: 'mariana.alves@example.com' })).toContain(
      'The password is too similar to the email address.',
    )
  })

  it('refuses a password too similar to the names', () => {
    expect(validatePassword('ribeiro!', { firstName: 'Paula', lastName: 'Ribeiro' })).toContain(
      'The password is too similar to the last name.',
    )
  })
})

import { describe, expect, it } from 'vitest'
import { PASSWORD_MESSAGES } from '#server/auth/password-messages.ts'
import { quickRatio, validatePassword } from '#server/auth/password-rules.ts'

describe('quickRatio', () => {
  it('matches Python difflib on known inputs', () => {
    expect(quickRatio('abcd', 'bcde')).toBeCloseTo(0.75)
    expect(quickRatio('', '')).toBe(1)
    expect(quickRatio('abc', 'xyz')).toBe(0)
  })
})

describe('validatePassword', () => {
  it('accepts strong passwords', async () => {
    expect(await validatePassword('Caminhada ao sol 7', { email: 'ana@example.com' })).toEqual([])
    expect(await validatePassword('caminhada-matinal-8', { email: 'paciente@innera.local', username: 'paciente', firstName: 'Pedro' })).toEqual([])
    expect(await validatePassword('nova-senha-forte-9')).toEqual([])
  })

  it('reports short, common and numeric passwords together', async () => {
    expect(await validatePassword('1234567')).toEqual([PASSWORD_MESSAGES.tooShort, PASSWORD_MESSAGES.entirelyNumeric])
    expect(await validatePassword('12345678')).toEqual([PASSWORD_MESSAGES.tooCommon, PASSWORD_MESSAGES.entirelyNumeric])
    expect(await validatePassword('Senha123')).toEqual([PASSWORD_MESSAGES.tooCommon])
  })

  // Issue 10, finding 7: each of these was accepted by the old 64-entry list.
  it('refuses the weak passwords of the security report, each with its reason', async () => {
    expect(await validatePassword('aaaaaaaa')).toEqual([PASSWORD_MESSAGES.repeatedCharacter])
    expect(await validatePassword('        ')).toEqual([PASSWORD_MESSAGES.onlyWhitespace])
    expect(await validatePassword('qwerty12')).toEqual([PASSWORD_MESSAGES.tooCommon])
    expect(await validatePassword('innera-demo-2025')).toEqual([PASSWORD_MESSAGES.tooGuessable])
    expect(await validatePassword('innera-demo-2025', { email: 'paciente@innera.local', username: 'paciente' })).toEqual([
      PASSWORD_MESSAGES.tooGuessable,
    ])
    expect(await validatePassword('19871992')).toEqual([PASSWORD_MESSAGES.tooGuessable, PASSWORD_MESSAGES.entirelyNumeric])
    expect(await validatePassword('   ')).toEqual([PASSWORD_MESSAGES.tooShort, PASSWORD_MESSAGES.onlyWhitespace])
  })

  it('counts the user details as known words', async () => {
    const owner = { email: 'mariana.alves@example.com', firstName: 'Mariana', lastName: 'Alves' }
    expect(await validatePassword('mariana-alves-1990', owner)).toContain(PASSWORD_MESSAGES.tooGuessable)
    expect(await validatePassword('mariana gosta de nadar cedo', owner)).toEqual([])
  })

  it('refuses a password too similar to the e-mail', async () => {
    expect(await validatePassword('mariana.alves', { email: 'mariana.alves@example.com' })).toContain(PASSWORD_MESSAGES.similarToEmail)
    expect(await validatePassword('alvesmariana', { email: 'mariana.alves@example.com' })).toContain(PASSWORD_MESSAGES.similarToEmail)
  })

  it('refuses a password too similar to the names', async () => {
    expect(await validatePassword('ribeiro!', { firstName: 'Paula', lastName: 'Ribeiro' })).toContain(PASSWORD_MESSAGES.similarToLastName)
  })

  it('only ever answers one of the published messages', async () => {
    const known = new Set<string>(Object.values(PASSWORD_MESSAGES))
    for (const password of ['', 'x', 'aaaaaaaa', '        ', 'qwerty12', 'innera-demo-2025', '12345678', 'paciente1']) {
      for (const message of await validatePassword(password, { username: 'paciente', email: 'paciente@innera.local', firstName: 'Pedro', lastName: 'Santos' })) {
        expect(known.has(message)).toBe(true)
      }
    }
  })
})

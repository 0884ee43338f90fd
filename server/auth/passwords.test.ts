import { describe, expect, it } from 'vitest'
import { hashPassword, hasUsablePassword, makeUnusablePassword, verifyAgainstDummy, verifyPassword } from '#server/auth/passwords.ts'

describe('passwords', () => {
  it('stores scrypt hashes with their parameters and a random salt', async () => {
    const first = await hashPassword('correct horse')
    const second = await hashPassword('correct horse')
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(first).not.toBe(second)
  })

  it('verifies the right password and rejects others', async () => {
    const stored = await hashPassword('correct horse')
    expect(await verifyPassword('correct horse', stored)).toBe(true)
    expect(await verifyPassword('correct horse ', stored)).toBe(false)
  })

  it('honours the parameters stored in the hash', async () => {
    const cheap = await hashPassword('pw', { N: 1024, r: 8, p: 1 })
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true)
    expect(await verifyPassword('pw', cheap)).toBe(true)
  })

  it('never verifies malformed or unusable hashes', async () => {
    expect(await verifyPassword('pw', 'md5$abc')).toBe(false)
    expect(await verifyPassword('pw', 'scrypt$x$8$1$c2FsdA==$aGFzaA==')).toBe(false)
    const unusable = makeUnusablePassword()
    expect(hasUsablePassword(unusable)).toBe(false)
    expect(await verifyPassword('', unusable)).toBe(false)
    expect(await verifyAgainstDummy('pw')).toBe(false)
  })
})

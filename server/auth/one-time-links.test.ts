import { describe, expect, it } from 'vitest'
import { createLinkTokenGenerator, decodeUid, encodeUid, type LinkSubject } from '#server/auth/one-time-links.ts'

const THREE_DAYS = 3 * 24 * 3600

function setup() {
  let now = Date.UTC(2025, 4, 1, 9, 30)
  const generator = createLinkTokenGenerator({ secret: 's3cret', purpose: 'password-reset', timeoutSeconds: THREE_DAYS, clock: () => now })
  return { generator, advance: (seconds: number) => (now += seconds * 1000) }
}

const user: LinkSubject = { id: 5, password: 'scrypt$1$1$1$a$b', lastLogin: null, email: 'ana@example.com' }

describe('one-time link tokens', () => {
  it('checks a fresh token for its user only', () => {
    const { generator } = setup()
    const token = generator.make(user)
    expect(token).toMatch(/^[0-9a-z]+-[0-9a-f]{32}$/)
    expect(generator.check(user, token)).toBe(true)
    expect(generator.check({ ...user, id: 6 }, token)).toBe(false)
  })

  it('dies when the password, the last login or the e-mail changes', () => {
    const { generator } = setup()
    const token = generator.make(user)
    expect(generator.check({ ...user, password: 'scrypt$other' }, token)).toBe(false)
    expect(generator.check({ ...user, lastLogin: new Date() }, token)).toBe(false)
    expect(generator.check({ ...user, email: 'ana@example.org' }, token)).toBe(false)
  })

  it('expires after the timeout', () => {
    const { generator, advance } = setup()
    const token = generator.make(user)
    advance(THREE_DAYS)
    expect(generator.check(user, token)).toBe(true)
    advance(1)
    expect(generator.check(user, token)).toBe(false)
  })

  it('is bound to its purpose', () => {
    const { generator } = setup()
    const other = createLinkTokenGenerator({ secret: 's3cret', purpose: 'email-confirmation', timeoutSeconds: THREE_DAYS, clock: () => Date.UTC(2025, 4, 1, 9, 30) })
    expect(other.check(user, generator.make(user))).toBe(false)
  })

  it('rejects malformed tokens', () => {
    const { generator } = setup()
    expect(generator.check(user, 'garbage')).toBe(false)
    expect(generator.check(user, 'zzzzzzzzzzzzzzzz-00000000000000000000000000000000')).toBe(false)
  })
})

describe('uid encoding', () => {
  it('round-trips like Django', () => {
    expect(encodeUid(1)).toBe('MQ')
    expect(encodeUid(42)).toBe('NDI')
    expect(decodeUid(encodeUid(123456))).toBe(123456)
  })

  it('refuses anything that is not a positive id', () => {
    expect(decodeUid('')).toBeUndefined()
    expect(decodeUid('!!')).toBeUndefined()
    expect(decodeUid(Buffer.from('abc').toString('base64url'))).toBeUndefined()
    expect(decodeUid(Buffer.from('0').toString('base64url'))).toBeUndefined()
  })
})

import { describe, expect, test } from 'vitest'
import { decodeClaims, expiryOf, isExpired } from './tokens'

function jwt(claims: Record<string, unknown>) {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`
}

describe('tokens', () => {
  test('reads exp from the payload', () => {
    expect(expiryOf(jwt({ exp: 1_700_000_000, user_id: 3 }))).toBe(1_700_000_000)
    expect(decodeClaims(jwt({ user_id: 3, name: 'Ção' }))).toMatchObject({ user_id: 3, name: 'Ção' })
  })

  test('garbage has no claims and counts as expired', () => {
    expect(decodeClaims('not-a-token')).toBeNull()
    expect(decodeClaims('a.%%%.c')).toBeNull()
    expect(expiryOf(jwt({ user_id: 1 }))).toBeNull()
    expect(isExpired('nope', Date.now())).toBe(true)
    expect(isExpired(undefined, Date.now())).toBe(true)
  })

  test('expiry with a safety margin', () => {
    const now = 1_700_000_000_000
    const token = jwt({ exp: now / 1000 + 30 })
    expect(isExpired(token, now)).toBe(false)
    expect(isExpired(token, now, 10)).toBe(false)
    expect(isExpired(token, now, 30)).toBe(true)
    expect(isExpired(token, now + 31_000)).toBe(true)
  })
})

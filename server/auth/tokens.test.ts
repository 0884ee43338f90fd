import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { createTokenService, InvalidTokenError } from '#server/auth/tokens.ts'

function setup() {
  let now = Date.UTC(2025, 2, 18, 12, 0, 0)
  const service = createTokenService({ secret: 'test-secret', accessLifetimeSeconds: 300, refreshLifetimeSeconds: 86_400, clock: () => now })
  return { service, advance: (seconds: number) => (now += seconds * 1000), now: () => now }
}

describe('token service', () => {
  it('issues simplejwt-shaped tokens with configured lifetimes', async () => {
    const { service, now } = setup()
    const { access, refresh } = await service.issuePair(7, 'session-7')
    expect(decodeProtectedHeader(access)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const accessClaims = decodeJwt(access)
    const refreshClaims = decodeJwt(refresh)
    const issuedAt = now() / 1000
    expect(accessClaims).toMatchObject({ token_type: 'access', user_id: 7, sid: 'session-7', iat: issuedAt, exp: issuedAt + 300 })
    expect(refreshClaims).toMatchObject({ token_type: 'refresh', user_id: 7, sid: 'session-7', exp: issuedAt + 86_400 })
    expect(accessClaims.jti).toMatch(/^[0-9a-f]{32}$/)
    expect(accessClaims.jti).not.toBe(refreshClaims.jti)
  })

  it('verifies until expiry and refuses afterwards', async () => {
    const { service, advance } = setup()
    const access = await service.issueAccess(1, 's')
    advance(299)
    await expect(service.verify(access, 'access')).resolves.toMatchObject({ user_id: 1, sid: 's' })
    advance(2)
    await expect(service.verify(access, 'access')).rejects.toBeInstanceOf(InvalidTokenError)
  })

  it('refuses a token of the wrong type', async () => {
    const { service } = setup()
    const { refresh } = await service.issuePair(1, 's')
    await expect(service.verify(refresh, 'access')).rejects.toThrow('Token has wrong type')
    await expect(service.verify(refresh)).resolves.toMatchObject({ token_type: 'refresh' })
  })

  it('refuses tokens signed with another secret or tampered with', async () => {
    const { service } = setup()
    const other = createTokenService({ secret: 'other', accessLifetimeSeconds: 300, refreshLifetimeSeconds: 300, clock: Date.now })
    await expect(service.verify(await other.issueAccess(1, 's'))).rejects.toBeInstanceOf(InvalidTokenError)
    await expect(service.verify('not.a.token')).rejects.toBeInstanceOf(InvalidTokenError)
    // The same signature on another user's claims, and an unsigned token ("alg": "none").
    const access = await service.issueAccess(1, 's')
    const [header, payload, signature] = access.split('.')
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(access), user_id: 2 })).toString('base64url')
    await expect(service.verify(`${header}.${forged}.${signature}`)).rejects.toBeInstanceOf(InvalidTokenError)
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    await expect(service.verify(`${none}.${payload}.`)).rejects.toBeInstanceOf(InvalidTokenError)
    await expect(service.verify(`${none}.${payload}`)).rejects.toBeInstanceOf(InvalidTokenError)
  })

  it('refuses a token without an expiry', async () => {
    const { service, now } = setup()
    const endless = await new SignJWT({ token_type: 'access', user_id: 1, sid: 's', jti: '0123456789abcdef0123456789abcdef' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now() / 1000)
      .sign(new TextEncoder().encode('test-secret'))
    await expect(service.verify(endless, 'access')).rejects.toBeInstanceOf(InvalidTokenError)
  })

  // Issue 10, finding 2: tokens issued before sessions existed cannot be revoked, so they are refused.
  it('refuses a token without a session id', async () => {
    const { service, now } = setup()
    const issuedAt = now() / 1000
    const legacy = await new SignJWT({ token_type: 'access', user_id: 1 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 300)
      .setJti('0123456789abcdef0123456789abcdef')
      .sign(new TextEncoder().encode('test-secret'))
    await expect(service.verify(legacy, 'access')).rejects.toThrow('Token has no valid claims')
  })
})

import { createSecretKey, randomUUID } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import { toSeconds, type Clock } from '#server/clock.ts'

/**
 * JWTs shaped like djangorestframework-simplejwt's: HS256 with the claims token_type, exp,
 * iat, jti and user_id, plus sid: the server-side session (auth/sessions.ts) that must still be
 * live for the token to count. Access and refresh tokens differ only by token_type and lifetime.
 */
export type TokenType = 'access' | 'refresh'

export type TokenClaims = {
  token_type: TokenType
  exp: number
  iat: number
  jti: string
  user_id: number
  sid: string
}

export type TokenPair = { access: string; refresh: string }

export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'InvalidTokenError'
  }
}

export type TokenServiceOptions = {
  secret: string
  accessLifetimeSeconds: number
  refreshLifetimeSeconds: number
  clock: Clock
}

export function createTokenService({ secret, accessLifetimeSeconds, refreshLifetimeSeconds, clock }: TokenServiceOptions) {
  // A KeyObject made once: given the raw bytes, jose would import a new HMAC key on every call
  // (a measurable part of each authenticated request).
  const key = createSecretKey(Buffer.from(secret, 'utf8'))
  const lifetimes: Record<TokenType, number> = { access: accessLifetimeSeconds, refresh: refreshLifetimeSeconds }

  async function issue(type: TokenType, userId: number, sessionId: string): Promise<string> {
    const issuedAt = toSeconds(clock())
    return new SignJWT({ token_type: type, user_id: userId, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetimes[type])
      // simplejwt's jti is a uuid4 hex string without dashes.
      .setJti(randomUUID().replaceAll('-', ''))
      .sign(key)
  }

  /** Verifies signature, expiry and (when given) the token type. Throws InvalidTokenError. */
  async function verify(token: string, expectedType?: TokenType): Promise<TokenClaims> {
    let payload: Record<string, unknown>
    try {
      ;({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(clock()) }))
    } catch {
      throw new InvalidTokenError('Token is invalid or expired')
    }
    const { token_type, user_id, jti, exp, iat, sid } = payload
    // Tokens from before sessions existed have no sid: they cannot be revoked, so they are refused.
    if ((token_type !== 'access' && token_type !== 'refresh') || typeof user_id !== 'number' || typeof jti !== 'string' || typeof sid !== 'string') {
      throw new InvalidTokenError('Token has no valid claims')
    }
    if (expectedType && token_type !== expectedType) throw new InvalidTokenError('Token has wrong type')
    return { token_type, user_id, jti, exp: Number(exp), iat: Number(iat), sid }
  }

  return {
    /** Only sessions.ts calls these: every pair belongs to a session row it has just stored. */
    issueAccess: (userId: number, sessionId: string) => issue('access', userId, sessionId),
    issuePair: async (userId: number, sessionId: string): Promise<TokenPair> => ({
      refresh: await issue('refresh', userId, sessionId),
      access: await issue('access', userId, sessionId),
    }),
    accessLifetimeSeconds,
    refreshLifetimeSeconds,
    verify,
  }
}

export type TokenService = ReturnType<typeof createTokenService>

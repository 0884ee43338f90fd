import { randomUUID } from 'node:crypto'
import { createSigner, createVerifier } from 'fast-jwt'
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

type TokenServiceOptions = {
  secret: string
  accessLifetimeSeconds: number
  refreshLifetimeSeconds: number
  clock: Clock
}

export function createTokenService({ secret, accessLifetimeSeconds, refreshLifetimeSeconds, clock }: TokenServiceOptions) {
  // fast-jwt signs and verifies HS256 synchronously with node:crypto. jose's Web Crypto verify is a
  // round trip through the thread pool on every authenticated request (about a tenth of the
  // provider's CPU for a page). The times come from the service's clock, not fast-jwt's.
  const sign = createSigner({ key: secret, algorithm: 'HS256' })
  const decodeVerified = createVerifier({ key: secret, algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true, requiredClaims: ['exp'] })
  const lifetimes: Record<TokenType, number> = { access: accessLifetimeSeconds, refresh: refreshLifetimeSeconds }

  async function issue(type: TokenType, userId: number, sessionId: string): Promise<string> {
    const issuedAt = toSeconds(clock())
    // simplejwt's jti is a uuid4 hex string without dashes.
    return sign({ token_type: type, user_id: userId, sid: sessionId, iat: issuedAt, exp: issuedAt + lifetimes[type], jti: randomUUID().replaceAll('-', '') })
  }

  /** Verifies signature, expiry and (when given) the token type. Throws InvalidTokenError. */
  async function verify(token: string, expectedType?: TokenType): Promise<TokenClaims> {
    let payload: Record<string, unknown>
    try {
      payload = decodeVerified(token) as Record<string, unknown>
    } catch {
      throw new InvalidTokenError('Token is invalid or expired')
    }
    const { token_type, user_id, jti, exp, iat, sid } = payload
    if (typeof exp !== 'number' || !(exp > toSeconds(clock()))) throw new InvalidTokenError('Token is invalid or expired')
    // Tokens from before sessions existed have no sid: they cannot be revoked, so they are refused.
    if ((token_type !== 'access' && token_type !== 'refresh') || typeof user_id !== 'number' || typeof jti !== 'string' || typeof sid !== 'string') {
      throw new InvalidTokenError('Token has no valid claims')
    }
    if (expectedType && token_type !== expectedType) throw new InvalidTokenError('Token has wrong type')
    return { token_type, user_id, jti, exp, iat: Number(iat), sid }
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

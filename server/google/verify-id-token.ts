import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose'
import type { Clock } from '#server/clock.ts'

export type GoogleIdentity = {
  subject: string
  email: string
  name: string
  givenName: string
  familyName: string
}

export type GoogleIdTokenVerifier = (idToken: string) => Promise<GoogleIdentity>

export class InvalidGoogleTokenError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'InvalidGoogleTokenError'
  }
}

// Google issues tokens with either spelling of its issuer.
const GOOGLE_ISSUER_ALIASES: Record<string, string[]> = {
  'https://accounts.google.com': ['https://accounts.google.com', 'accounts.google.com'],
}

/**
 * Verifies a Google id_token the way Google documents: RS256 signature from the JWKS,
 * issuer, audience (our client id), expiry, and a verified e-mail.
 */
export function createGoogleIdTokenVerifier(options: {
  jwksUrl: string
  issuer: string
  clientId: string
  clock: Clock
  fetch: typeof fetch
}): GoogleIdTokenVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    [customFetch]: (url, init) => options.fetch(url, init),
  })
  const issuers = GOOGLE_ISSUER_ALIASES[options.issuer] ?? [options.issuer]

  return async (idToken) => {
    let payload: Record<string, unknown>
    try {
      ;({ payload } = await jwtVerify(idToken, keys, {
        algorithms: ['RS256'],
        issuer: issuers,
        audience: options.clientId,
        currentDate: new Date(options.clock()),
        requiredClaims: ['sub', 'exp'],
      }))
    } catch (error) {
      throw new InvalidGoogleTokenError(error instanceof Error ? error.message : 'verification failed')
    }
    const { sub, email, email_verified, name, given_name, family_name } = payload
    if (typeof sub !== 'string' || typeof email !== 'string' || email === '') throw new InvalidGoogleTokenError('missing sub or email')
    if (email_verified !== true && email_verified !== 'true') throw new InvalidGoogleTokenError('email not verified')
    const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
    return { subject: sub, email: email.trim(), name: text(name), givenName: text(given_name), familyName: text(family_name) }
  }
}

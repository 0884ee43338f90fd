import { apiError, invalidBearerToken, notAuthenticated, permissionDenied } from '#server/http/errors.ts'
import type { AppContext } from '#server/http/api.ts'
import type { Services } from '#server/services.ts'
import { findSessionUserWithGroups } from '#server/auth/session-users.ts'
import type { UserRow } from '#server/users/repository.ts'
import { InvalidTokenError, type TokenClaims } from '#server/auth/tokens.ts'

export type Role = 'admin' | 'profissional' | 'paciente'
export type Caller = { user: UserRow; groups: string[] }

/**
 * simplejwt's JWTAuthentication: a `Bearer <access token>` header, verified and mapped to an
 * active user on every request (so deactivation takes effect at once). No header means
 * "not provided"; a refresh token or any bad token is "not valid for any token type", and so is
 * a token whose session was revoked (logout, password change) or no longer exists.
 */
/** How a request's session is looked up: the caller, and whatever else an endpoint reads with it. */
type SessionLookup<C extends Caller> = (db: Services['db'], session: { userId: number; sessionId: string; now: number }) => Promise<C | undefined>

export async function authenticate<C extends Caller = Caller>(
  c: AppContext,
  { tokens, db, clock }: Services,
  lookup: SessionLookup<C> = findSessionUserWithGroups as unknown as SessionLookup<C>,
): Promise<C> {
  const header = c.req.header('authorization')
  if (!header) throw notAuthenticated()
  const [scheme, token, ...rest] = header.trim().split(/\s+/)
  if (scheme?.toLowerCase() !== 'bearer') throw notAuthenticated()
  if (!token || rest.length > 0) {
    throw apiError(401, 'Authorization header must contain two space-delimited values')
  }

  let claims: TokenClaims
  try {
    claims = await tokens.verify(token, 'access')
  } catch (error) {
    if (error instanceof InvalidTokenError) throw invalidBearerToken(error.message)
    throw error
  }

  const found = await lookup(db, { userId: claims.user_id, sessionId: claims.sid, now: clock() })
  // A deleted user's sessions are deleted with it, so this also covers simplejwt's "User not found".
  if (!found) throw invalidBearerToken('Token is invalid or expired')
  if (!found.user.isActive) throw apiError(401, 'User is inactive')
  return found
}

/** The caller's role (docs/product.md §6): case-insensitive, first recognised group wins, default paciente. */
export function roleOf(groups: string[]): Role {
  for (const group of groups) {
    const name = group.toLowerCase()
    if (name === 'admin' || name === 'profissional' || name === 'paciente') return name
  }
  return 'paciente'
}

export function requireRole(caller: Caller, ...roles: Role[]): void {
  if (!roles.includes(roleOf(caller.groups))) throw permissionDenied()
}

export async function authenticateWithRole(c: AppContext, services: Services, ...roles: Role[]): Promise<Caller> {
  const caller = await authenticate(c, services)
  requireRole(caller, ...roles)
  return caller
}

/** authenticateWithRole with another session lookup (one that reads more in the same statement). */
export async function authenticateWithRoleUsing<C extends Caller>(c: AppContext, services: Services, lookup: SessionLookup<C>, ...roles: Role[]): Promise<C> {
  const caller = await authenticate(c, services, lookup)
  requireRole(caller, ...roles)
  return caller
}

import { createHash, randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { jwtVerify, SignJWT, type JWTPayload } from 'jose'
import { toSeconds } from '#server/clock.ts'
import type { Database } from '#server/db/client.ts'
import { fakeGoogleGrants } from '#server/db/schema.ts'
import { fakeGoogleKey } from '#server/fakes/google/keys.ts'

/**
 * The fake Google's tokens: RS256 JWTs signed with its key (access and id tokens), and for
 * offline access a grant whose refresh token is random and kept only as a SHA-256. An access
 * token minted from a grant names it (`gid`), so revoking the grant also stops its access tokens,
 * as at Google.
 */

export const FAKE_TOKEN_LIFETIME_SECONDS = 3599

type FakeGrant = typeof fakeGoogleGrants.$inferSelect

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export async function signFakeGoogleToken(
  db: Database,
  { issuer, audience, subject, now, claims }: { issuer: string; audience: string; subject: string; now: number; claims: Record<string, unknown> },
): Promise<string> {
  const key = await fakeGoogleKey(db)
  const issuedAt = toSeconds(now)
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + FAKE_TOKEN_LIFETIME_SECONDS)
    .sign(key.privateKey)
}

/** The claims of a valid, unexpired access token of the fake, or undefined. */
export async function verifyFakeAccessToken(db: Database, { issuer, token, now }: { issuer: string; token: string; now: number }): Promise<JWTPayload | undefined> {
  const key = await fakeGoogleKey(db)
  try {
    const { payload } = await jwtVerify(token, key.publicJwk, { issuer, algorithms: ['RS256'], currentDate: new Date(now) })
    return payload.token_use === 'access' && typeof payload.sub === 'string' ? payload : undefined
  } catch {
    return undefined
  }
}

/** A new offline grant: its id and the refresh token (which exists only in this answer). */
export async function createFakeGrant(
  db: Database,
  values: { subject: string; email: string; clientId: string; scope: string; now: number },
): Promise<{ grant: FakeGrant; refreshToken: string }> {
  const refreshToken = `1//${randomBytes(36).toString('base64url')}`
  const [grant] = await db
    .insert(fakeGoogleGrants)
    .values({ subject: values.subject, email: values.email, clientId: values.clientId, scope: values.scope, refreshTokenHash: hashToken(refreshToken), createdAt: new Date(values.now) })
    .returning()
  return { grant: grant!, refreshToken }
}

export async function findLiveGrantByRefreshToken(db: Database, refreshToken: string): Promise<FakeGrant | undefined> {
  const [grant] = await db
    .select()
    .from(fakeGoogleGrants)
    .where(and(eq(fakeGoogleGrants.refreshTokenHash, hashToken(refreshToken)), isNull(fakeGoogleGrants.revokedAt)))
  return grant
}

export async function findLiveGrant(db: Database, id: number): Promise<FakeGrant | undefined> {
  const [grant] = await db
    .select()
    .from(fakeGoogleGrants)
    .where(and(eq(fakeGoogleGrants.id, id), isNull(fakeGoogleGrants.revokedAt)))
  return grant
}

async function revokeFakeGrant(db: Database, id: number, now: number): Promise<boolean> {
  const revoked = await db
    .update(fakeGoogleGrants)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(fakeGoogleGrants.id, id), isNull(fakeGoogleGrants.revokedAt)))
    .returning({ id: fakeGoogleGrants.id })
  return revoked.length > 0
}

/** Every live grant of an account (the dev helper behind "the user removed Innera's access"). */
export async function revokeFakeGrantsOf(db: Database, subject: string, now: number): Promise<number> {
  const revoked = await db
    .update(fakeGoogleGrants)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(fakeGoogleGrants.subject, subject), isNull(fakeGoogleGrants.revokedAt)))
    .returning({ id: fakeGoogleGrants.id })
  return revoked.length
}

/**
 * Revokes the grant a token belongs to, whether the token is its refresh token or an access token
 * minted from it (Google's revoke endpoint takes either). False when the token names no live grant.
 */
export async function revokeFakeToken(db: Database, { issuer, token, now }: { issuer: string; token: string; now: number }): Promise<boolean> {
  const byRefresh = await findLiveGrantByRefreshToken(db, token)
  if (byRefresh) return revokeFakeGrant(db, byRefresh.id, now)
  const claims = await verifyFakeAccessToken(db, { issuer, token, now })
  return typeof claims?.gid === 'number' ? revokeFakeGrant(db, claims.gid, now) : false
}

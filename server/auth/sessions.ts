import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lte, type Placeholder } from 'drizzle-orm'
import type { Clock } from '#server/clock.ts'
import type { Database } from '#server/db/client.ts'
import { authSessions, users } from '#server/db/schema.ts'
import type { TokenPair, TokenService } from '#server/auth/tokens.ts'

/**
 * Server-side sessions behind the stateless JWTs. A token counts only while the session named
 * by its `sid` claim exists, has not been revoked and has not expired; revoking is one UPDATE,
 * so logout and password changes end copies of old tokens at once, in every provider process.
 * A session lives as long as its tokens can (refresh does not rotate).
 */
type SessionDeps = { db: Database; tokens: TokenService; clock: Clock }

export const newSessionId = () => randomBytes(32).toString('base64url')

/** Stores a new session for the user and issues its token pair. */
export async function startSession({ db, tokens, clock }: SessionDeps, userId: number): Promise<TokenPair> {
  const id = newSessionId()
  const now = clock()
  // The user's dead sessions go as they start a new one, so the table stays the size of the live ones.
  await db.delete(authSessions).where(and(eq(authSessions.userId, userId), lte(authSessions.expiresAt, new Date(now))))
  await db.insert(authSessions).values({
    id,
    userId,
    createdAt: new Date(now),
    // As long as the longest-lived token it issues (the refresh token, unless configured otherwise).
    expiresAt: new Date(now + Math.max(tokens.refreshLifetimeSeconds, tokens.accessLifetimeSeconds) * 1000),
  })
  return tokens.issuePair(userId, id)
}

/**
 * The conditions of a live session of that user: used by every check, so they never drift apart.
 * Each value may be a placeholder, for a prepared query (`now` is then an ISO timestamp).
 */
export const liveSession = (sessionId: string | Placeholder, userId: number | Placeholder, now: number | Placeholder) =>
  and(
    eq(authSessions.id, sessionId),
    eq(authSessions.userId, userId),
    isNull(authSessions.revokedAt),
    gt(authSessions.expiresAt, typeof now === 'number' ? new Date(now) : now),
  )

/** The session's user if the session is live (active or not: the caller decides what that means). */
export async function sessionUser(db: Database, sessionId: string, userId: number, now: number) {
  const [row] = await db
    .select({ id: users.id, isActive: users.isActive })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(liveSession(sessionId, userId, now))
  return row
}

/** Revokes one session (logout). True when it was live. */
export async function revokeSession(db: Database, sessionId: string, userId: number, now: number): Promise<boolean> {
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: new Date(now) })
    .where(liveSession(sessionId, userId, now))
    .returning({ id: authSessions.id })
  return rows.length > 0
}

/** Revokes every live session of the user (password changed or reset). */
export async function revokeAllSessions(db: Database, userId: number, now: number): Promise<void> {
  await db
    .update(authSessions)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)))
}

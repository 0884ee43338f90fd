import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { calendarFeeds, passwordResetTokens, users } from '#server/db/schema.ts'
import type { UserRow } from '#server/users/repository.ts'
import { revokeAllSessions } from '#server/auth/sessions.ts'

/**
 * Password-reset link tokens: 32 random bytes (base64url, 43 characters) of which only the
 * SHA-256 is stored. A token is good for one hour and one successful reset; five refused new
 * passwords kill it, so a leaked link cannot be used to guess for long while a user who typed a
 * weak password can still try again. Issuing a link, and a successful reset, end the user's
 * other links.
 */
const RESET_TOKEN_LIFETIME_SECONDS = 3600
const RESET_TOKEN_MAX_FAILED_ATTEMPTS = 5

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** The token's row conditions: this user, unused, unexpired, not worn out by failed attempts. */
const usable = (userId: number, tokenHash: string, now: number) =>
  and(
    eq(passwordResetTokens.tokenHash, tokenHash),
    eq(passwordResetTokens.userId, userId),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, new Date(now)),
    lt(passwordResetTokens.failedAttempts, RESET_TOKEN_MAX_FAILED_ATTEMPTS),
  )

/** A new token for the user; their earlier ones stop working. */
export async function issueResetToken(db: Database, userId: number, now: number): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await db.transaction(async (tx) => {
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))
    await tx.insert(passwordResetTokens).values({
      userId,
      tokenHash: hashToken(token),
      createdAt: new Date(now),
      expiresAt: new Date(now + RESET_TOKEN_LIFETIME_SECONDS * 1000),
    })
  })
  return token
}

type ResetTicket = { tokenId: number; user: UserRow }

/** The active user a token is good for, or undefined. Malformed input never reaches the database. */
export async function findResetTicket(db: Database, userId: number | undefined, token: string, now: number): Promise<ResetTicket | undefined> {
  if (userId === undefined || !TOKEN_PATTERN.test(token)) return undefined
  const [row] = await db
    .select({ tokenId: passwordResetTokens.id, user: users })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(and(usable(userId, hashToken(token), now), eq(users.isActive, true)))
  return row
}

/** Counts a refused new password against the token. */
export async function recordFailedAttempt(db: Database, tokenId: number): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ failedAttempts: sql`${passwordResetTokens.failedAttempts} + 1` })
    .where(eq(passwordResetTokens.id, tokenId))
}

/**
 * Uses the token up and sets the new password hash in one transaction. The UPDATE ... RETURNING
 * claims the token, so of two concurrent uses only one gets a row back; false for the other.
 * The user's other reset tokens are deleted, all their sessions revoked and their calendar feed
 * revoked with it.
 */
export async function consumeResetToken(
  db: Database,
  { userId, token, now, passwordHash }: { userId: number; token: string; now: number; passwordHash: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date(now) })
      .where(usable(userId, hashToken(token), now))
      .returning({ id: passwordResetTokens.id })
    if (!claimed) return false
    // Following a link sent to the address also proves the address is theirs.
    await tx.update(users).set({ password: passwordHash, emailVerified: true }).where(eq(users.id, userId))
    await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, userId), ne(passwordResetTokens.id, claimed.id)))
    // Whoever knew the old password (or holds a stolen session) is signed out everywhere, and
    // loses the private calendar feed too: the account may have been in other hands, which may
    // have copied its link. The owner makes a new one in the settings.
    await revokeAllSessions(tx as unknown as Database, userId, now)
    await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId))
    return true
  })
}

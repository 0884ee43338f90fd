import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, asc, eq, gte, lt, ne, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#server/db/client.ts'
import { appointments, calendarFeeds, users, type AppointmentStatus } from '#server/db/schema.ts'
import type { UserRow } from '#server/appointments/repository.ts'

/**
 * Private calendar feeds (issue 12). The URL's secret is 32 random bytes (base64url, 43
 * characters) of which only the SHA-256 is stored, as for reset links: a database leak gives no
 * working feed URL. The lookup goes by the hash, so how long it takes says nothing about how
 * much of a guessed token was right; one feed per user; revoking deletes it.
 */

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

const hashFeedToken = (token: string) => createHash('sha256').update(token).digest('hex')

const isFeedTokenShaped = (token: string) => TOKEN_PATTERN.test(token)

/** A new secret for the user's feed; the previous one (if any) stops working at once. */
export async function createFeedToken(db: Database, userId: number, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const tokenHash = hashFeedToken(token)
  await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash, createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } })
  return token
}

export async function revokeFeed(db: Database, userId: number): Promise<boolean> {
  const deleted = await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId)).returning({ userId: calendarFeeds.userId })
  return deleted.length > 0
}

export async function findFeed(db: Database, userId: number): Promise<{ createdAt: Date } | undefined> {
  const [row] = await db.select({ createdAt: calendarFeeds.createdAt }).from(calendarFeeds).where(eq(calendarFeeds.userId, userId))
  return row
}

/** The active user whose feed this token opens, or undefined. Malformed input never reaches the database. */
export async function findFeedOwner(db: Database, token: string): Promise<UserRow | undefined> {
  if (!isFeedTokenShaped(token)) return undefined
  const tokenHash = hashFeedToken(token)
  const [row] = await db
    .select({ user: users, tokenHash: calendarFeeds.tokenHash })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(and(eq(calendarFeeds.tokenHash, tokenHash), eq(users.isActive, true)))
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(tokenHash))) return undefined
  return row.user
}

type FeedAppointment = { id: number; status: AppointmentStatus; startTime: Date; endTime: Date; otherFirstName: string }

const patientUser = alias(users, 'patient_user')
const professionalUser = alias(users, 'professional_user')

/** FEED_LIMIT at most: the user's own appointments (as patient or professional) starting in [from, to), cancelled ones included, held unpaid ones not. */
const FEED_LIMIT = 1000

export async function feedAppointments(db: Database, userId: number, from: Date, to: Date): Promise<FeedAppointment[]> {
  return db
    .select({
      id: appointments.id,
      status: appointments.status,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      // The other person's first name: the professional for the patient, the patient for the professional.
      otherFirstName: sql<string>`case when ${appointments.patientId} = ${userId} then ${professionalUser.firstName} else ${patientUser.firstName} end`,
    })
    .from(appointments)
    .innerJoin(patientUser, eq(patientUser.id, appointments.patientId))
    .innerJoin(professionalUser, eq(professionalUser.id, appointments.professionalId))
    .where(
      and(
        or(eq(appointments.patientId, userId), eq(appointments.professionalId, userId)),
        gte(appointments.startTime, from),
        lt(appointments.startTime, to),
        // A time held for its payment is on nobody's calendar until it is paid (decision 0051).
        ne(appointments.status, 'awaiting_payment'),
      ),
    )
    .orderBy(asc(appointments.startTime), asc(appointments.id))
    .limit(FEED_LIMIT)
}

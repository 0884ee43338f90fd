import { and, asc, eq, isNull, lt, notExists, sql, type SQL } from 'drizzle-orm'
import { SYSTEM_ACTOR } from '#server/audit/entries.ts'
import type { Database } from '#server/db/client.ts'
import {
  accountDeletions,
  authSessions,
  consentRecords,
  fakeGoogleCodes,
  fakeGoogleSyncTokens,
  fakeStripeDeliveries,
  fakeStripeIdempotencyKeys,
  habitReminders,
  LIVE_SUBSCRIPTION_STATUSES,
  outbox,
  passwordResetTokens,
  retentionRuns,
  stripeWebhookEvents,
  subscriptions,
  users,
} from '#server/db/schema.ts'
import { saoPauloDate } from '#server/dates.ts'
import type { Services } from '#server/services.ts'
import { finishDeletion, finishStaleDeletions, requestDeletion } from '#server/privacy/deletion.ts'
import { retentionCutoffs } from '#server/privacy/retention.ts'

/**
 * The retention job (docs/product.md §9, decision 0060), every RETENTION_TICK_MS in every provider
 * process. Each tick finishes deletions left unfinished (their lease ended: a crash, a payment
 * service away). Once a day, in exactly one process (the one whose INSERT of the day into
 * retention_runs wins), it enforces the privacy policy's periods: accounts inactive for 5 years
 * closed and anonymised as a deletion would, technical logs older than 12 months deleted, marketing
 * records 2 years after the opt-in was withdrawn deleted, and a closed account's consent record
 * deleted 5 years after it closed. One log line per run with its counts.
 */

export const RETENTION_TICK_MS = 15 * 60_000
/** Stale deletions taken over per tick; the next tick takes the rest. */
const STALE_DELETIONS_PER_TICK = 20
/** Inactive accounts closed per daily run (each is a deletion with its steps); the next day takes the rest. */
const INACTIVE_ACCOUNTS_PER_RUN = 100

type RetentionCounts = {
  inactive_accounts: number
  auth_sessions: number
  reset_tokens: number
  outbox: number
  stripe_events: number
  habit_reminders: number
  fake_leftovers: number
  marketing_records: number
  closed_consent_records: number
  retention_runs: number
}

type RetentionReport = { deletions: { finished: number; failed: number }; run: { day: string; counts: RetentionCounts } | null }

/** Claims the day's run: true in the one process whose row went in. */
async function claimRetentionRun(db: Database, day: string, now: number): Promise<boolean> {
  const rows = await db.insert(retentionRuns).values({ day, startedAt: new Date(now) }).onConflictDoNothing().returning({ day: retentionRuns.day })
  return rows.length > 0
}

export async function retentionTick(services: Services): Promise<RetentionReport> {
  const { db, clock, log } = services
  const deletions = await finishStaleDeletions(services, STALE_DELETIONS_PER_TICK)
  const now = clock()
  const day = saoPauloDate(now)
  if (!(await claimRetentionRun(db, day, now))) return { deletions, run: null }
  const counts = await enforceRetention(services, now)
  await db.update(retentionRuns).set({ finishedAt: new Date(clock()), counts }).where(eq(retentionRuns.day, day))
  log({ level: 'info', msg: 'retention run', day, ...counts, deletions_finished: deletions.finished, deletions_failed: deletions.failed })
  return { deletions, run: { day, counts } }
}

/** How many rows a DELETE removed, counted by the database (no row comes back to this process). */
async function deleted(db: Database, statement: SQL): Promise<number> {
  const result = (await db.execute(sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`)) as unknown as { rows: { n: number }[] }
  return Number(result.rows[0]?.n ?? 0)
}

/** The daily part: every rule as of `now`. */
async function enforceRetention(services: Services, now: number): Promise<RetentionCounts> {
  const { db } = services
  const cutoffs = retentionCutoffs(now)
  const logsBefore = new Date(cutoffs.technicalLogsBefore)

  const inactive = await closeInactiveAccounts(services, cutoffs.inactiveBefore, now)

  // Technical logs: what ended (expired, revoked, used, sent, failed) 12 months ago.
  const counts: RetentionCounts = {
    inactive_accounts: inactive,
    auth_sessions: await deleted(db, sql`delete from ${authSessions} where ${authSessions.expiresAt} < ${logsBefore} or ${authSessions.revokedAt} < ${logsBefore}`),
    reset_tokens: await deleted(db, sql`delete from ${passwordResetTokens} where ${passwordResetTokens.expiresAt} < ${logsBefore}`),
    outbox: await deleted(db, sql`delete from ${outbox} where coalesce(${outbox.sentAt}, ${outbox.failedAt}) < ${logsBefore}`),
    stripe_events: await deleted(db, sql`delete from ${stripeWebhookEvents} where ${stripeWebhookEvents.receivedAt} < ${logsBefore}`),
    habit_reminders: await deleted(db, sql`delete from ${habitReminders} where ${habitReminders.sentAt} < ${logsBefore}`),
    fake_leftovers:
      (await deleted(db, sql`delete from ${fakeGoogleCodes} where ${fakeGoogleCodes.expiresAt} < ${logsBefore}`)) +
      (await deleted(db, sql`delete from ${fakeGoogleSyncTokens} where ${fakeGoogleSyncTokens.createdAt} < ${logsBefore}`)) +
      (await deleted(db, sql`delete from ${fakeStripeIdempotencyKeys} where ${fakeStripeIdempotencyKeys.createdAt} < ${logsBefore}`)) +
      (await deleted(db, sql`delete from ${fakeStripeDeliveries} where coalesce(${fakeStripeDeliveries.deliveredAt}, ${fakeStripeDeliveries.failedAt}) < ${logsBefore}`)),
    // Marketing: every record of an opt-in whose latest record is a withdrawal 2 years old.
    marketing_records: await deleted(
      db,
      sql`delete from ${consentRecords} where ${consentRecords.document} = 'marketing' and ${consentRecords.userId} in (
            select latest.user_id from (
              select distinct on (${consentRecords.userId}) ${consentRecords.userId} as user_id, ${consentRecords.granted} as granted, ${consentRecords.recordedAt} as recorded_at
              from ${consentRecords} where ${consentRecords.document} = 'marketing'
              order by ${consentRecords.userId}, ${consentRecords.recordedAt} desc, ${consentRecords.id} desc) latest
            where not latest.granted and latest.recorded_at < ${new Date(cutoffs.marketingWithdrawnBefore)})`,
    ),
    // A closed account's consent record, 5 years after it closed.
    closed_consent_records: await deleted(
      db,
      sql`delete from ${consentRecords} where ${consentRecords.recordedAt} < ${new Date(cutoffs.closedAccountsBefore)} and ${consentRecords.userId} in (
            select ${accountDeletions.userId} from ${accountDeletions} where ${accountDeletions.finishedAt} < ${new Date(cutoffs.closedAccountsBefore)})`,
    ),
    retention_runs: await deleted(db, sql`delete from ${retentionRuns} where ${retentionRuns.startedAt} < ${logsBefore}`),
  }
  return counts
}

/**
 * Accounts with no activity (last sign-in, else sign-up) for 5 years, not closed yet and with no
 * live subscription (still a customer): each closed and anonymised as its owner's deletion would
 * be, by the system. At most INACTIVE_ACCOUNTS_PER_RUN a day.
 */
async function closeInactiveAccounts(services: Services, inactiveBefore: number, now: number): Promise<number> {
  const { db } = services
  const candidates = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        lt(sql`coalesce(${users.lastLogin}, ${users.dateJoined})`, new Date(inactiveBefore)),
        notExists(db.select({ one: sql`1` }).from(accountDeletions).where(eq(accountDeletions.userId, users.id))),
        notExists(
          db
            .select({ one: sql`1` })
            .from(subscriptions)
            .where(and(eq(subscriptions.userId, users.id), sql`${subscriptions.status} in (${sql.join(LIVE_SUBSCRIPTION_STATUSES.map((status) => sql`${status}`), sql`, `)})`)),
        ),
      ),
    )
    .orderBy(asc(users.id))
    .limit(INACTIVE_ACCOUNTS_PER_RUN)
  let closed = 0
  for (const { id } of candidates) {
    if (!(await requestDeletion(services, { userId: id, reason: 'inactivity', actor: SYSTEM_ACTOR, now }))) continue
    closed += 1
    try {
      await finishDeletion(services, id)
    } catch {
      // Logged; the account is closed, and a later tick finishes it once its lease ends.
    }
  }
  return closed
}

/** Deletions recorded and not finished: for tests and the health of the job. */
export async function unfinishedDeletions(db: Database): Promise<number[]> {
  const rows = await db.select({ userId: accountDeletions.userId }).from(accountDeletions).where(isNull(accountDeletions.finishedAt)).orderBy(asc(accountDeletions.userId))
  return rows.map((row) => row.userId)
}

import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm'
import { afterCancellations, cancelOpenAppointment, type Cancelled } from '#server/appointments/cancellation.ts'
import { findAppointmentView } from '#server/appointments/repository.ts'
import { SYSTEM_ACTOR, type AuditEntry } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import { makeUnusablePassword } from '#server/auth/passwords.ts'
import { deleteConnection, findConnection } from '#server/calendar/connections.ts'
import type { Database } from '#server/db/client.ts'
import {
  accountDeletions,
  appointments,
  authSessions,
  calendarFeeds,
  carts,
  conversations,
  habits,
  lessonProgress,
  LIVE_SUBSCRIPTION_STATUSES,
  liveClasses,
  liveClassSeats,
  notificationSettings,
  pushSubscriptions,
  outbox,
  passwordResetTokens,
  photos,
  professionalPatients,
  professionalProfiles,
  programs,
  purchases,
  questionnaireResults,
  questionnaireShares,
  subscriptions,
  users,
  type DeletionReason,
} from '#server/db/schema.ts'
import { ApiError } from '#server/http/errors.ts'
import { errorFields } from '#server/log.ts'
import { deleteAttachmentsOf } from '#server/messages/repository.ts'
import { cancelPurchase } from '#server/billing/cancellation.ts'
import { findPurchase } from '#server/purchases/repository.ts'
import type { Services } from '#server/services.ts'
import { cancelSubscription } from '#server/billing/subscriptions.ts'
import { CLOSED_ACCOUNT_PURCHASE, CLOSED_PATIENT_APPOINTMENT, CLOSED_PROFESSIONAL_APPOINTMENT, closedAccount, signInClosed } from '#server/privacy/anonymise.ts'
import { appendConsent, latestConsentsOf } from '#server/privacy/repository.ts'

/**
 * An account's deletion (LGPD art. 18 VI; docs/product.md §4, decision 0060). Two parts:
 *
 * 1. requestDeletion, one transaction: the account can no longer sign in (inactive, a password that
 *    matches nothing, no Google identity, every session revoked, reset links and the calendar feed
 *    gone) and the deletion is recorded, with its audit entry. Whatever happens next, nobody signs
 *    in with it again.
 * 2. finishDeletion, steps each safe to repeat: future appointments cancelled under the refund
 *    rules (as its patient's or its professional's cancellation), live subscriptions and open
 *    payments cancelled, the Google Calendar disconnected, health data, habits, program, course
 *    progress, cart, seats and shares deleted, what is kept anonymised (appointments without their
 *    notes, purchases without payment pages), and last, in one transaction, the user row anonymised
 *    and the deletion marked finished. It runs under the deletion's lease: the request that asked
 *    first, else (a crash, a payment service away) the retention job once the lease has ended.
 */

/** How long a process holds a deletion it is finishing before another may take it over. */
const DELETION_LEASE_MS = 5 * 60_000
/** The cancellation reason stored on the appointments a deletion cancels (never shown as anyone's words). */
const ACCOUNT_DELETED_REASON = 'account_deleted'

const PENDING_PAYMENT: ('pending' | 'failed' | 'expired')[] = ['pending']
const OPEN_APPOINTMENT = ['awaiting_payment', 'scheduled', 'confirmed'] as const

type DeletionReport = Record<string, number>

/**
 * Closes the account and records its deletion (part 1), holding its lease. False when a deletion
 * was already recorded (nothing changes).
 */
export async function requestDeletion(
  { db }: Pick<Services, 'db'>,
  { userId, reason, actor, now }: { userId: number; reason: DeletionReason; actor: Pick<AuditEntry, 'actorId' | 'actorRole'>; now: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
    if (!user) return false
    const [existing] = await tx.select({ userId: accountDeletions.userId }).from(accountDeletions).where(eq(accountDeletions.userId, userId))
    if (existing) return false
    await tx.update(users).set(signInClosed(makeUnusablePassword())).where(eq(users.id, userId))
    await tx.update(authSessions).set({ revokedAt: new Date(now) }).where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)))
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))
    // The feed's secret URL reads the agenda without signing in: it ends with the sign-in.
    await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId))
    await tx.insert(accountDeletions).values({ userId, reason, requestedAt: new Date(now), leaseUntil: new Date(now + DELETION_LEASE_MS), attempts: 1 })
    await recordAudit(tx, { ...actor, action: 'account.delete_request', targetType: 'user', targetId: userId, subjectUserId: userId, after: { reason }, at: now })
    return true
  })
}

/**
 * Takes over one deletion left unfinished whose lease has ended (a crash, a failed step), oldest
 * first, for `DELETION_LEASE_MS`: of several processes asking at once, one gets it (the row lock,
 * SKIP LOCKED for the others).
 */
async function claimStaleDeletion(db: Database, now: number): Promise<number | undefined> {
  const result = (await db.execute(sql`
    update ${accountDeletions} set lease_until = ${new Date(now + DELETION_LEASE_MS)}, attempts = ${accountDeletions.attempts} + 1
    where ${accountDeletions.userId} = (
      select ${accountDeletions.userId} from ${accountDeletions}
      where ${accountDeletions.finishedAt} is null and (${accountDeletions.leaseUntil} is null or ${accountDeletions.leaseUntil} <= ${new Date(now)})
      order by ${accountDeletions.requestedAt}, ${accountDeletions.userId} limit 1 for update skip locked)
    returning ${accountDeletions.userId} as user_id`)) as unknown as { rows: { user_id: number }[] }
  return result.rows[0]?.user_id
}

/**
 * Runs the deletion's steps (part 2) and marks it finished. A failing step throws: the deletion
 * stays pending (its error kept), the account closed, and a later run repeats the steps. True when
 * this call finished it; false when it was finished already (or never requested).
 */
export async function finishDeletion(services: Services, userId: number): Promise<boolean> {
  const { db, log } = services
  const [deletion] = await db.select().from(accountDeletions).where(eq(accountDeletions.userId, userId))
  if (!deletion || deletion.finishedAt) return false
  try {
    const report: DeletionReport = {}
    Object.assign(report, await cancelFutureAppointments(services, userId))
    Object.assign(report, await cancelOpenPayments(services, userId))
    report.calendar_disconnected = (await disconnectCalendar(services, userId)) ? 1 : 0
    Object.assign(report, await deleteData(services, userId))
    const finished = await closeAccount(services, userId, report)
    if (finished) log({ level: 'info', msg: 'account deletion finished', user_id: userId, reason: deletion.reason, ...report })
    return finished
  } catch (error) {
    const message = errorFields(error).error.slice(0, 500)
    await db.update(accountDeletions).set({ lastError: message }).where(eq(accountDeletions.userId, userId))
    log({ level: 'warn', msg: 'account deletion step failed; the retention job tries again', user_id: userId, error: message })
    throw error
  }
}

/** An answer of the payment service that says the thing is done already (cancelled, paid meanwhile): nothing to do. */
const alreadySettled = (error: unknown) => error instanceof ApiError && error.status === 409

/**
 * Every open appointment not yet started, as its patient or its professional: a time held for its
 * payment has that payment cancelled (which releases it); the others are cancelled under the refund
 * rules, as the user's own cancellation (a patient's: in full 24 h or more ahead; a professional's:
 * in full), both people told, outside anyone's hourly mail bound.
 */
async function cancelFutureAppointments(services: Services, userId: number): Promise<DeletionReport> {
  const { db, clock, config } = services
  const now = clock()
  const open = await db
    .select({ id: appointments.id, status: appointments.status, purchaseId: appointments.purchaseId, patientId: appointments.patientId })
    .from(appointments)
    .where(and(or(eq(appointments.patientId, userId), eq(appointments.professionalId, userId)), inArray(appointments.status, [...OPEN_APPOINTMENT]), gt(appointments.startTime, new Date(now))))
  let released = 0
  const cancelled: Cancelled[] = []
  for (const row of open) {
    if (row.status === 'awaiting_payment' && row.purchaseId !== null) {
      const purchase = await findPurchase(db, row.purchaseId)
      try {
        if (purchase) await cancelPurchase(services, purchase)
        released += 1
      } catch (error) {
        if (!alreadySettled(error)) throw error
      }
      continue
    }
    const view = await findAppointmentView(db, row.id)
    if (!view) continue
    const done = await db.transaction((tx) =>
      cancelOpenAppointment(tx, view, { by: row.patientId === userId ? 'patient' : 'professional', reason: ACCOUNT_DELETED_REASON, causedBy: null, now }, { appPublicUrl: config.appPublicUrl, mail: config.mail }),
    )
    if (done) cancelled.push(done)
  }
  await afterCancellations(services, cancelled)
  // A held time whose payment arrived meanwhile is now scheduled: the next run cancels it.
  return { appointments_cancelled: cancelled.length, held_times_released: released }
}

/** Live subscriptions cancelled as the subscriber's own cancel (decision 0052), then open payments cancelled. */
async function cancelOpenPayments(services: Services, userId: number): Promise<DeletionReport> {
  const { db } = services
  let subscriptionsCancelled = 0
  const live = await db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE_SUBSCRIPTION_STATUSES])))
  for (const subscription of live) {
    try {
      if (!subscription.cancelAtPeriodEnd) {
        await cancelSubscription(services, subscription)
        subscriptionsCancelled += 1
      }
    } catch (error) {
      if (!alreadySettled(error)) throw error
    }
  }
  let purchasesCancelled = 0
  const open = await db.select().from(purchases).where(and(eq(purchases.userId, userId), inArray(purchases.status, PENDING_PAYMENT)))
  for (const purchase of open) {
    try {
      await cancelPurchase(services, purchase)
      purchasesCancelled += 1
    } catch (error) {
      if (!alreadySettled(error)) throw error
    }
  }
  return { subscriptions_cancelled: subscriptionsCancelled, purchases_cancelled: purchasesCancelled }
}

/** The Google Calendar connection: revoked at Google (best effort), then its tokens, events and notes deleted. */
async function disconnectCalendar(services: Services, userId: number): Promise<boolean> {
  const { db, googleCalendar, tokenSealer, log } = services
  const connection = await findConnection(db, userId)
  if (!connection) return false
  try {
    await googleCalendar.revoke(tokenSealer.open(connection.refreshTokenSealed))
  } catch (error) {
    log({ level: 'warn', msg: 'google calendar revoke failed', user_id: userId, error: errorFields(error).error })
  }
  await deleteConnection(db, userId)
  return true
}

/**
 * What goes at once, in one transaction: assessments (their shares with them), the shares made to
 * the user as a professional, program, habits and their history, course progress, cart, seats
 * (the classes' counts with them), care links, sessions, reset links, the calendar feed, the mail
 * addressed to the account, the files sent in messages; and what is kept, anonymised: appointments without what was written on
 * them, purchases without payment pages, a professional profile no longer bookable. A marketing
 * opt-in in force is withdrawn (its 2 years start now).
 */
async function deleteData(services: Services, userId: number): Promise<DeletionReport> {
  const { db, clock } = services
  const now = clock()
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update')
    const results = await tx.delete(questionnaireResults).where(eq(questionnaireResults.userId, userId)).returning({ id: questionnaireResults.id })
    await tx.delete(questionnaireShares).where(eq(questionnaireShares.professionalId, userId))
    const programRows = await tx.delete(programs).where(eq(programs.userId, userId)).returning({ id: programs.id })
    const habitRows = await tx.delete(habits).where(eq(habits.userId, userId)).returning({ id: habits.id })
    const progress = await tx.delete(lessonProgress).where(eq(lessonProgress.userId, userId)).returning({ lessonId: lessonProgress.lessonId })
    await tx.delete(carts).where(eq(carts.userId, userId))
    await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId))
    const seats = await tx.delete(liveClassSeats).where(eq(liveClassSeats.userId, userId)).returning({ classId: liveClassSeats.classId })
    if (seats.length > 0) {
      await tx
        .update(liveClasses)
        .set({ seatsTaken: sql`${liveClasses.seatsTaken} - 1` })
        .where(inArray(liveClasses.id, seats.map((seat) => seat.classId)))
    }
    await tx.delete(professionalPatients).where(or(eq(professionalPatients.patientId, userId), eq(professionalPatients.professionalId, userId)))
    await tx.delete(authSessions).where(eq(authSessions.userId, userId))
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))
    await tx.delete(notificationSettings).where(eq(notificationSettings.userId, userId))
    // The files the user sent go; the messages' text stays with the other side, signed "Conta excluída" (decision 0086).
    const attachments = await deleteAttachmentsOf(tx, userId)
    // No browser is told of anything any more (decision 0087).
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))
    // Nobody writes to a closed account: its conversations close; the other side keeps them (decision 0085).
    const closedTalks = await tx
      .update(conversations)
      .set({ closedAt: new Date(now) })
      .where(and(or(eq(conversations.patientId, userId), eq(conversations.professionalId, userId)), isNull(conversations.closedAt)))
      .returning({ id: conversations.id })
    // The mail to the address, sent or waiting (the cancellation notices just queued to the user among them).
    const mail = user ? await tx.delete(outbox).where(sql`lower(${outbox.to}) = lower(${user.email})`).returning({ id: outbox.id }) : []
    await tx.update(appointments).set({ ...CLOSED_PATIENT_APPOINTMENT, updatedAt: new Date(now) }).where(eq(appointments.patientId, userId))
    await tx.update(appointments).set({ ...CLOSED_PROFESSIONAL_APPOINTMENT, updatedAt: new Date(now) }).where(eq(appointments.professionalId, userId))
    await tx.update(purchases).set(CLOSED_ACCOUNT_PURCHASE).where(and(eq(purchases.userId, userId), ne(purchases.status, 'pending')))
    await tx.update(professionalProfiles).set({ accredited: false, registrationNumber: '', updatedAt: new Date(now) }).where(eq(professionalProfiles.userId, userId))
    const marketing = (await latestConsentsOf(tx, userId)).find((record) => record.document === 'marketing')
    if (marketing?.granted) await appendConsent(tx, { userId, document: 'marketing', version: marketing.version, granted: false, source: 'deletion', categories: null, at: now })
    return {
      assessments_deleted: results.length,
      programs_deleted: programRows.length,
      habits_deleted: habitRows.length,
      course_progress_deleted: progress.length,
      seats_released: seats.length,
      mail_deleted: mail.length,
      conversations_closed: closedTalks.length,
      attachments_deleted: attachments,
    }
  })
}

/**
 * The last step, in one transaction: the user row anonymised (the photo deleted) and the deletion
 * marked finished with its report and audit entry. False when another run finished it first.
 */
async function closeAccount(services: Services, userId: number, report: DeletionReport): Promise<boolean> {
  const { db, clock } = services
  const now = clock()
  return db.transaction(async (tx) => {
    const [deletion] = await tx.select().from(accountDeletions).where(eq(accountDeletions.userId, userId)).for('update')
    if (!deletion || deletion.finishedAt) return false
    const [user] = await tx.select({ photoName: users.photoName }).from(users).where(eq(users.id, userId)).for('update')
    await tx.update(users).set(closedAccount(userId, makeUnusablePassword())).where(eq(users.id, userId))
    if (user?.photoName) await tx.delete(photos).where(eq(photos.name, user.photoName))
    await tx.update(accountDeletions).set({ finishedAt: new Date(now), leaseUntil: null, lastError: null, report }).where(eq(accountDeletions.userId, userId))
    await recordAudit(tx, { ...SYSTEM_ACTOR, action: 'account.delete_finish', targetType: 'user', targetId: userId, subjectUserId: userId, after: report, at: now })
    return true
  })
}

/** Deletions whose lease ended unfinished, taken over and finished, at most `limit` a call. */
export async function finishStaleDeletions(services: Services, limit: number): Promise<{ finished: number; failed: number }> {
  const outcome = { finished: 0, failed: 0 }
  for (let taken = 0; taken < limit; taken += 1) {
    const userId = await claimStaleDeletion(services.db, services.clock())
    if (userId === undefined) break
    try {
      if (await finishDeletion(services, userId)) outcome.finished += 1
    } catch {
      // Logged by finishDeletion; its lease runs out and a later run tries again.
      outcome.failed += 1
    }
  }
  return outcome
}

import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#server/db/client.ts'
import { appointments, outbox, professionalProfiles, scheduledMessages, users, type MessageRecipient, type ScheduledMessageKind } from '#server/db/schema.ts'
import type { Logger } from '#server/log.ts'
import { appointmentMessage, type AppointmentMailKind } from '#server/mail/appointment-messages.ts'
import { appointmentCollapseKey, type NoticeState } from '#server/mail/collapse.ts'
import { lockAppointmentMail, queueCollapsibleMail, type CollapsibleMail, type MailLimits, type QueuedMail } from '#server/mail/outbox.ts'

/**
 * Confirmations and reminders of appointments (issue 12). Booking schedules, in its own
 * transaction, one row per (kind, recipient) in scheduled_messages: the confirmation due at once
 * and the reminders 24 h and 1 h before the start (a reminder already due at booking is not
 * scheduled). A due row becomes one outbox message: it is claimed by a single UPDATE … RETURNING
 * over rows picked FOR UPDATE SKIP LOCKED, and the outbox row is written in the same transaction,
 * so two processes (or a restart half-way) can never send it twice nor lose it. Cancelling
 * cancels the pending rows and rescheduling moves them, each in the appointment's transaction,
 * with a notice to both people written straight to the outbox.
 *
 * Confirmations and notices wait a moment in the outbox, where a newer message about the same
 * appointment to the same person replaces them, and count against the hourly bound of the person
 * whose action made them (mail/outbox.ts, decision 0035). Reminders do neither: each goes once, on time.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE

const REMINDER_OFFSETS_MS: Record<Exclude<ScheduledMessageKind, 'confirmation'>, number> = {
  reminder_24h: 24 * HOUR,
  reminder_1h: HOUR,
}
const REMINDER_KINDS = Object.keys(REMINDER_OFFSETS_MS) as (keyof typeof REMINDER_OFFSETS_MS)[]
const RECIPIENTS: MessageRecipient[] = ['patient', 'professional']

/** How many due rows one transaction claims; a tick claims batches until none is left. */
const DISPATCH_BATCH = 100

type Writer = Pick<Database, 'insert' | 'update' | 'select' | 'execute'>

/** The rows a new booking schedules. Called inside the booking's transaction. */
export async function scheduleBookingMessages(tx: Writer, appointment: { id: number; startTime: Date }, now: Date): Promise<void> {
  const rows: (typeof scheduledMessages.$inferInsert)[] = []
  for (const recipient of RECIPIENTS) {
    rows.push({ appointmentId: appointment.id, kind: 'confirmation', recipient, dueAt: now, createdAt: now })
    for (const kind of REMINDER_KINDS) {
      const dueAt = new Date(appointment.startTime.getTime() - REMINDER_OFFSETS_MS[kind])
      // Booked inside the reminder's window: that reminder is not sent (the confirmation says it all).
      if (dueAt.getTime() > now.getTime()) rows.push({ appointmentId: appointment.id, kind, recipient, dueAt, createdAt: now })
    }
  }
  await tx.insert(scheduledMessages).values(rows).onConflictDoNothing()
}

/**
 * The reminders follow a moved appointment: each is due again before the new start (even one
 * already sent for the old time), or skipped when that moment has already passed. A confirmation
 * not yet sent goes out as it is (it shows the time current when it is sent). Called inside the
 * reschedule's transaction.
 */
export async function moveScheduledMessages(tx: Writer, appointmentId: number, newStart: Date, now: Date): Promise<void> {
  for (const kind of REMINDER_KINDS) {
    const dueAt = new Date(newStart.getTime() - REMINDER_OFFSETS_MS[kind])
    if (dueAt.getTime() > now.getTime()) {
      await tx
        .insert(scheduledMessages)
        .values(RECIPIENTS.map((recipient) => ({ appointmentId, kind, recipient, dueAt, createdAt: now })))
        .onConflictDoUpdate({
          target: [scheduledMessages.appointmentId, scheduledMessages.kind, scheduledMessages.recipient],
          set: { dueAt, status: 'pending', outboxId: null, processedAt: null },
        })
    } else {
      await tx
        .update(scheduledMessages)
        .set({ status: 'skipped', processedAt: now })
        .where(and(eq(scheduledMessages.appointmentId, appointmentId), eq(scheduledMessages.kind, kind), eq(scheduledMessages.status, 'pending')))
    }
  }
}

/** A cancelled appointment sends nothing more that was scheduled. Called inside the cancel's transaction. */
export async function cancelScheduledMessages(tx: Writer, appointmentId: number, now: Date): Promise<void> {
  await tx
    .update(scheduledMessages)
    .set({ status: 'cancelled', processedAt: now })
    .where(and(eq(scheduledMessages.appointmentId, appointmentId), eq(scheduledMessages.status, 'pending')))
}

const patientUser = alias(users, 'patient_user')
const professionalUser = alias(users, 'professional_user')

type Person = { email: string; firstName: string; timeZone: string; isActive: boolean }
type AppointmentPeople = { id: number; patientId: number; status: string; startTime: Date; patient: Person; professional: Person }

const personColumns = <Table extends typeof patientUser | typeof professionalUser>(table: Table) => ({
  email: table.email,
  firstName: table.firstName,
  timeZone: table.timeZone,
  isActive: table.isActive,
})

async function appointmentsWithPeople(tx: Writer, ids: number[]): Promise<Map<number, AppointmentPeople>> {
  if (ids.length === 0) return new Map()
  const rows = await tx
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      status: appointments.status,
      startTime: appointments.startTime,
      patient: personColumns(patientUser),
      // The professional reads times in the zone they work in (their schedule's), as the agenda shows them.
      professional: { ...personColumns(professionalUser), timeZone: sql<string>`coalesce(${professionalProfiles.timeZone}, ${professionalUser.timeZone})` },
    })
    .from(appointments)
    .innerJoin(patientUser, eq(patientUser.id, appointments.patientId))
    .innerJoin(professionalUser, eq(professionalUser.id, appointments.professionalId))
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, appointments.professionalId))
    .where(inArray(appointments.id, ids))
  return new Map(rows.map((row) => [row.id, row]))
}

/** What one message to one of the two people says, ready for the outbox. */
function messageFor(kind: AppointmentMailKind, appointment: AppointmentPeople, recipient: MessageRecipient, appPublicUrl: string, previousStart?: Date) {
  // A move back to where the recipient last knew it says only where it is.
  if (previousStart && previousStart.getTime() === appointment.startTime.getTime()) previousStart = undefined
  const to = appointment[recipient]
  const other = appointment[recipient === 'patient' ? 'professional' : 'patient']
  return appointmentMessage({
    kind,
    to: { email: to.email, firstName: to.firstName, timeZone: to.timeZone },
    otherFirstName: other.firstName,
    start: appointment.startTime,
    previousStart,
    link: `${appPublicUrl}/consultas/${appointment.id}`,
  })
}

/** Why a due message is no longer worth sending, if it is not. */
function staleReason(kind: ScheduledMessageKind, appointment: AppointmentPeople | undefined, recipient: MessageRecipient, now: number): string | undefined {
  if (!appointment) return 'appointment gone'
  if (appointment.status === 'cancelled' || appointment.status === 'completed' || appointment.status === 'no_show') return 'appointment closed'
  if (!appointment[recipient].isActive) return 'recipient inactive'
  const start = appointment.startTime.getTime()
  if (kind !== 'confirmation' && now >= start) return 'too late'
  // Came due late (the provider was down): within the last hour only the 1-hour reminder goes.
  if (kind === 'reminder_24h' && now >= start - REMINDER_OFFSETS_MS.reminder_1h) return 'too late'
  return undefined
}

export type DispatchReport = { sent: number; skipped: number }

/** A collapsible message to one of the two people, said as its state says (the time is the appointment's now). */
function collapsibleMail(appointment: AppointmentPeople, recipient: MessageRecipient, state: NoticeState, appPublicUrl: string, causedBy: number | null): CollapsibleMail {
  return {
    collapseKey: appointmentCollapseKey(appointment.id, recipient),
    appointmentId: appointment.id,
    state,
    render: (current) => messageFor(current.kind, appointment, recipient, appPublicUrl, current.kind === 'moved' ? new Date(current.previousStart) : undefined),
    causedBy,
  }
}

/** One line per message dropped over a person's hourly bound: who caused it and which row, never an address. */
export function logDroppedMail(log: Logger | undefined, queued: QueuedMail[]): void {
  for (const mail of queued.filter((entry) => entry.outcome === 'dropped')) {
    log?.({ level: 'warn', msg: 'appointment mail dropped: over the hourly bound of the person who caused it', user_id: mail.causedBy, appointment_id: mail.appointmentId, outbox_id: mail.outboxId })
  }
}

/**
 * Turns due scheduled messages into outbox messages, each exactly once across processes: one
 * transaction claims a batch (UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING),
 * so a concurrent claimer skips those rows, and writes their outbox rows before committing.
 * `appointmentId` limits it to one appointment (right after booking).
 */
export async function dispatchDueMessages(
  db: Database,
  {
    now,
    appPublicUrl,
    mail,
    log,
    appointmentId,
    batch = DISPATCH_BATCH,
  }: { now: number; appPublicUrl: string; mail: MailLimits; log?: Logger; appointmentId?: number; batch?: number },
): Promise<DispatchReport> {
  const report: DispatchReport = { sent: 0, skipped: 0 }
  for (;;) {
    const { claimed, queued } = await db.transaction(async (tx) => {
      const at = new Date(now)
      const due = and(eq(scheduledMessages.status, 'pending'), lte(scheduledMessages.dueAt, at), appointmentId === undefined ? undefined : eq(scheduledMessages.appointmentId, appointmentId))
      const picked = tx
        .select({ id: scheduledMessages.id })
        .from(scheduledMessages)
        .where(due)
        .orderBy(asc(scheduledMessages.dueAt), asc(scheduledMessages.id))
        .limit(batch)
        .for('update', { skipLocked: true })
      // The outer conditions are checked again on the row as it is when locked.
      const rows = await tx
        .update(scheduledMessages)
        .set({ status: 'sent', processedAt: at })
        .where(and(inArray(scheduledMessages.id, picked), due))
        .returning()
      if (rows.length === 0) return { claimed: 0, queued: [] }
      // A confirmation may collapse with a notice a reschedule is writing now: its turn first, then
      // the appointment as that reschedule left it.
      await lockAppointmentMail(tx, rows.filter((row) => row.kind === 'confirmation').map((row) => row.appointmentId))
      const people = await appointmentsWithPeople(tx, [...new Set(rows.map((row) => row.appointmentId))])
      const skipped: number[] = []
      // Confirmations collapse with what else is waiting about their appointment; reminders go as they are.
      const confirmations: { rowId: number; mail: CollapsibleMail }[] = []
      for (const row of rows) {
        const appointment = people.get(row.appointmentId)
        if (staleReason(row.kind, appointment, row.recipient, now) !== undefined) {
          skipped.push(row.id)
          continue
        }
        report.sent += 1
        if (row.kind === 'confirmation') {
          confirmations.push({ rowId: row.id, mail: collapsibleMail(appointment!, row.recipient, { kind: 'confirmation' }, appPublicUrl, appointment!.patientId) })
          continue
        }
        const message = messageFor(row.kind, appointment!, row.recipient, appPublicUrl)
        const [queued] = await tx
          .insert(outbox)
          .values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html, createdAt: at, nextAttemptAt: at })
          .returning({ id: outbox.id })
        await tx.update(scheduledMessages).set({ outboxId: queued!.id }).where(eq(scheduledMessages.id, row.id))
      }
      const queued = await queueCollapsibleMail(
        tx,
        confirmations.map((entry) => entry.mail),
        { now: at, limits: mail },
      )
      for (const [index, entry] of confirmations.entries()) {
        await tx.update(scheduledMessages).set({ outboxId: queued[index]!.outboxId }).where(eq(scheduledMessages.id, entry.rowId))
      }
      if (skipped.length > 0) await tx.update(scheduledMessages).set({ status: 'skipped' }).where(inArray(scheduledMessages.id, skipped))
      report.skipped += skipped.length
      return { claimed: rows.length, queued }
    })
    logDroppedMail(log, queued)
    if (claimed < batch) return report
  }
}

/**
 * Tells both people their appointment moved or was cancelled: written to the outbox inside the
 * transaction that moved or cancelled it, so it goes out exactly when that change happened (or,
 * within the hold, as the latest state of what was waiting). `causedBy`: who moved or cancelled
 * it (null: nobody's hourly bound, an admin's revocation of a professional, decision 0059). Answers where each message went, for the caller to log what was dropped once committed.
 */
export async function queueAppointmentNotice(
  tx: Writer,
  {
    kind,
    appointmentId,
    previousStart,
    now,
    appPublicUrl,
    causedBy,
    mail,
  }: { kind: 'moved' | 'cancelled'; appointmentId: number; previousStart?: Date; now: Date; appPublicUrl: string; causedBy: number | null; mail: MailLimits },
): Promise<QueuedMail[]> {
  await lockAppointmentMail(tx, [appointmentId])
  const appointment = (await appointmentsWithPeople(tx, [appointmentId])).get(appointmentId)
  if (!appointment) return []
  const state: NoticeState = kind === 'moved' && previousStart ? { kind: 'moved', previousStart: previousStart.toISOString() } : { kind: 'cancelled' }
  const mails = RECIPIENTS.filter((recipient) => appointment[recipient].isActive).map((recipient) => collapsibleMail(appointment, recipient, state, appPublicUrl, causedBy))
  return queueCollapsibleMail(tx, mails, { now, limits: mail })
}

/** Scheduled messages of one appointment, for tests and support: kind, recipient, due and status. */
export async function scheduledMessagesOf(db: Database, appointmentId: number) {
  return db
    .select({ kind: scheduledMessages.kind, recipient: scheduledMessages.recipient, dueAt: scheduledMessages.dueAt, status: scheduledMessages.status, outboxId: scheduledMessages.outboxId })
    .from(scheduledMessages)
    .where(eq(scheduledMessages.appointmentId, appointmentId))
    .orderBy(asc(scheduledMessages.dueAt), sql`${scheduledMessages.kind}`, asc(scheduledMessages.recipient))
}

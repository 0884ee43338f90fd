import { and, count, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { outbox } from '#server/db/schema.ts'
import { collapseNotices, readNoticeState, type NoticeState } from '#server/mail/collapse.ts'
import type { MailMessage } from '#server/mail/messages.ts'

/**
 * Sending an e-mail means queueing it in the outbox table. In development the dev mailbox reads
 * the outbox; with SMTP_URL set the delivery worker (delivery.ts) sends it.
 */
export async function queueMail(db: Database, message: MailMessage): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html })
    .returning({ id: outbox.id })
  return row!.id
}

/** How appointment messages wait and how many one person's actions may make (decision 0035). */
export type MailLimits = { collapseMs: number; perUserPerHour: number }

/** A message that collapses with a waiting one of the same key (mail/collapse.ts). */
export type CollapsibleMail = {
  collapseKey: string
  /** The appointment it is about: its writers take turns on it. */
  appointmentId: number
  state: NoticeState
  /** The message for a state: the newer message's own, or what it collapses into. */
  render: (state: NoticeState) => MailMessage
  /** Whose action made it, for the hourly bound; null for the product's own (none yet). */
  causedBy: number | null
}

/** Where each message went: a new row, a waiting row it replaced, or a row dropped over the bound. */
export type QueuedMail = { outboxId: number; outcome: 'queued' | 'collapsed' | 'dropped'; causedBy: number | null; appointmentId: number }

// Advisory-lock classes (the other key: the appointment's id, the user's id).
const APPOINTMENT_MAIL_LOCK = 0x1ab2
const USER_MAIL_LOCK = 0x1ab3
const HOUR_MS = 3_600_000
export const DROPPED_OVER_BOUND = 'DROPPED: over the hourly bound of messages one person may cause; not sent.'

type Writer = Pick<Database, 'insert' | 'update' | 'select' | 'execute'>

/**
 * Queues messages about appointments, inside the transaction that made them. A message waits
 * `collapseMs` (next_attempt_at) before it may go; while it waits and has not been tried, a newer
 * one with its key replaces it, carrying the latest state (mail/collapse.ts). A new row beyond
 * `perUserPerHour` rows caused by the same person in the last hour is stored as dropped (failed,
 * never sent) and reported, for the caller to log.
 *
 * Writers of one appointment's messages take turns on an advisory lock (in ascending order, after
 * any row locks the caller holds), then on each causing person's: so reading the waiting row, or
 * counting the hour, and writing stay true across processes; the unique index on waiting rows
 * per key is the last word.
 */
export async function queueCollapsibleMail(tx: Writer, mails: CollapsibleMail[], { now, limits }: { now: Date; limits: MailLimits }): Promise<QueuedMail[]> {
  await lockAppointmentMail(tx, mails.map((mail) => mail.appointmentId))
  const causes = [...new Set(mails.map((mail) => mail.causedBy).filter((id): id is number => id !== null))].sort((a, b) => a - b)
  for (const id of causes) await tx.execute(sql`select pg_advisory_xact_lock(${USER_MAIL_LOCK}::int, ${id}::int)`)

  const results: QueuedMail[] = []
  for (const mail of mails) {
    const waiting = and(eq(outbox.collapseKey, mail.collapseKey), isNull(outbox.sentAt), isNull(outbox.failedAt), eq(outbox.attempts, 0))
    // A hold that is over is no longer open to collapsing: what comes now is a message of its own.
    await tx.update(outbox).set({ collapseKey: null }).where(and(waiting, lte(outbox.nextAttemptAt, now)))
    const [pending] = await tx.select({ id: outbox.id, state: outbox.collapseState }).from(outbox).where(waiting).for('update')
    const base = { appointmentId: mail.appointmentId, causedBy: mail.causedBy }
    if (pending) {
      const state = collapseNotices(readNoticeState(pending.state), mail.state)
      const message = mail.render(state)
      await tx
        .update(outbox)
        .set({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html, collapseState: state })
        .where(eq(outbox.id, pending.id))
      results.push({ ...base, outboxId: pending.id, outcome: 'collapsed' })
      continue
    }
    const message = mail.render(mail.state)
    const row = { to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html, createdAt: now, causedBy: mail.causedBy }
    if (mail.causedBy !== null && (await causedInLastHour(tx, mail.causedBy, now)) >= limits.perUserPerHour) {
      const [dropped] = await tx
        .insert(outbox)
        .values({ ...row, nextAttemptAt: now, failedAt: now, lastError: DROPPED_OVER_BOUND })
        .returning({ id: outbox.id })
      results.push({ ...base, outboxId: dropped!.id, outcome: 'dropped' })
      continue
    }
    const [queued] = await tx
      .insert(outbox)
      .values({ ...row, nextAttemptAt: new Date(now.getTime() + limits.collapseMs), collapseKey: mail.collapseKey, collapseState: mail.state })
      .returning({ id: outbox.id })
    results.push({ ...base, outboxId: queued!.id, outcome: 'queued' })
  }
  return results
}

/**
 * Takes the turn of these appointments' mail writers until the transaction ends (ascending, so two
 * writers never wait for each other). Take it before reading what the messages will say: what is
 * read after it is what the last writer committed. Taking it again in one transaction is free.
 */
export async function lockAppointmentMail(tx: Pick<Database, 'execute'>, appointmentIds: number[]): Promise<void> {
  for (const id of [...new Set(appointmentIds)].sort((a, b) => a - b)) {
    await tx.execute(sql`select pg_advisory_xact_lock(${APPOINTMENT_MAIL_LOCK}::int, ${id}::int)`)
  }
}

/** Rows (dropped ones included) one person's actions put in the outbox in the hour before `now`. */
async function causedInLastHour(tx: Writer, userId: number, now: Date): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(outbox)
    .where(and(eq(outbox.causedBy, userId), gt(outbox.createdAt, new Date(now.getTime() - HOUR_MS))))
  return Number(row?.total ?? 0)
}

export type OutboxEntry = {
  id: number
  to: string
  subject: string
  text: string
  html: string | null
  created_at: string
  /** Delivery through SMTP: sent, failed (given up) or pending (also when no SMTP_URL is set). */
  delivery: { status: 'pending' | 'sent' | 'failed'; sent_at: string | null; failed_at: string | null; attempts: number; last_error: string | null }
}

export async function listMail(db: Database, { to }: { to?: string } = {}): Promise<OutboxEntry[]> {
  const rows = await db
    .select()
    .from(outbox)
    .where(to ? eq(sql`lower(${outbox.to})`, to.trim().toLowerCase()) : undefined)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(200)
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    created_at: row.createdAt.toISOString(),
    delivery: {
      status: row.sentAt ? 'sent' : row.failedAt ? 'failed' : 'pending',
      sent_at: row.sentAt?.toISOString() ?? null,
      failed_at: row.failedAt?.toISOString() ?? null,
      attempts: row.attempts,
      last_error: row.lastError,
    },
  }))
}

export async function clearMail(db: Database): Promise<void> {
  await db.delete(outbox)
}

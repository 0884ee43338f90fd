import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import { createTransport } from 'nodemailer'
import type { Database } from '#server/db/client.ts'
import { outbox } from '#server/db/schema.ts'
import type { Logger } from '#server/log.ts'

/**
 * Delivers the outbox through SMTP (issue 12). A worker claims unsent rows with one UPDATE …
 * RETURNING over rows picked FOR UPDATE SKIP LOCKED, setting a lease (`sending_until`) and
 * counting the attempt, so two processes on one PostgreSQL never take the same row; it sends
 * each, then marks `sent_at`. A failure records `last_error` (no credentials, no body) and waits
 * `next_attempt_at` (1 min × 2^(attempts − 1), at most 1 h); a permanent refusal (an SMTP 5xx
 * about the message), the last of MAX_ATTEMPTS, or a message older than MAX_AGE_MS sets
 * `failed_at`. A process that dies while sending leaves a lease that runs out, and the row is
 * tried again: the one case where a message may go twice, which its fixed Message-ID lets the
 * receiving side recognise.
 */

const MINUTE = 60_000
export const MAX_ATTEMPTS = 8
const FIRST_BACKOFF_MS = MINUTE
const MAX_BACKOFF_MS = 60 * MINUTE
/** Longer than any one send can take (the transport's timeouts below add up to less). */
const LEASE_MS = 5 * MINUTE
/** A message not delivered by then is stale (a reset link, a reminder): given up. */
const MAX_AGE_MS = 24 * 60 * MINUTE
const DELIVERY_BATCH = 20
const MAX_ERROR_LENGTH = 500

/** How long to wait after the n-th failed attempt. */
export function backoffMs(attempts: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS)
}

export type OutgoingMail = { to: string; subject: string; text: string; html: string | null; messageId: string }

/** Sends one message or throws (a nodemailer error: `code`, `responseCode`, `permanent`). */
export type MailSender = {
  send(mail: OutgoingMail): Promise<void>
  /** The values a failure's text must never contain (the SMTP password, the whole URL). */
  readonly secrets: readonly string[]
  /** Where mail goes, safe to log: scheme, host and port. */
  readonly description: string
  /** The domain of the From address, for Message-IDs. */
  readonly domain: string
  close(): void
}

/** A nodemailer SMTP transport for `smtp[s]://user:pass@host:port` (no pool: a connection per message). */
export function createSmtpSender(smtpUrl: string, from: string): MailSender {
  const transport = createTransport({ url: smtpUrl, connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000, logger: false, debug: false })
  const url = new URL(smtpUrl)
  const secrets = [smtpUrl, url.password, safeDecode(url.password)].filter((value) => value.length >= 3)
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined, messageId: mail.messageId })
    },
    secrets,
    description: `${url.protocol}//${url.host}`,
    domain: /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'innera.local',
    close: () => transport.close(),
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

type SmtpError = { code?: unknown; responseCode?: unknown; permanent?: unknown; message?: unknown }

/** Whether retrying cannot help: the server refused this message or recipient for good. Bad credentials are worth retrying (they get fixed). */
export function isPermanentFailure(error: unknown): boolean {
  const failure = (error ?? {}) as SmtpError
  if (failure.code === 'EAUTH' || failure.code === 'ENOAUTH') return false
  if (typeof failure.permanent === 'boolean') return failure.permanent
  return typeof failure.responseCode === 'number' && failure.responseCode >= 500 && failure.responseCode !== 503
}

/** A failure as it may be stored and logged: its code, the SMTP reply code and message, without any secret. */
export function describeFailure(error: unknown, secrets: readonly string[]): string {
  const failure = (error ?? {}) as SmtpError
  const code = typeof failure.code === 'string' ? failure.code : 'ERROR'
  const reply = typeof failure.responseCode === 'number' ? ` ${failure.responseCode}` : ''
  let message = error instanceof Error ? error.message : typeof failure.message === 'string' ? failure.message : String(error)
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) message = message.split(secret).join('[redacted]')
  const text = `${code}${reply}: ${message.replace(/\s+/g, ' ').trim()}`
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text
}

export type DeliveryReport = { sent: number; retrying: number; failed: number; expired: number }

type ClaimedRow = { id: number; to: string; subject: string; textBody: string; htmlBody: string | null; attempts: number; createdAt: Date }

/** Leases up to `batch` due rows for this worker: one statement, so no other worker gets them. */
async function claim(db: Database, now: Date, batch: number): Promise<ClaimedRow[]> {
  const claimable = and(
    isNull(outbox.sentAt),
    isNull(outbox.failedAt),
    lte(outbox.nextAttemptAt, now),
    or(isNull(outbox.sendingUntil), lte(outbox.sendingUntil, now)),
  )
  const picked = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(claimable)
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(batch)
    .for('update', { skipLocked: true })
  return db
    .update(outbox)
    .set({ sendingUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${outbox.attempts} + 1` })
    // The outer conditions are checked again on the row as it is when locked.
    .where(and(inArray(outbox.id, picked), claimable))
    .returning({
      id: outbox.id,
      to: outbox.to,
      subject: outbox.subject,
      textBody: outbox.textBody,
      htmlBody: outbox.htmlBody,
      attempts: outbox.attempts,
      createdAt: outbox.createdAt,
    })
}

/**
 * One run of the worker: gives up what is too old, then claims and sends batches until nothing
 * is due (at most `maxBatches`). `clock` is read for each decision, so a long run stays honest.
 */
export async function deliverOutbox(
  db: Database,
  { sender, clock, log, batch = DELIVERY_BATCH, maxBatches = 10 }: { sender: MailSender; clock: () => number; log: Logger; batch?: number; maxBatches?: number },
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0, expired: 0 }
  const expired = await db
    .update(outbox)
    .set({ failedAt: new Date(clock()), lastError: 'EXPIRED: not delivered within 24 hours; given up.' })
    .where(
      and(
        isNull(outbox.sentAt),
        isNull(outbox.failedAt),
        lt(outbox.createdAt, new Date(clock() - MAX_AGE_MS)),
        or(isNull(outbox.sendingUntil), lte(outbox.sendingUntil, new Date(clock()))),
      ),
    )
    .returning({ id: outbox.id })
  report.expired = expired.length
  if (expired.length > 0) log({ level: 'warn', msg: 'mail given up: too old', outbox_ids: expired.map((row) => row.id) })

  for (let round = 0; round < maxBatches; round += 1) {
    const rows = await claim(db, new Date(clock()), batch)
    for (const row of rows) {
      const messageId = `<outbox-${row.id}-${row.createdAt.getTime()}@${sender.domain}>`
      try {
        await sender.send({ to: row.to, subject: row.subject, text: row.textBody, html: row.htmlBody, messageId })
      } catch (error) {
        const lastError = describeFailure(error, sender.secrets)
        const givingUp = isPermanentFailure(error) || row.attempts >= MAX_ATTEMPTS
        const now = clock()
        await db
          .update(outbox)
          .set(givingUp ? { failedAt: new Date(now), sendingUntil: null, lastError } : { nextAttemptAt: new Date(now + backoffMs(row.attempts)), sendingUntil: null, lastError })
          .where(eq(outbox.id, row.id))
        if (givingUp) report.failed += 1
        else report.retrying += 1
        log({ level: givingUp ? 'error' : 'warn', msg: givingUp ? 'mail delivery failed; given up' : 'mail delivery failed; will retry', outbox_id: row.id, attempts: row.attempts, error: lastError })
        continue
      }
      await db
        .update(outbox)
        .set({ sentAt: new Date(clock()), sendingUntil: null, lastError: null })
        .where(and(eq(outbox.id, row.id), isNull(outbox.sentAt)))
      report.sent += 1
      log({ level: 'info', msg: 'mail sent', outbox_id: row.id, attempts: row.attempts })
    }
    if (rows.length < batch) break
  }
  return report
}

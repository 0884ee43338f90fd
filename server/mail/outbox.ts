import { desc, eq, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { outbox } from '#server/db/schema.ts'
import type { MailMessage } from './messages'

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

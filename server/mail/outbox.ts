import { desc, eq, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { outbox } from '#server/db/schema.ts'
import type { MailMessage } from './messages'

/**
 * Sending an e-mail means queueing it in the outbox table. No SMTP transport exists yet;
 * in development the dev mailbox reads the outbox, and a real mailer would drain it.
 */
export async function queueMail(db: Database, message: MailMessage): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html })
    .returning({ id: outbox.id })
  return row!.id
}

export type OutboxEntry = { id: number; to: string; subject: string; text: string; html: string | null; created_at: string }

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
  }))
}

export async function clearMail(db: Database): Promise<void> {
  await db.delete(outbox)
}

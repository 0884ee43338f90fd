import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { createdAt } from '#server/db/schema/columns.ts'

/**
 * Every e-mail the provider sends. The dev mailbox reads it back; with SMTP_URL set the delivery
 * worker (mail/delivery.ts) sends each row once: it leases a row (`sending_until`) with one
 * UPDATE … RETURNING, sends, and marks `sent_at`; a failure counts an attempt and waits until
 * `next_attempt_at` (exponential backoff) or, for good, sets `failed_at`.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    to: varchar('to', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    // The last delivery failure, as the worker wrote it: never a credential or the message body.
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // While in the future, one worker is sending this row and no other may take it.
    sendingUntil: timestamp('sending_until', { withTimezone: true, mode: 'date' }),
    // Messages about one appointment to one person (`appointment:{id}:{recipient}`): while one waits
    // out its hold (next_attempt_at), a newer one replaces it (mail/collapse.ts); cleared once the hold is over.
    collapseKey: varchar('collapse_key', { length: 64 }),
    // What the waiting message tells (booked, moved from, cancelled), for the newer one to merge with.
    collapseState: jsonb('collapse_state'),
    // Whose action made this message: an hourly bound per person (decision 0035).
    causedBy: integer('caused_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('outbox_to_idx').on(table.to),
    index('outbox_pending_idx').on(table.nextAttemptAt, table.id).where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
    // At most one waiting, never-tried message per key: the row a newer message replaces.
    uniqueIndex('outbox_collapse_pending_unique')
      .on(table.collapseKey)
      .where(sql`${table.collapseKey} is not null and ${table.sentAt} is null and ${table.failedAt} is null and ${table.attempts} = 0`),
    index('outbox_caused_by_created_idx').on(table.causedBy, table.createdAt).where(sql`${table.causedBy} is not null`),
  ],
)

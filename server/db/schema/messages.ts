import { sql } from 'drizzle-orm'
import { bigint, bigserial, boolean, check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { bytea, createdAt } from '#server/db/schema/columns.ts'

/** A message's text: plain, 1 to this many characters (docs/product.md §4 "Messages"). */
export const MESSAGE_MAX_LENGTH = 4000

/**
 * A conversation between one patient and one professional with a care link (issue 44, decision
 * 0085): at most one per pair, the unique index decides whoever starts it. Each side's read mark is
 * the id of the newest message it has seen; `closed_at` (set by the professional) makes it read-only
 * for both until either books a new appointment; a patient may mute it (no notifications).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    professionalId: integer('professional_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }),
    patientReadId: bigint('patient_read_id', { mode: 'number' }).notNull().default(0),
    professionalReadId: bigint('professional_read_id', { mode: 'number' }).notNull().default(0),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    patientMuted: boolean('patient_muted').notNull().default(false),
    // When each side was last told by e-mail of a message waiting (at most once an hour per conversation).
    patientNotifiedAt: timestamp('patient_notified_at', { withTimezone: true, mode: 'date' }),
    professionalNotifiedAt: timestamp('professional_notified_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('conversations_pair_unique').on(table.patientId, table.professionalId),
    index('conversations_patient_recent_idx').on(table.patientId, sql`${table.lastMessageAt} desc nulls last`, table.id),
    index('conversations_professional_recent_idx').on(table.professionalId, sql`${table.lastMessageAt} desc nulls last`, table.id),
    check('conversations_two_people_check', sql`${table.patientId} <> ${table.professionalId}`),
  ],
)

/**
 * A message: plain text (line breaks kept, nothing interpreted), by its sender (null once the
 * sender's account is deleted). Deleted by its sender within 15 minutes (or by the admins on a
 * report): the text is emptied and `deleted_at` set, and the row stays in its place. The sender's idempotency key makes a resent
 * form the same message. A message with attachments (decision 0086) may have no text.
 */
export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    // Deleted by the admins on a report (decision 0085), not by its sender.
    removedByAdmins: boolean('removed_by_admins').notNull().default(false),
    idempotencyKey: varchar('idempotency_key', { length: 64 }),
    // How many files it was sent with (decision 0086): a message with some may have no text.
    attachmentCount: smallint('attachment_count').notNull().default(0),
  },
  (table) => [
    index('messages_conversation_idx').on(table.conversationId, table.id),
    uniqueIndex('messages_sender_key_unique').on(table.senderId, table.idempotencyKey).where(sql`${table.idempotencyKey} is not null`),
    check('messages_body_check', sql`char_length(${table.body}) <= 4000 and (${table.deletedAt} is not null or char_length(${table.body}) >= 1 or ${table.attachmentCount} > 0)`),
    check('messages_attachment_count_check', sql`${table.attachmentCount} between 0 and 5`),
  ],
)

/**
 * A file sent with a message (issue 44, decision 0086): a JPEG, PNG or WebP image (re-encoded without
 * its metadata) or a PDF, at most 10 MB, its type read from its bytes. Kept in the database like the
 * profile photos, so every provider process and every backup has it. Served only through a signed
 * link made for one of the conversation's two. `uploader_id` counts the per-day and storage bounds
 * and goes with the uploader's account (the message's other side keeps the text). Deleted with its
 * message's deletion by the sender or the moderation.
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    uploaderId: integer('uploader_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Its place among the message's files, 0 to 4.
    position: smallint('position').notNull(),
    // The name it was sent with, cleaned (no path, no control characters); shown, never trusted.
    name: varchar('name', { length: 255 }).notNull(),
    contentType: varchar('content_type', { length: 32 }).notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('message_attachments_message_position_unique').on(table.messageId, table.position),
    index('message_attachments_uploader_idx').on(table.uploaderId, table.createdAt),
    check('message_attachments_type_check', sql`${table.contentType} in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')`),
    check('message_attachments_size_check', sql`${table.size} between 1 and 10485760`),
    check('message_attachments_position_check', sql`${table.position} between 0 and 4`),
  ],
)

export const REPORT_OUTCOMES = ['dismissed', 'removed'] as const
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number]

/**
 * A message one of the two reported to the admins (decision 0085): the message, and only it, with
 * the reporter's reason. The text is kept as reported, so the admins' queue reads this row and never
 * the conversation. One report per message and reporter.
 */
export const messageReports = pgTable(
  'message_reports',
  {
    id: serial('id').primaryKey(),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    reportedText: text('reported_text').notNull(),
    createdAt: createdAt(),
    handledAt: timestamp('handled_at', { withTimezone: true, mode: 'date' }),
    handledBy: integer('handled_by').references(() => users.id, { onDelete: 'set null' }),
    outcome: varchar('outcome', { length: 20 }).$type<ReportOutcome>(),
  },
  (table) => [
    uniqueIndex('message_reports_message_reporter_unique').on(table.messageId, table.reporterId),
    index('message_reports_open_idx').on(table.createdAt, table.id).where(sql`${table.handledAt} is null`),
    check('message_reports_outcome_check', sql`${table.outcome} is null or ${table.outcome} in ('dismissed', 'removed')`),
    check('message_reports_reason_check', sql`char_length(${table.reason}) between 1 and 1000`),
  ],
)

/**
 * How a user wants to hear of messages waiting for them (decision 0085): by e-mail (on unless
 * turned off), by Web Push (off until they opt in), and quiet hours in their own time zone ("HH:MM"
 * to "HH:MM", across midnight when the end is earlier; both null: none) when neither is sent. No
 * row: the defaults.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: boolean('email').notNull().default(true),
    push: boolean('push').notNull().default(false),
    quietStart: varchar('quiet_start', { length: 5 }),
    quietEnd: varchar('quiet_end', { length: 5 }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    check('notification_settings_quiet_check', sql`(${table.quietStart} is null) = (${table.quietEnd} is null) and (${table.quietStart} is null or (${table.quietStart} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${table.quietEnd} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${table.quietStart} <> ${table.quietEnd}))`),
  ],
)

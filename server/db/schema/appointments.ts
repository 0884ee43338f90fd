import { sql } from 'drizzle-orm'
import { type AnyPgColumn, boolean, check, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { createdAt } from '#server/db/schema/columns.ts'
import { consultationCredits, purchases } from '#server/db/schema/commerce.ts'
import { outbox } from '#server/db/schema/mail.ts'

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]
/** A period of a day in wall time: "HH:MM" to "HH:MM" ("24:00" allowed as an end). */
export type TimeSlot = { start: string; end: string }
/** docs/product.md §3's availability: per weekday, whether it is open and its slots. */
export type WeeklyAvailability = Record<Weekday, { enabled: boolean; slots: TimeSlot[] }>

/**
 * A professional's profile and schedule (decision 0023). One row per professional; having one
 * (and `accredited`) is what puts them in the booking directory. Bio stays on users.
 */
export const professionalProfiles = pgTable('professional_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  profession: varchar('profession', { length: 150 }).notNull().default(''),
  registrationNumber: varchar('registration_number', { length: 50 }).notNull().default(''),
  pillars: jsonb('pillars').$type<string[]>().notNull().default([]),
  languages: jsonb('languages').$type<string[]>().notNull().default(['pt']),
  consultationMinutes: integer('consultation_minutes').notNull().default(50),
  priceCents: integer('price_cents').notNull().default(0),
  bufferMinutes: integer('buffer_minutes').notNull().default(0),
  minimumNoticeHours: integer('minimum_notice_hours').notNull().default(12),
  horizonDays: integer('horizon_days').notNull().default(60),
  timeZone: varchar('time_zone', { length: 64 }).notNull().default('America/Sao_Paulo'),
  availability: jsonb('availability').$type<WeeklyAvailability>().notNull(),
  accredited: boolean('accredited').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})

/** A date with other hours than its weekday's: empty slots are a day off. */
export const scheduleExceptions = pgTable(
  'schedule_exceptions',
  {
    id: serial('id').primaryKey(),
    professionalId: integer('professional_id')
      .notNull()
      .references(() => professionalProfiles.userId, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    slots: jsonb('slots').$type<TimeSlot[]>().notNull(),
  },
  (table) => [uniqueIndex('schedule_exceptions_professional_date_unique').on(table.professionalId, table.date)],
)

/** `awaiting_payment`: a paid consultation's time held while its payment is open (decision 0051). */
export const APPOINTMENT_STATUSES = ['awaiting_payment', 'scheduled', 'confirmed', 'completed', 'cancelled', 'no_show'] as const
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number]
export type CancelledBy = 'patient' | 'professional' | 'admin'
export type Refund = 'full' | 'none'

/**
 * Consultations. `blocked_until` is the end plus the buffer the professional had when it was
 * booked; the migration adds an exclusion constraint (appointments_no_overlap) so two live
 * appointments of one professional never overlap on [start_time, blocked_until), whichever
 * process inserts them.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: serial('id').primaryKey(),
    professionalId: integer('professional_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    patientId: integer('patient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startTime: timestamp('start_time', { withTimezone: true, mode: 'date' }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true, mode: 'date' }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }).notNull(),
    status: varchar('status', { length: 20 }).$type<AppointmentStatus>().notNull().default('scheduled'),
    notes: text('notes').notNull().default(''),
    sharedNotes: text('shared_notes').notNull().default(''),
    // The professional's own consultation notes: never shown to the patient.
    privateNotes: text('private_notes').notNull().default(''),
    meetingLink: varchar('meeting_link', { length: 255 }).notNull(),
    paymentReference: varchar('payment_reference', { length: 100 }),
    // A paid consultation (decision 0051): its price as booked (null: free), the purchase that pays
    // it or the package credit it used (never both), and until when its time is held unpaid.
    priceCents: integer('price_cents'),
    purchaseId: integer('purchase_id').references((): AnyPgColumn => purchases.id),
    creditId: integer('credit_id').references((): AnyPgColumn => consultationCredits.id),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    cancelledBy: varchar('cancelled_by', { length: 20 }).$type<CancelledBy>(),
    cancellationReason: text('cancellation_reason').notNull().default(''),
    refund: varchar('refund', { length: 10 }).$type<Refund>(),
    // The event mirroring it in the professional's Google calendar (calendar/appointment-events.ts).
    googleEventId: varchar('google_event_id', { length: 1024 }),
    // The booking form's key (decision 0034): the same key from the same patient is the same booking.
    idempotencyKey: varchar('idempotency_key', { length: 64 }),
    // The key of the reschedule that last moved it: the same key again changes nothing.
    rescheduleKey: varchar('reschedule_key', { length: 64 }),
  },
  (table) => [
    index('appointments_professional_start_idx').on(table.professionalId, table.startTime),
    uniqueIndex('appointments_patient_idempotency_key_unique').on(table.patientId, table.idempotencyKey).where(sql`${table.idempotencyKey} is not null`),
    index('appointments_patient_start_idx').on(table.patientId, table.startTime),
    uniqueIndex('appointments_purchase_unique').on(table.purchaseId).where(sql`${table.purchaseId} is not null`),
    index('appointments_credit_idx').on(table.creditId).where(sql`${table.creditId} is not null`),
    check('appointments_status_check', sql`${table.status} in ('awaiting_payment', 'scheduled', 'confirmed', 'completed', 'cancelled', 'no_show')`),
    check('appointments_price_check', sql`${table.priceCents} is null or (${table.priceCents} > 0 and ${table.priceCents} <= 99999999)`),
    check('appointments_payment_check', sql`${table.purchaseId} is null or ${table.creditId} is null`),
    check('appointments_hold_check', sql`${table.status} <> 'awaiting_payment' or (${table.holdExpiresAt} is not null and ${table.purchaseId} is not null)`),
    check('appointments_times_check', sql`${table.endTime} > ${table.startTime} and ${table.blockedUntil} >= ${table.endTime}`),
    check('appointments_cancelled_by_check', sql`${table.cancelledBy} is null or ${table.cancelledBy} in ('patient', 'professional', 'admin')`),
    check('appointments_refund_check', sql`${table.refund} is null or ${table.refund} in ('full', 'none')`),
  ],
)

export const SCHEDULED_MESSAGE_KINDS = ['confirmation', 'reminder_24h', 'reminder_1h'] as const
export type ScheduledMessageKind = (typeof SCHEDULED_MESSAGE_KINDS)[number]
export type MessageRecipient = 'patient' | 'professional'
/** pending: waits for due_at; sent: turned into an outbox row; cancelled: the appointment was; skipped: too late or nobody to tell. */
export type ScheduledMessageStatus = 'pending' | 'sent' | 'cancelled' | 'skipped'

/**
 * The e-mails an appointment schedules (issue 12): a confirmation at booking and reminders 24 h
 * and 1 h before, to each of its two people. One row per (appointment, kind, recipient), enforced
 * here; a due row becomes an outbox message exactly once, whichever process claims it
 * (appointments/reminders.ts). Moving the appointment moves the pending rows; cancelling it
 * cancels them.
 */
export const scheduledMessages = pgTable(
  'scheduled_messages',
  {
    id: serial('id').primaryKey(),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 20 }).$type<ScheduledMessageKind>().notNull(),
    recipient: varchar('recipient', { length: 20 }).$type<MessageRecipient>().notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    status: varchar('status', { length: 20 }).$type<ScheduledMessageStatus>().notNull().default('pending'),
    outboxId: integer('outbox_id').references(() => outbox.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('scheduled_messages_appointment_kind_recipient_unique').on(table.appointmentId, table.kind, table.recipient),
    index('scheduled_messages_due_idx').on(table.dueAt, table.id).where(sql`${table.status} = 'pending'`),
    check('scheduled_messages_kind_check', sql`${table.kind} in ('confirmation', 'reminder_24h', 'reminder_1h')`),
    check('scheduled_messages_recipient_check', sql`${table.recipient} in ('patient', 'professional')`),
    check('scheduled_messages_status_check', sql`${table.status} in ('pending', 'sent', 'cancelled', 'skipped')`),
  ],
)

/**
 * A user's private calendar feed (issue 12): the URL's secret is 32 random bytes of which only the
 * SHA-256 is kept. One per user; creating another replaces it, deleting the row revokes it.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('calendar_feeds_token_hash_unique').on(table.tokenHash)],
)

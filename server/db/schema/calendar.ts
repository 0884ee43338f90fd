import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { createdAt } from '#server/db/schema/columns.ts'

/** A Google event time: a `dateTime` with its offset (timed) or a `date` (all-day, end exclusive). */
export type GoogleEventTime = { dateTime?: string; date?: string; timeZone?: string }
export type GoogleAttendee = { email: string; displayName?: string; responseStatus?: string; self?: boolean }

/**
 * A professional's Google Calendar connection (decision 0025). The refresh token (and the cached
 * access token) are sealed with AES-256-GCM under a key derived from PROVIDER_JWT_SECRET
 * (calendar/token-sealing.ts). `token_valid` turns false when Google answers invalid_grant (the
 * grant was revoked or expired): the professional must connect again. A sync holds the lease
 * (`sync_lease_id` until `sync_lease_until`), so one sync of a calendar runs at a time across
 * processes.
 */
export const calendarConnections = pgTable(
  'calendar_connections',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    googleEmail: varchar('google_email', { length: 254 }),
    primaryCalendarId: varchar('primary_calendar_id', { length: 1024 }),
    // The calendar's own zone: where its all-day events begin and end.
    calendarTimeZone: varchar('calendar_time_zone', { length: 64 }),
    refreshTokenSealed: text('refresh_token_sealed').notNull(),
    accessTokenSealed: text('access_token_sealed'),
    // As Google's client library counts it (the wall clock), only to reuse the access token.
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true, mode: 'date' }),
    scope: text('scope').notNull().default(''),
    tokenValid: boolean('token_valid').notNull().default(true),
    syncToken: text('sync_token'),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true, mode: 'date' }),
    syncStartedAt: timestamp('sync_started_at', { withTimezone: true, mode: 'date' }),
    syncLeaseId: varchar('sync_lease_id', { length: 64 }),
    syncLeaseUntil: timestamp('sync_lease_until', { withTimezone: true, mode: 'date' }),
    connectedAt: createdAt(),
  },
  (table) => [index('calendar_connections_last_sync_idx').on(table.lastSyncAt).where(sql`${table.tokenValid}`)],
)

/**
 * The synced copy of each connected professional's primary calendar: what GET /calendar/ reads
 * within the cache time and what free times count as busy (decision 0026). Cancelled events are
 * not kept. `start_at`/`end_at` are instants (an all-day event's dates at midnight in the
 * calendar's zone); `start`/`end` are Google's own.
 */
export const calendarEvents = pgTable(
  'calendar_events',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    googleEventId: varchar('google_event_id', { length: 1024 }).notNull(),
    summary: text('summary').notNull().default(''),
    description: text('description').notNull().default(''),
    location: text('location').notNull().default(''),
    start: jsonb('start').$type<GoogleEventTime>().notNull(),
    end: jsonb('end').$type<GoogleEventTime>().notNull(),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }).notNull(),
    allDay: boolean('all_day').notNull(),
    status: varchar('status', { length: 20 }).notNull(),
    transparency: varchar('transparency', { length: 20 }).notNull().default('opaque'),
    attendees: jsonb('attendees').$type<GoogleAttendee[]>().notNull().default([]),
    // The calendar owner's answer when the event is an invitation (accepted, declined, …).
    selfResponseStatus: varchar('self_response_status', { length: 20 }),
    htmlLink: text('html_link'),
    colorId: varchar('color_id', { length: 20 }),
    // Set on the events the product writes for its appointments (no foreign key: the event outlives a deleted appointment until the hook removes it).
    inneraAppointmentId: integer('innera_appointment_id'),
    createdByInnera: boolean('created_by_innera').notNull().default(false),
  },
  (table) => [
    uniqueIndex('calendar_events_user_event_unique').on(table.userId, table.googleEventId),
    index('calendar_events_user_start_idx').on(table.userId, table.startAt),
  ],
)

/**
 * The notes a professional typed for an event of their calendar (decision 0029): kept here only,
 * never written to Google (they may hold health details: LGPD). Keyed by the event's Google id,
 * apart from the synced copy, so no sync rewrites them; an event that leaves the synced copy
 * (deleted here or at Google, a disconnect) takes its notes along.
 */
export const calendarEventNotes = pgTable(
  'calendar_event_notes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    googleEventId: varchar('google_event_id', { length: 1024 }).notNull(),
    notes: text('notes').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.googleEventId] })],
)

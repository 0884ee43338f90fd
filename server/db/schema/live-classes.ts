import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, primaryKey, serial, timestamp, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { type LocalizedText, SLUG_PATTERN, createdAt, localizedTextCheck } from '#server/db/schema/columns.ts'
import { pillars } from '#server/db/schema/content.ts'

/** Who may take a live class's seat: anyone signed in, or members (a live plan or a program; decision 0058). */
export type LiveClassAccess = 'free' | 'members'

/**
 * A live class on Zoom (decision 0058): its teacher, start and length, its seats (taken ones
 * counted here, never beyond the seats: the CHECK decides) and, once created, its Zoom meeting.
 */
export const liveClasses = pgTable(
  'live_classes',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 120 }).notNull().unique(),
    pillarSlug: varchar('pillar_slug', { length: 50 })
      .notNull()
      .references(() => pillars.slug),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    seats: integer('seats').notNull(),
    seatsTaken: integer('seats_taken').notNull().default(0),
    access: varchar('access', { length: 10 }).$type<LiveClassAccess>().notNull(),
    zoomMeetingId: varchar('zoom_meeting_id', { length: 32 }),
    joinUrl: varchar('join_url', { length: 1000 }),
    /** The host's link: only ever given to the class's teacher (and admins). */
    startUrl: varchar('start_url', { length: 2000 }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('live_classes_starts_idx').on(table.startsAt, table.id).where(sql`${table.cancelledAt} is null`),
    check('live_classes_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('live_classes_title_check', localizedTextCheck(table.title, 120)),
    check('live_classes_description_check', localizedTextCheck(table.description, 2000)),
    check('live_classes_duration_check', sql`${table.durationMinutes} between 15 and 240`),
    check('live_classes_seats_check', sql`${table.seats} between 1 and 1000`),
    check('live_classes_seats_taken_check', sql`${table.seatsTaken} between 0 and ${table.seats}`),
    check('live_classes_access_check', sql`${table.access} in ('free', 'members')`),
    check(
      'live_classes_meeting_check',
      sql`(${table.zoomMeetingId} is null) = (${table.joinUrl} is null) and (${table.joinUrl} is null) = (${table.startUrl} is null)`,
    ),
  ],
)

/** A seat held in a live class, and whether each reminder is settled (sent, or not needed: reserved after it was due). */
export const liveClassSeats = pgTable(
  'live_class_seats',
  {
    classId: integer('class_id')
      .notNull()
      .references(() => liveClasses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reservedAt: timestamp('reserved_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    reminded24hAt: timestamp('reminded_24h_at', { withTimezone: true, mode: 'date' }),
    reminded15mAt: timestamp('reminded_15m_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [primaryKey({ name: 'live_class_seats_pk', columns: [table.classId, table.userId] }), index('live_class_seats_user_idx').on(table.userId)],
)

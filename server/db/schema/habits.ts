import { sql } from 'drizzle-orm'
import { check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, timestamp, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import type { Weekday } from '#server/db/schema/appointments.ts'
import { createdAt } from '#server/db/schema/columns.ts'

/** How often a habit is due (decision 0027): every day, chosen weekdays, or N times a week (Monday to Sunday). */
export type HabitFrequency = { kind: 'daily' } | { kind: 'weekdays'; days: Weekday[] } | { kind: 'weekly'; times: number }
export type HabitEntryStatus = 'done' | 'not_done' | 'skipped'

/**
 * A patient's habit (issue 14): one pillar, a frequency, an optional numeric target with its unit
 * and an optional reminder time (wall time in the user's zone). Archived habits keep their history.
 */
export const habits = pgTable(
  'habits',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pillarSlug: varchar('pillar_slug', { length: 50 }).notNull(),
    name: varchar('name', { length: 120 }).notNull(),
    frequency: jsonb('frequency').$type<HabitFrequency>().notNull(),
    target: doublePrecision('target'),
    unit: varchar('unit', { length: 30 }).notNull().default(''),
    // "HH:MM" in the user's time zone, or null for no reminder.
    reminderTime: varchar('reminder_time', { length: 5 }),
    // The user's local date the habit was made on: no day before it is due.
    createdOn: date('created_on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    archivedAt: timestamp('archived_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('habits_user_idx').on(table.userId, table.archivedAt)],
)

/** One answer per habit and local date: the primary key makes a day count once, whatever the retries or processes. */
export const habitEntries = pgTable(
  'habit_entries',
  {
    habitId: integer('habit_id')
      .notNull()
      .references(() => habits.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    status: varchar('status', { length: 10 }).$type<HabitEntryStatus>().notNull(),
    amount: doublePrecision('amount'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.habitId, table.date] }), check('habit_entries_status_check', sql`${table.status} in ('done', 'not_done', 'skipped')`)],
)

/** The reminder of one habit on one local date, sent once: the primary key is the "exactly once" across processes. */
export const habitReminders = pgTable(
  'habit_reminders',
  {
    habitId: integer('habit_id')
      .notNull()
      .references(() => habits.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.habitId, table.date] })],
)

import { boolean, date, index, integer, jsonb, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { type LocalizedText, createdAt } from '#server/db/schema/columns.ts'
import { questionnaireResults } from '#server/db/schema/questionnaire.ts'

/** A patient's 8-12 week program; the newest one is their current program. */
export const programs = pgTable(
  'programs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The result it was built from; null when the patient chose the focus pillars themselves.
    resultId: integer('result_id').references(() => questionnaireResults.id, { onDelete: 'set null' }),
    source: varchar('source', { length: 20 }).$type<'questionnaire' | 'selection'>().notNull(),
    createdAt: createdAt(),
    // The first day of week 1, in America/Sao_Paulo.
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    weeks: integer('weeks').notNull(),
    focusPillars: jsonb('focus_pillars').$type<string[]>().notNull(),
    pillarsOrder: jsonb('pillars_order').$type<string[]>().notNull(),
  },
  (table) => [index('programs_user_created_idx').on(table.userId, table.createdAt)],
)

/** The weekly goals of a program, texts copied from the goal library when it was built. */
export const programGoals = pgTable(
  'program_goals',
  {
    id: serial('id').primaryKey(),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    week: integer('week').notNull(),
    position: integer('position').notNull(),
    pillarSlug: varchar('pillar_slug', { length: 50 }).notNull(),
    level: integer('level').notNull(),
    focus: boolean('focus').notNull(),
    text: jsonb('text').$type<LocalizedText>().notNull(),
    done: boolean('done').notNull().default(false),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('program_goals_program_idx').on(table.programId, table.week, table.position)],
)

import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { type LocalizedText, createdAt } from '#server/db/schema/columns.ts'
import { pillars } from '#server/db/schema/content.ts'

export type QuestionOption = { value: number; label: LocalizedText }

/** A published version of the health assessment. Its questions never change once published. */
export const questionnaireVersions = pgTable(
  'questionnaire_versions',
  {
    version: varchar('version', { length: 20 }).primaryKey(),
    isCurrent: boolean('is_current').notNull().default(false),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    estimatedMinutes: integer('estimated_minutes').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // At most one version is the one patients answer.
  (table) => [uniqueIndex('questionnaire_versions_one_current').on(table.isCurrent).where(sql`${table.isCurrent}`)],
)

/** Likert items (five options, values 0-4) of one version; `reverse` items score 4 - value. */
export const questionnaireQuestions = pgTable(
  'questionnaire_questions',
  {
    id: serial('id').primaryKey(),
    version: varchar('version', { length: 20 })
      .notNull()
      .references(() => questionnaireVersions.version, { onDelete: 'cascade' }),
    code: varchar('code', { length: 64 }).notNull(),
    pillarSlug: varchar('pillar_slug', { length: 50 })
      .notNull()
      .references(() => pillars.slug),
    order: integer('order').notNull(),
    text: jsonb('text').$type<LocalizedText>().notNull(),
    options: jsonb('options').$type<QuestionOption[]>().notNull(),
    reverse: boolean('reverse').notNull().default(false),
  },
  (table) => [uniqueIndex('questionnaire_questions_version_code_unique').on(table.version, table.code)],
)

/** One submission of the assessment: the answers by question code and the scores by pillar slug. */
export const questionnaireResults = pgTable(
  'questionnaire_results',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: varchar('version', { length: 20 })
      .notNull()
      .references(() => questionnaireVersions.version),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    answers: jsonb('answers').$type<Record<string, number>>().notNull(),
    scores: jsonb('scores').$type<Record<string, number>>().notNull(),
    focusPillars: jsonb('focus_pillars').$type<string[]>().notNull(),
  },
  (table) => [index('questionnaire_results_user_submitted_idx').on(table.userId, table.submittedAt)],
)

/** Which professionals a patient has shared a result with. */
export const questionnaireShares = pgTable(
  'questionnaire_shares',
  {
    resultId: integer('result_id')
      .notNull()
      .references(() => questionnaireResults.id, { onDelete: 'cascade' }),
    professionalId: integer('professional_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.resultId, table.professionalId] }),
    index('questionnaire_shares_professional_idx').on(table.professionalId),
  ],
)

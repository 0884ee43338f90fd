import { sql } from 'drizzle-orm'
import { check, integer, jsonb, pgTable, primaryKey, serial, timestamp, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import type { LocalizedText } from '#server/db/schema/columns.ts'

export const pillars = pgTable('pillars', {
  id: serial('id').primaryKey(),
  slug: varchar('slug', { length: 50 }).notNull().unique(),
  order: integer('order').notNull(),
  icon: varchar('icon', { length: 50 }).notNull(),
  position: varchar('position', { length: 5 }).$type<'left' | 'right'>().notNull(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  description: jsonb('description').$type<LocalizedText>().notNull(),
})
/** The six pillars' slugs, in their order (their texts are the admins' to edit; the seed writes the first ones). */
export const PILLAR_SLUGS = ['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'] as const

/** What the admin content editor keeps as drafts (decision 0064): one kind per content table. */
export const CONTENT_KINDS = ['pillar', 'product', 'course', 'lesson', 'live_class', 'questionnaire'] as const
export type ContentKind = (typeof CONTENT_KINDS)[number]

/**
 * An admin's unpublished edit of one content item (decision 0064): the form's values as typed, a
 * language possibly still empty. The published rows always hold all three languages (their CHECKs
 * decide); publishing checks the draft, writes the row and removes the draft in one transaction.
 * The key is the item's slug (the questionnaire's version), so a new item's draft is named before
 * it exists.
 */
export const contentDrafts = pgTable(
  'content_drafts',
  {
    kind: varchar('kind', { length: 20 }).$type<ContentKind>().notNull(),
    key: varchar('key', { length: 120 }).notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'content_drafts_pk', columns: [table.kind, table.key] }),
    check('content_drafts_kind_check', sql`${table.kind} in ('pillar', 'product', 'course', 'lesson', 'live_class', 'questionnaire')`),
    check('content_drafts_body_check', sql`jsonb_typeof(${table.body}) = 'object' and octet_length(${table.body}::text) <= 262144`),
  ],
)

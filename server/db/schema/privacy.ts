import { sql } from 'drizzle-orm'
import { bigserial, boolean, check, date, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'

/**
 * The audit log (decision 0059): who (actor, with their role then; null and "system" for the
 * provider's own jobs) did what (`area.verb`, e.g. "user.groups", "health.view") to what (type and
 * id), whose data it was, the changed fields before and after, and why. Append-only: a trigger
 * refuses UPDATE and DELETE (migration 0023). No foreign keys: an entry outlives what it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorId: integer('actor_id'),
    actorRole: varchar('actor_role', { length: 20 }).$type<'admin' | 'profissional' | 'paciente' | 'system'>().notNull(),
    action: varchar('action', { length: 64 }).notNull(),
    targetType: varchar('target_type', { length: 32 }).notNull(),
    targetId: varchar('target_id', { length: 64 }),
    subjectUserId: integer('subject_user_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    reason: varchar('reason', { length: 1000 }),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at.desc(), table.id.desc()),
    index('audit_log_actor_idx').on(table.actorId, table.at.desc()),
    index('audit_log_subject_idx').on(table.subjectUserId, table.at.desc()),
    index('audit_log_action_idx').on(table.action, table.at.desc()),
  ],
)

/** The documents a consent is recorded for (decision 0060): the terms, the privacy policy, the cookie policy and the marketing opt-in. */
export const CONSENT_DOCUMENTS = ['terms', 'privacy', 'cookies', 'marketing'] as const
export type ConsentDocument = (typeof CONSENT_DOCUMENTS)[number]
/** Where a consent was given or withdrawn: at registration, on the privacy page, through the cookie banner, by the account's deletion. */
export const CONSENT_SOURCES = ['signup', 'settings', 'cookie-banner', 'deletion'] as const
export type ConsentSource = (typeof CONSENT_SOURCES)[number]
/** The optional cookie categories a cookie-policy record holds (necessary is always on). */
export type CookieCategories = { preferences: boolean; analytics: boolean; marketing: boolean }

/**
 * The consent record (issue 26, decision 0060): when, to which version of which document, consent
 * was given or withdrawn, and from where. Append-only: a trigger refuses UPDATE, and DELETE of a
 * record younger than its retention (marketing 2 years, any other 5), by the database's clock.
 */
export const consentRecords = pgTable(
  'consent_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    document: varchar('document', { length: 20 }).$type<ConsentDocument>().notNull(),
    version: varchar('version', { length: 16 }).notNull(),
    granted: boolean('granted').notNull(),
    source: varchar('source', { length: 20 }).$type<ConsentSource>().notNull(),
    categories: jsonb('categories').$type<CookieCategories>(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('consent_records_user_idx').on(table.userId, table.recordedAt.desc(), table.id.desc()),
    index('consent_records_marketing_idx').on(table.userId, table.recordedAt.desc(), table.id.desc()).where(sql`${table.document} = 'marketing'`),
    check('consent_records_document_check', sql`${table.document} in ('terms', 'privacy', 'cookies', 'marketing')`),
    check('consent_records_version_check', sql`${table.version} ~ '^[0-9]{1,3}(\\.[0-9]{1,3}){0,2}$'`),
    check('consent_records_source_check', sql`${table.source} in ('signup', 'settings', 'cookie-banner', 'deletion')`),
    check('consent_records_categories_check', sql`(${table.document} = 'cookies') = (${table.categories} is not null) and (${table.categories} is null or jsonb_typeof(${table.categories}) = 'object')`),
  ],
)

/** Why an account was closed: its owner asked, or it was inactive past the retention (decision 0060). */
export type DeletionReason = 'request' | 'inactivity'

/**
 * An account's deletion (decision 0060): written in the transaction that closes the account (no
 * sign-in from then on); the steps after it (appointments cancelled, data deleted, the rest
 * anonymised) run under the lease (`lease_until`), each safe to repeat, and `finished_at` marks
 * them all done. A crash leaves the row pending; the retention job takes it up once its lease ends.
 */
export const accountDeletions = pgTable(
  'account_deletions',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    reason: varchar('reason', { length: 20 }).$type<DeletionReason>().notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: varchar('last_error', { length: 500 }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    report: jsonb('report').$type<Record<string, number>>(),
  },
  (table) => [
    index('account_deletions_pending_idx').on(table.requestedAt, table.userId).where(sql`${table.finishedAt} is null`),
    check('account_deletions_reason_check', sql`${table.reason} in ('request', 'inactivity')`),
  ],
)

/** The retention job's runs (decision 0060): one row per day, inserted by the one process that runs it. */
export const retentionRuns = pgTable('retention_runs', {
  day: date('day', { mode: 'string' }).primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  counts: jsonb('counts').$type<Record<string, number>>(),
})

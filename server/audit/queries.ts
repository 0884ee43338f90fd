import { type AnyColumn, and, count, desc, eq, gte, inArray, like, lt, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#server/db/client.ts'
import { auditLog, users } from '#server/db/schema.ts'

/**
 * Reading the audit log (decision 0059): the admins' filters, a page newest first, and keyset
 * batches for the export (never the whole log in memory however long it grows).
 */

/** Someone named by their id or their e-mail (any case). */
export type PersonRef = { id: number } | { email: string }

export type AuditFilter = {
  actor?: PersonRef
  subject?: PersonRef
  /** One action ("user.groups"), or an area ("user": every "user.*"). */
  action?: string
  targetType?: string
  /** Instants: from inclusive, to exclusive. */
  from?: number
  to?: number
}

const actorUser = alias(users, 'actor_user')
const subjectUser = alias(users, 'subject_user')

/** The ids of the users a reference names (one at most: e-mails are unique in any case). */
const idsOf = (db: Database, ref: PersonRef) =>
  'id' in ref ? [ref.id] : db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, ref.email.toLowerCase()))

function filterCondition(db: Database, filter: AuditFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = []
  if (filter.actor) conditions.push(inArray(auditLog.actorId, idsOf(db, filter.actor)))
  if (filter.subject) conditions.push(inArray(auditLog.subjectUserId, idsOf(db, filter.subject)))
  if (filter.action) conditions.push(filter.action.includes('.') ? eq(auditLog.action, filter.action) : like(auditLog.action, `${filter.action}.%`))
  if (filter.targetType) conditions.push(eq(auditLog.targetType, filter.targetType))
  if (filter.from !== undefined) conditions.push(gte(auditLog.at, new Date(filter.from)))
  if (filter.to !== undefined) conditions.push(lt(auditLog.at, new Date(filter.to)))
  return and(...conditions)
}

export async function countAuditEntries(db: Database, filter: AuditFilter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(auditLog).where(filterCondition(db, filter))
  return Number(row?.total ?? 0)
}

const personName = (person: { firstName: AnyColumn; lastName: AnyColumn }) => sql<string | null>`nullif(trim(${person.firstName} || ' ' || ${person.lastName}), '')`

/** An entry with the names of whoever it names, read in the same statement. */
function selectEntries(db: Database) {
  return db
    .select({
      entry: auditLog,
      // The entry's own instant as PostgreSQL writes it (microseconds and all): the export's cursor.
      cursorAt: sql<string>`${auditLog.at}::text`,
      actor: { name: personName(actorUser), username: actorUser.username, email: actorUser.email },
      subject: { name: personName(subjectUser), username: subjectUser.username },
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorId))
    .leftJoin(subjectUser, eq(subjectUser.id, auditLog.subjectUserId))
}

type AuditView = Awaited<ReturnType<ReturnType<typeof selectEntries>['execute']>>[number]

/** A page of entries, newest first (the index on at, id serves the order). */
export async function auditEntriesPage(db: Database, filter: AuditFilter, { limit, offset }: { limit: number; offset: number }): Promise<AuditView[]> {
  return selectEntries(db)
    .where(filterCondition(db, filter))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit)
    .offset(offset)
}

/** Where a batch of the export ended: the last entry's instant (as PostgreSQL wrote it) and id. */
export type AuditCursor = { at: string; id: number }

/** The next `limit` entries after the cursor, newest first: a keyset read that costs the same deep in the log as at its top. */
export async function auditEntriesAfter(db: Database, filter: AuditFilter, cursor: AuditCursor | undefined, limit: number): Promise<AuditView[]> {
  const after = cursor ? sql`(${auditLog.at}, ${auditLog.id}) < (${cursor.at}::timestamptz, ${cursor.id})` : undefined
  return selectEntries(db)
    .where(and(filterCondition(db, filter), after))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit)
}

export const cursorOf = (view: AuditView): AuditCursor => ({ at: view.cursorAt, id: view.entry.id })

/** An entry as GET /admin/audit/ answers it: who (null for the provider's own jobs), what, when, whose data, before and after, why. */
export function serializeAuditEntry({ entry, actor, subject }: AuditView) {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    // A person who no longer exists is still named by id and role (an entry outlives what it names).
    actor: entry.actorId === null ? null : { id: entry.actorId, role: entry.actorRole, name: actor?.name ?? actor?.username ?? null, email: actor?.email ?? null },
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    subject: entry.subjectUserId === null ? null : { id: entry.subjectUserId, name: subject?.name ?? subject?.username ?? null },
    before: entry.before,
    after: entry.after,
    reason: entry.reason,
  }
}

import { and, count, desc, eq, ilike, ne, or, type SQL } from 'drizzle-orm'
import { type AuditEntry } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Database } from '#server/db/client.ts'
import { likePattern } from '#server/db/like-pattern.ts'
import { contactMessages } from '#server/db/schema.ts'
import type { ContactSubject } from '#server/mail/contact-notification.ts'

export type ContactMessageRow = typeof contactMessages.$inferSelect
type NewContactMessage = Omit<typeof contactMessages.$inferInsert, 'id' | 'handled' | 'handledAt'>

/** The admins' filters (already validated): a text in the name, e-mail or message; a subject; handled or not. */
export type ContactFilter = { search?: string; subject?: ContactSubject; handled?: boolean }

export async function insertContactMessage(db: Database, values: NewContactMessage): Promise<ContactMessageRow> {
  const [row] = await db.insert(contactMessages).values(values).returning()
  return row!
}

function filterCondition({ search, subject, handled }: ContactFilter): SQL | undefined {
  const conditions: SQL[] = []
  if (search) {
    const pattern = likePattern(search)
    conditions.push(or(ilike(contactMessages.name, pattern), ilike(contactMessages.email, pattern), ilike(contactMessages.message, pattern))!)
  }
  if (subject) conditions.push(eq(contactMessages.subject, subject))
  if (handled !== undefined) conditions.push(eq(contactMessages.handled, handled))
  return conditions.length > 0 ? and(...conditions) : undefined
}

export async function countContactMessages(db: Database, filter: ContactFilter): Promise<number> {
  const [{ total }] = (await db.select({ total: count() }).from(contactMessages).where(filterCondition(filter))) as [{ total: number }]
  return total
}

/** A page of the messages the filter keeps, the newest first. */
export async function contactMessagesPage(db: Database, filter: ContactFilter, { limit, offset }: { limit: number; offset: number }): Promise<ContactMessageRow[]> {
  return db
    .select()
    .from(contactMessages)
    .where(filterCondition(filter))
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(limit)
    .offset(offset)
}

export async function findContactMessage(db: Database, id: number): Promise<ContactMessageRow | undefined> {
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id))
  return row
}

/**
 * Marks a message handled (at `now`) or not handled, with its audit entry (decision 0059) in the
 * same transaction. Only a real change is written: the row's update decides (`handled` differs),
 * so two admins marking one message at once record one change.
 */
export async function setContactMessageHandled(db: Database, id: number, handled: boolean, now: number, actor: Pick<AuditEntry, 'actorId' | 'actorRole'>): Promise<ContactMessageRow | undefined> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(contactMessages)
      .set({ handled, handledAt: handled ? new Date(now) : null })
      .where(and(eq(contactMessages.id, id), ne(contactMessages.handled, handled)))
      .returning()
    if (updated) await recordAudit(tx, { ...actor, action: 'contact.handled', targetType: 'contact_message', targetId: id, before: { handled: !handled }, after: { handled }, at: now })
    return updated
  })
}

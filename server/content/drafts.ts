import { and, asc, eq, sql } from 'drizzle-orm'
import type { Writer } from '#server/db/client.ts'
import { contentDrafts, type ContentKind } from '#server/db/schema.ts'

/**
 * The admin content editor's drafts (decision 0064): an item's unpublished edit, by kind and key
 * (the item's slug; a questionnaire's version). Saving replaces the item's draft (the last save
 * wins, as in any editor); publishing takes the draft in the transaction that writes the item.
 */

export type ContentDraft<Body = Record<string, unknown>> = { kind: ContentKind; key: string; body: Body; updatedBy: number | null; updatedAt: Date }

/** One item's draft, or undefined. */
export async function readDraft<Body = Record<string, unknown>>(db: Writer, kind: ContentKind, key: string): Promise<ContentDraft<Body> | undefined> {
  const [row] = await db
    .select()
    .from(contentDrafts)
    .where(and(eq(contentDrafts.kind, kind), eq(contentDrafts.key, key)))
  return row as ContentDraft<Body> | undefined
}

/** Every draft of a kind, by key: the editor's lists mark the items with one and list the new ones. */
export async function listDrafts<Body = Record<string, unknown>>(db: Writer, kind: ContentKind): Promise<ContentDraft<Body>[]> {
  return (await db.select().from(contentDrafts).where(eq(contentDrafts.kind, kind)).orderBy(asc(contentDrafts.key))) as ContentDraft<Body>[]
}

/** Saves an item's draft, replacing the one before (one statement: two admins' saves never fail, the later wins). */
export async function saveDraft(db: Writer, kind: ContentKind, key: string, body: Record<string, unknown>, userId: number | null, now: number): Promise<ContentDraft> {
  const [row] = await db
    .insert(contentDrafts)
    .values({ kind, key, body, updatedBy: userId, updatedAt: new Date(now) })
    .onConflictDoUpdate({ target: [contentDrafts.kind, contentDrafts.key], set: { body: sql`excluded.body`, updatedBy: sql`excluded.updated_by`, updatedAt: sql`excluded.updated_at` } })
    .returning()
  return row as ContentDraft
}

/** Removes an item's draft (published, or discarded); true when there was one. */
export async function discardDraft(db: Writer, kind: ContentKind, key: string): Promise<boolean> {
  const removed = await db
    .delete(contentDrafts)
    .where(and(eq(contentDrafts.kind, kind), eq(contentDrafts.key, key)))
    .returning({ key: contentDrafts.key })
  return removed.length > 0
}

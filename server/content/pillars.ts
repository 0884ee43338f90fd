import { asc, eq } from 'drizzle-orm'
import { z } from 'zod'
import type { Caller } from '#server/auth/authenticate.ts'
import { actorOf, changedFields } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Database, Writer } from '#server/db/client.ts'
import { pillars, type LocalizedText } from '#server/db/schema.ts'
import { notFound } from '#server/http/errors.ts'
import { discardDraft, listDrafts, readDraft, saveDraft, type ContentDraft } from '#server/content/drafts.ts'
import { draftTextField, requireAllLanguages } from '#server/content/languages.ts'
import { validateContent } from '#server/content/catalogue-fields.ts'

/** A text of a draft: a language, or the whole text, may be missing (empty). */
const draftText = (maxLength: number) => draftTextField(maxLength).default({ pt: '', en: '', es: '' })

/**
 * The six pillars' texts in the admin content editor (decision 0065, on 0064's drafts): only the
 * name and the description, in pt, en and es. The pillars themselves (slug, order, icon, position)
 * are fixed: none is created or removed here.
 */

const PILLAR_NAME_MAX = 60
const PILLAR_DESCRIPTION_MAX = 2000

const pillarDraftSchema = z.object({ name: draftText(PILLAR_NAME_MAX), description: draftText(PILLAR_DESCRIPTION_MAX) })

type PillarRow = typeof pillars.$inferSelect

const localized = (text: LocalizedText): LocalizedText => ({ pt: text.pt, en: text.en, es: text.es })

/** A pillar as the editor shows it (the public fields, in the languages' order). */
const serializeAdminPillar = (pillar: PillarRow) => ({
  id: pillar.id,
  slug: pillar.slug,
  order: pillar.order,
  icon: pillar.icon,
  name: localized(pillar.name),
  description: localized(pillar.description),
})

const serializeDraft = (draft: ContentDraft) => ({ ...pillarDraftSchema.parse(draft.body), updated_at: draft.updatedAt.toISOString() })

async function findPillar(db: Writer, slug: string, lock = false): Promise<PillarRow | undefined> {
  const query = db.select().from(pillars).where(eq(pillars.slug, slug))
  const [row] = lock ? await query.for('update') : await query
  return row
}

/** The six pillars in their order, each with its draft's time; and drafts of no pillar (none: pillars are never created here). */
export async function listAdminPillars(db: Database) {
  const [rows, drafts] = await Promise.all([db.select().from(pillars).orderBy(asc(pillars.order), asc(pillars.id)), listDrafts(db, 'pillar')])
  const draftOf = new Map(drafts.map((draft) => [draft.key, draft]))
  return {
    results: rows.map((row) => {
      const draft = draftOf.get(row.slug)
      return { ...serializeAdminPillar(row), draft: draft ? { updated_at: draft.updatedAt.toISOString() } : null }
    }),
    new_drafts: [] as { key: string; updated_at: string }[],
  }
}

/** One pillar and its draft; a 404 for an unknown slug. */
export async function adminPillar(db: Database, slug: string) {
  const [row, draft] = await Promise.all([findPillar(db, slug), readDraft(db, 'pillar', slug)])
  if (!row) throw notFound()
  return { published: serializeAdminPillar(row), draft: draft ? serializeDraft(draft) : null }
}

/** Saves a pillar's draft (languages may be empty); a 404 for an unknown pillar. */
export async function savePillarDraft(db: Database, caller: Caller, slug: string, input: unknown, now: number) {
  if (!(await findPillar(db, slug))) throw notFound()
  const body = validateContent(pillarDraftSchema, input)
  return serializeDraft(await saveDraft(db, 'pillar', slug, body, caller.user.id, now))
}

/** Discards a pillar's draft, audited; a 404 when there is none. */
export async function discardPillarDraft(db: Database, caller: Caller, slug: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await discardDraft(tx, 'pillar', slug))) throw notFound()
    await recordAudit(tx, { ...actorOf(caller), action: 'pillar.discard', targetType: 'pillar', targetId: slug, at: now })
  })
}

/**
 * Publishes a pillar's texts: the form is saved as the draft first (nothing typed is lost), then,
 * in one transaction, every language is required, the row written, the draft removed and the
 * change audited (before and after).
 */
export async function publishPillar(db: Database, caller: Caller, slug: string, input: unknown, now: number) {
  if (!(await findPillar(db, slug))) throw notFound()
  const body = validateContent(pillarDraftSchema, input)
  await saveDraft(db, 'pillar', slug, body, caller.user.id, now)
  return db.transaction(async (tx) => {
    const before = await findPillar(tx, slug, true)
    if (!before) throw notFound()
    const texts = requireAllLanguages({ name: body.name, description: body.description })
    const [after] = await tx.update(pillars).set({ name: texts.name, description: texts.description }).where(eq(pillars.id, before.id)).returning()
    await discardDraft(tx, 'pillar', slug)
    const change = changedFields({ name: localized(before.name), description: localized(before.description) }, { name: texts.name, description: texts.description })
    await recordAudit(tx, { ...actorOf(caller), action: 'pillar.publish', targetType: 'pillar', targetId: slug, ...change, at: now })
    return serializeAdminPillar(after!)
  })
}

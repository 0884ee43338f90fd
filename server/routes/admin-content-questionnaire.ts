import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { changedFields, actorOf } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { discardDraft, listDrafts, readDraft, saveDraft } from '#server/content/drafts.ts'
import { contentDrafts } from '#server/db/schema.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, notFound, validationError } from '#server/http/errors.ts'
import { charField, validate } from '#server/http/fields.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { currentVersion, findVersion, pillarsInOrder, questionsOf, type QuestionRow, type VersionRow } from '#server/questionnaire/repository.ts'
import { localized } from '#server/questionnaire/serializers.ts'
import {
  draftFromVersion,
  insertCurrentVersion,
  listVersions,
  parseDraft,
  publishProblems,
  VERSION_MAX_LENGTH,
  VERSION_MESSAGE,
  VERSION_PATTERN,
  VERSION_PUBLISHED,
  VERSION_TAKEN,
  type QuestionnaireDraft,
} from '#server/questionnaire/versions.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
const KIND = 'questionnaire'
/** A version string in the path: the pattern's characters, within its length (anything else cannot exist: 404). */
const VERSION_PARAM = ':version{[a-z0-9][a-z0-9.\\-]{0,19}}'
const PUBLISH_CONFLICT = 'Another version was published at the same moment: reload and try again.'

const newVersionSchema = z.object({
  version: charField({ maxLength: VERSION_MAX_LENGTH }).pipe(z.string().regex(VERSION_PATTERN, VERSION_MESSAGE)),
})

type StoredDraft = QuestionnaireDraft

function serializeVersion(row: VersionRow, questions: QuestionRow[]) {
  return {
    version: row.version,
    current: row.isCurrent,
    published_at: row.publishedAt.toISOString(),
    title: localized(row.title),
    description: localized(row.description),
    estimated_minutes: row.estimatedMinutes,
    questions: questions.map((question) => ({
      code: question.code,
      pillar: question.pillarSlug,
      order: question.order,
      text: localized(question.text),
      options: [...question.options].sort((a, b) => a.value - b.value).map((option) => localized(option.label)),
      reverse: question.reverse,
    })),
  }
}

const serializeDraft = (body: StoredDraft, updatedAt: Date) => ({ ...body, updated_at: updatedAt.toISOString() })

/** What an audit entry keeps of a version: its texts and minutes, and the questions by code (what changed is then plain). */
function auditShape(draft: QuestionnaireDraft | null): Record<string, unknown> {
  if (!draft) return {}
  return {
    title: draft.title,
    description: draft.description,
    estimated_minutes: draft.estimated_minutes,
    questions: Object.fromEntries(draft.questions.map((question, index) => [question.code, { order: index + 1, pillar: question.pillar, text: question.text, options: question.options, reverse: question.reverse }])),
  }
}

/**
 * The admin content editor's question bank (issue 26, decisions 0064 and 0068): the published
 * versions (read-only), a new version's draft started as a copy of the current one, its edits kept
 * as the draft, and publishing it as the new current version in one transaction (results keep
 * their own version). Admins only (anyone else 401/403); every answer private, no-store.
 */
export function registerAdminContentQuestionnaireRoutes(api: Api, services: Services): void {
  const { db, clock } = services
  const admin = (c: AppContext) => authenticateWithRole(c, services, 'admin')

  api.endpoint('/admin/content/questionnaire/', {
    GET: async (c) => {
      await admin(c)
      const [versions, drafts] = await Promise.all([listVersions(db), listDrafts<StoredDraft>(db, KIND)])
      const published = new Set(versions.map((summary) => summary.row.version))
      return c.json(
        {
          items: versions.map(({ row, questionCount, resultCount }) => ({
            version: row.version,
            current: row.isCurrent,
            published_at: row.publishedAt.toISOString(),
            title: localized(row.title),
            estimated_minutes: row.estimatedMinutes,
            question_count: questionCount,
            result_count: resultCount,
            // A published version never changes: it never has a draft (kept for the editor's uniform shape).
            draft: null,
          })),
          new_drafts: drafts
            .filter((draft) => !published.has(draft.key))
            .map((draft) => ({ version: draft.key, title: draft.body.title ?? { pt: '', en: '', es: '' }, question_count: Array.isArray(draft.body.questions) ? draft.body.questions.length : 0, updated_at: draft.updatedAt.toISOString() })),
        },
        200,
        PRIVATE,
      )
    },
    // "Nova versão": a draft under a new version string, a copy of the current version.
    POST: async (c) => {
      const caller = await admin(c)
      const { version } = validate(newVersionSchema, await readFields(c.req.raw))
      const current = await currentVersion(db)
      if (!current) throw apiError(409, 'There is no current version to copy.')
      if (await findVersion(db, version)) throw validationError({ version: [VERSION_TAKEN] })
      const body = draftFromVersion(current, await questionsOf(db, current.version))
      // The draft's key decides: a draft of that version already started is refused, never replaced.
      const [row] = await db
        .insert(contentDrafts)
        .values({ kind: KIND, key: version, body, updatedBy: caller.user.id, updatedAt: new Date(clock()) })
        .onConflictDoNothing()
        .returning()
      if (!row) throw validationError({ version: [VERSION_TAKEN] })
      return c.json({ version, published: null, draft: serializeDraft(body, row.updatedAt), copied_from: current.version }, 201, PRIVATE)
    },
  })

  api.endpoint(`/admin/content/questionnaire/${VERSION_PARAM}/`, {
    GET: async (c) => {
      await admin(c)
      const version = pathParam(c, 'version')
      const [row, draft, pillars] = await Promise.all([findVersion(db, version), readDraft<StoredDraft>(db, KIND, version), pillarsInOrder(db)])
      if (!row && !draft) throw notFound()
      return c.json(
        {
          version,
          published: row ? serializeVersion(row, await questionsOf(db, row.version)) : null,
          draft: !row && draft ? serializeDraft(draft.body, draft.updatedAt) : null,
          pillars: pillars.map((pillar) => ({ slug: pillar.slug, name: localized(pillar.name) })),
        },
        200,
        PRIVATE,
      )
    },
  })

  api.endpoint(`/admin/content/questionnaire/${VERSION_PARAM}/draft/`, {
    PUT: async (c) => {
      const caller = await admin(c)
      const version = pathParam(c, 'version')
      const draft = parseDraft(await readFields(c.req.raw))
      if (await findVersion(db, version)) throw validationError({ version: [VERSION_PUBLISHED] })
      const saved = await saveDraft(db, KIND, version, draft, caller.user.id, clock())
      return c.json(serializeDraft(draft, saved.updatedAt), 200, PRIVATE)
    },
    DELETE: async (c) => {
      const caller = await admin(c)
      const version = pathParam(c, 'version')
      await db.transaction(async (tx) => {
        if (!(await discardDraft(tx, KIND, version))) throw notFound()
        await recordAudit(tx, { ...actorOf(caller), action: 'questionnaire.discard', targetType: 'questionnaire_version', targetId: version, at: clock() })
      })
      return c.body(null, 204, PRIVATE)
    },
  })

  api.endpoint(`/admin/content/questionnaire/${VERSION_PARAM}/publish/`, {
    POST: async (c) => {
      const caller = await admin(c)
      const version = pathParam(c, 'version')
      const draft = parseDraft(await readFields(c.req.raw))
      if (await findVersion(db, version)) throw validationError({ version: [VERSION_PUBLISHED] })
      const now = clock()
      // Saved first, in its own statement: a refusal below keeps what was typed.
      await saveDraft(db, KIND, version, draft, caller.user.id, now)
      const pillarSlugs = (await pillarsInOrder(db)).map((pillar) => pillar.slug)
      try {
        const published = await db.transaction(async (tx) => {
          // The draft row locked: of two publishes of one draft, the second finds it gone.
          const [locked] = await tx
            .select({ body: contentDrafts.body })
            .from(contentDrafts)
            .where(and(eq(contentDrafts.kind, KIND), eq(contentDrafts.key, version)))
            .for('update')
          if (!locked) throw validationError({ version: [VERSION_TAKEN] })
          const complete = parseDraft(locked.body)
          const problems = publishProblems(complete, pillarSlugs)
          if (Object.keys(problems).length > 0) throw validationError(problems)
          const before = await currentVersion(tx)
          const beforeQuestions = before ? await questionsOf(tx, before.version) : []
          const { row } = await insertCurrentVersion(tx, version, complete, now)
          await discardDraft(tx, KIND, version)
          const { before: changedBefore, after: changedAfter } = changedFields(auditShape(before ? draftFromVersion(before, beforeQuestions) : null), auditShape(complete))
          await recordAudit(tx, {
            ...actorOf(caller),
            action: 'questionnaire.publish',
            targetType: 'questionnaire_version',
            targetId: version,
            before: { version: before?.version ?? null, ...changedBefore },
            after: { version, ...changedAfter },
            at: now,
          })
          return row
        })
        return c.json(serializeVersion(published, await questionsOf(db, version)), 201, PRIVATE)
      } catch (error) {
        if (isUniqueViolation(error, 'questionnaire_versions_one_current')) throw apiError(409, PUBLISH_CONFLICT)
        throw error
      }
    },
  })
}

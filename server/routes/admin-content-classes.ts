import { z } from 'zod'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { listDrafts, readDraft, type ContentDraft } from '#server/content/drafts.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { notFound } from '#server/http/errors.ts'
import { choiceField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import {
  adminClassesPage,
  cancelClass,
  countAdminClasses,
  discardClassDraft,
  existingSlugs,
  findClassBySlug,
  LIVE_CLASS_KIND,
  publishClass,
  rescheduleClass,
  saveClassDraft,
  serializeAdminClass,
} from '#server/live-classes/admin.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
const BASE = '/admin/content/live-classes'
const ITEM = `${BASE}/:slug{[a-z0-9-]+}`

const draftOut = (draft: ContentDraft) => ({ ...draft.body, updated_at: draft.updatedAt.toISOString() })

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const whenQuery = z.object({ when: choiceField(['upcoming', 'past'] as const) })

/**
 * The admin content editor's live classes (issue 26, decisions 0064 and 0067): the classes ahead
 * or past with their drafts, a class with its draft, a draft saved or discarded, a draft published
 * (a new class and its Zoom meeting, or a class's new texts), a class moved or given other seats,
 * and a class cancelled. Admins only (401 anonymous, 403 anyone else); answers private, no-store.
 */
export function registerAdminContentClassRoutes(api: Api, services: Services): void {
  const { db, clock } = services
  const context = async (c: AppContext) => ({ services, caller: await authenticateWithRole(c, services, 'admin'), now: clock() })

  api.endpoint(`${BASE}/`, {
    GET: async (c) => {
      const { now } = await context(c)
      const { when } = validate(whenQuery, { when: c.req.query('when') || 'upcoming' })
      const [total, drafts] = await Promise.all([countAdminClasses(db, when, now), listDrafts(db, LIVE_CLASS_KIND)])
      const page = paginate(c, total)
      const [rows, published] = await Promise.all([
        adminClassesPage(db, when, now, page),
        existingSlugs(
          db,
          drafts.map((draft) => draft.key),
        ),
      ])
      const draftOf = new Map(drafts.map((draft) => [draft.key, draft]))
      return c.json(
        {
          ...page.envelope(
            rows.map((row) => {
              const draft = draftOf.get(row.cls.slug)
              return { ...serializeAdminClass(row, now), draft: draft ? { updated_at: draft.updatedAt.toISOString() } : null }
            }),
          ),
          new_drafts: drafts.filter((draft) => !published.has(draft.key)).map((draft) => ({ key: draft.key, ...draftOut(draft) })),
        },
        200,
        PRIVATE,
      )
    },
  })

  api.endpoint(`${ITEM}/`, {
    GET: async (c) => {
      const { now } = await context(c)
      const slug = pathParam(c, 'slug')
      const [found, draft] = await Promise.all([findClassBySlug(db, slug), readDraft(db, LIVE_CLASS_KIND, slug)])
      if (!found && !draft) throw notFound()
      return c.json({ published: found ? serializeAdminClass(found, now) : null, draft: draft ? draftOut(draft) : null }, 200, PRIVATE)
    },
  })

  api.endpoint(`${ITEM}/draft/`, {
    PUT: async (c) => {
      const ctx = await context(c)
      const saved = await saveClassDraft(ctx, pathParam(c, 'slug'), await readFields(c.req.raw))
      return c.json(draftOut(saved), 200, PRIVATE)
    },
    DELETE: async (c) => {
      const ctx = await context(c)
      await discardClassDraft(ctx, pathParam(c, 'slug'))
      return c.body(null, 204, PRIVATE)
    },
  })

  api.endpoint(`${ITEM}/publish/`, {
    POST: async (c) => {
      const ctx = await context(c)
      const slug = pathParam(c, 'slug')
      const { created } = await publishClass(ctx, slug, await readFields(c.req.raw))
      return c.json(serializeAdminClass((await findClassBySlug(db, slug))!, ctx.now), created ? 201 : 200, PRIVATE)
    },
  })

  api.endpoint(`${ITEM}/schedule/`, {
    POST: async (c) => {
      const ctx = await context(c)
      const slug = pathParam(c, 'slug')
      const { notified, meetingUpdated } = await rescheduleClass(ctx, slug, await readFields(c.req.raw))
      return c.json({ ...serializeAdminClass((await findClassBySlug(db, slug))!, ctx.now), notified, meeting_updated: meetingUpdated }, 200, PRIVATE)
    },
  })

  api.endpoint(`${ITEM}/cancel/`, {
    POST: async (c) => {
      const ctx = await context(c)
      const slug = pathParam(c, 'slug')
      const { notified, meetingDeleted } = await cancelClass(ctx, slug, await readFields(c.req.raw))
      return c.json({ ...serializeAdminClass((await findClassBySlug(db, slug))!, ctx.now), notified, meeting_deleted: meetingDeleted }, 200, PRIVATE)
    },
  })
}

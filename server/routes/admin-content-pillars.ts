import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { adminPillar, discardPillarDraft, listAdminPillars, publishPillar, savePillarDraft } from '#server/content/pillars.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }

/**
 * The pillars' texts in the admin content editor (issue 26, decisions 0064 and 0065): the list
 * with drafts, one pillar with its draft, saving and discarding a draft, publishing. Admins only
 * (anyone else 401/403); every answer private, no-store. The public /pillars/ reads the table, so
 * a publish shows at once.
 */
export function registerAdminContentPillarRoutes(api: Api, services: Services): void {
  const { db, clock } = services
  const slugOf = (c: AppContext) => pathParam(c, 'slug')

  api.endpoint('/admin/content/pillars/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      return c.json(await listAdminPillars(db), 200, PRIVATE)
    },
  })

  api.endpoint('/admin/content/pillars/:slug/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      return c.json(await adminPillar(db, slugOf(c)), 200, PRIVATE)
    },
  })

  api.endpoint('/admin/content/pillars/:slug/draft/', {
    PUT: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      return c.json(await savePillarDraft(db, caller, slugOf(c), await readFields(c.req.raw), clock()), 200, PRIVATE)
    },
    DELETE: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      await discardPillarDraft(db, caller, slugOf(c), clock())
      return c.body(null, 204, PRIVATE)
    },
  })

  api.endpoint('/admin/content/pillars/:slug/publish/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      return c.json(await publishPillar(db, caller, slugOf(c), await readFields(c.req.raw), clock()), 200, PRIVATE)
    },
  })
}

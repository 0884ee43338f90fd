import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { contentOverview } from '#server/content/overview.ts'
import type { Api } from '#server/http/api.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

/**
 * The admin content editor's front page (issue 26, decision 0064): how many items of each kind are
 * published (products and courses: also how many are on offer) and how many drafts wait to be
 * published. Admins only.
 */
export function registerAdminContentRoutes(api: Api, services: Services): void {
  api.endpoint('/admin/content/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      return c.json(await contentOverview(services.db, new Date(services.clock())), 200, { 'Cache-Control': PRIVATE_NO_STORE })
    },
  })
}

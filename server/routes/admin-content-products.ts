import { authenticateWithRole } from '#server/auth/authenticate.ts'
import { adminProduct, discardProductDraft, listAdminProducts, publishProduct, saveProductDraft } from '#server/content/products.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }

/**
 * The products in the admin content editor (issue 26, decisions 0064 and 0065): every product on
 * sale or not with its draft and the drafts of new ones, one product with its draft, saving and
 * discarding a draft, publishing (a new product's publish creates it: 201). The price of an
 * existing product is changed by PATCH /products/{id}/ (decision 0053). Admins only (anyone else
 * 401/403); every answer private, no-store.
 */
export function registerAdminContentProductRoutes(api: Api, services: Services): void {
  const { db, clock } = services
  const slugOf = (c: AppContext) => pathParam(c, 'slug')

  api.endpoint('/admin/content/products/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      return c.json(await listAdminProducts(db), 200, PRIVATE)
    },
  })

  api.endpoint('/admin/content/products/:slug/', {
    GET: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      return c.json(await adminProduct(db, slugOf(c)), 200, PRIVATE)
    },
  })

  api.endpoint('/admin/content/products/:slug/draft/', {
    PUT: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      return c.json(await saveProductDraft(db, caller, slugOf(c), await readFields(c.req.raw), clock()), 200, PRIVATE)
    },
    DELETE: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      await discardProductDraft(db, caller, slugOf(c), clock())
      return c.body(null, 204, PRIVATE)
    },
  })

  api.endpoint('/admin/content/products/:slug/publish/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const { product, created } = await publishProduct(db, caller, slugOf(c), await readFields(c.req.raw), clock())
      return c.json(product, created ? 201 : 200, PRIVATE)
    },
  })
}

import { z } from 'zod'
import { authenticate } from '#server/auth/authenticate.ts'
import { findCart, replaceCart, type StoredCart } from '#server/carts/repository.ts'
import { CART_MAX_LINES } from '#server/db/schema.ts'
import type { Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { validationError } from '#server/http/errors.ts'
import { idField, integerField, listField, validate } from '#server/http/fields.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

/** The most of one product a line holds (the app's CART_MAX_QUANTITY). */
const CART_MAX_QUANTITY = 10

const cartSchema = z.object({
  items: listField(z.object({ product_id: idField(), quantity: integerField({ min: 1, max: CART_MAX_QUANTITY }) }), { maxLength: CART_MAX_LINES }),
})

const serializeCart = (cart: StoredCart) => ({ items: cart.lines, updated_at: cart.updatedAt?.toISOString() ?? null })

/**
 * An account's cart (docs/product.md §7, decision 0047): the member's own, whatever their role.
 * The app keeps the browser's copy in a signed cookie and writes each change here, and merges the
 * two at sign-in; this is the copy that follows the member to another browser. Ids and
 * quantities only: what they cost is the catalogue's to say at checkout.
 */
export function registerCartRoutes(api: Api, services: Services): void {
  const { db, clock } = services

  api.endpoint('/cart/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      return c.json(serializeCart(await findCart(db, user.id)), 200, { 'Cache-Control': PRIVATE_NO_STORE })
    },
    PUT: async (c) => {
      const { user } = await authenticate(c, services)
      const { items } = validate(cartSchema, await readFields(c.req.raw))
      const ids = items.map((item) => item.product_id)
      if (new Set(ids).size !== ids.length) throw validationError({ items: ['A product may appear only once.'] })
      const lines = items.map((item) => ({ product_id: item.product_id, quantity: item.quantity }))
      return c.json(serializeCart(await replaceCart(db, user.id, lines, new Date(clock()))), 200, { 'Cache-Control': PRIVATE_NO_STORE })
    },
  })
}

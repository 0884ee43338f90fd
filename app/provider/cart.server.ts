import { z } from 'zod'
import { type Cart, isCart } from '#app/domain/cart.ts'
import { type SignedInCaller } from './fetch.server.ts'

const accountCartSchema = z.object({
  items: z.array(z.object({ product_id: z.number(), quantity: z.number() })),
  updated_at: z.string().nullable(),
})

/** The provider's lines as a cart; lines beyond the cart's bounds (isCart) count as none. */
function toCart(answer: z.infer<typeof accountCartSchema>): Cart {
  const cart = { lines: answer.items.map((item) => ({ productId: item.product_id, quantity: item.quantity })) }
  return isCart(cart) ? cart : { lines: [] }
}

/** The account's copy of the cart (decision 0047). */
export const getAccountCart = async (auth: SignedInCaller): Promise<Cart> => toCart(await auth.call('/cart/', accountCartSchema))

/** Replaces the account's copy of the cart with this one. */
export const putAccountCart = async (auth: SignedInCaller, cart: Cart): Promise<Cart> =>
  toCart(
    await auth.call('/cart/', accountCartSchema, {
      method: 'PUT',
      json: { items: cart.lines.map((line) => ({ product_id: line.productId, quantity: line.quantity })) },
    }),
  )

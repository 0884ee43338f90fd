import { type Cart } from '#app/domain/cart.ts'
import { type SignedInCaller } from './fetch.server.ts'
import { type PaymentMethod, purchaseDetailSchema, purchasePageSchema, purchaseSchema } from './purchase-schemas.ts'

type NewPurchase = { cart: Cart; method: PaymentMethod; idempotencyKey: string; returnUrl: string }

/**
 * Buys what the cart holds (docs/product.md §7): the provider prices it from the catalogue, never
 * from the cart. The same key again answers the same purchase, so a repeated click never buys
 * twice. `returnUrl` (with `{PURCHASE_ID}`) is where the card's payment page sends the buyer back.
 */
export const createPurchase = (auth: SignedInCaller, { cart, method, idempotencyKey, returnUrl }: NewPurchase) =>
  auth.call('/purchases/create/', purchaseSchema, {
    method: 'POST',
    json: {
      items: cart.lines.map((line) => ({ product_id: line.productId, quantity: line.quantity })),
      method,
      idempotency_key: idempotencyKey,
      ...(method === 'card' && { success_url: returnUrl, cancel_url: returnUrl }),
    },
  })

export const getPurchase = (auth: SignedInCaller, id: number) => auth.call(`/purchases/${id}/`, purchaseDetailSchema)

/** The caller's payments still open (a cart holds 20 lines at most, so one page of 20 names every product they hold). */
export const listOpenPurchases = (auth: SignedInCaller) => auth.call('/purchases/', purchasePageSchema, { query: { status: 'pending', page_size: 20 } })

export const listPurchases = (auth: SignedInCaller, page: number | 'last', pageSize: number) =>
  auth.call('/purchases/', purchasePageSchema, { query: { page: page === 1 ? undefined : page, page_size: pageSize } })

/** Asks the payment service now, rather than wait for its message. */
export const refreshPurchase = (auth: SignedInCaller, id: number) => auth.call(`/purchases/${id}/refresh-status/`, purchaseDetailSchema, { method: 'POST' })

/** A new PIX code for a purchase whose code expired or was refused. */
export const renewPix = (auth: SignedInCaller, id: number) => auth.call(`/purchases/${id}/renew-pix/`, purchaseDetailSchema, { method: 'POST' })

/** Cancels an unpaid purchase, or refunds a paid one as its refund quote says. */
export const cancelPurchase = (auth: SignedInCaller, id: number) => auth.call(`/purchases/${id}/cancel/`, purchaseDetailSchema, { method: 'POST' })

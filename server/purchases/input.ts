import { z } from 'zod'
import { PURCHASE_METHODS, type PurchaseMethod } from '#server/db/schema.ts'
import { ApiError, type ErrorBody } from '#server/http/errors.ts'
import { charField, choiceField, idempotencyKeyField, idField, integerField, pythonTypeName, tooManyElements, toFieldErrors } from '#server/http/fields.ts'

/**
 * The body of POST /purchases/create/ (docs/product.md §7, decision 0048), checked before anything
 * is read from the database: 1 to 20 items, each a product id (1 to 2147483647) and a quantity
 * (1 to 10; the product type's own rule is checked once the products are read), no product
 * twice; the method; the idempotency key; for a card, where Stripe's Checkout goes back to.
 * Errors are DRF's: `{"items": [{}, {"quantity": ["…"]}]}` for an item, like a nested serializer.
 */

const MAX_ITEMS = 20
const MAX_QUANTITY = 10
const MAX_URL_LENGTH = 2000
const URL_MESSAGE = 'Enter a valid URL.'
const URL_REQUIRED_FOR_CARD = 'This field is required for a card payment.'

type CreateItem = { productId: number; quantity: number }
export type CreateInput = { items: CreateItem[]; method: PurchaseMethod; idempotencyKey: string; successUrl: string | null; cancelUrl: string | null }

const itemSchema = z.object({ product_id: idField(), quantity: integerField({ min: 1, max: MAX_QUANTITY }) })

/** An absolute http(s) URL of at most MAX_URL_LENGTH characters (Stripe's Checkout goes back to it). */
export const urlField = () =>
  charField({ maxLength: MAX_URL_LENGTH }).refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
    } catch {
      return false
    }
  }, URL_MESSAGE)

const topSchema = z.object({
  method: choiceField(PURCHASE_METHODS),
  idempotency_key: idempotencyKeyField(),
  success_url: urlField().optional(),
  cancel_url: urlField().optional(),
})

/** The items' errors: one message for the list, or one entry per item (empty where it is fine). */
function readItems(value: unknown): { items?: CreateItem[]; error?: string[] | ErrorBody[] } {
  if (value === undefined) return { error: ['This field is required.'] }
  if (value === null) return { error: ['This field may not be null.'] }
  if (!Array.isArray(value)) return { error: [`Expected a list of items but got type "${pythonTypeName(value)}".`] }
  if (value.length === 0) return { error: ['This list may not be empty.'] }
  // Counted before any item is looked at: a huge list costs one comparison.
  if (value.length > MAX_ITEMS) return { error: [tooManyElements(MAX_ITEMS)] }
  const errors: ErrorBody[] = []
  const items: CreateItem[] = []
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      errors.push({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(entry)}.`] })
      continue
    }
    const parsed = itemSchema.safeParse(entry)
    if (parsed.success) {
      errors.push({})
      items.push({ productId: parsed.data.product_id, quantity: parsed.data.quantity })
    } else errors.push(toFieldErrors(parsed.error))
  }
  if (errors.some((error) => Object.keys(error).length > 0)) return { error: errors }
  if (new Set(items.map((item) => item.productId)).size !== items.length) return { error: ['Each product may appear only once; change its quantity instead.'] }
  return { items }
}

/** The create body, or a 400 with every field's problems at once. */
export function parseCreateInput(body: Record<string, unknown>): CreateInput {
  const errors: ErrorBody = {}
  const { items, error } = readItems(body.items)
  if (error) errors.items = error
  const top = topSchema.safeParse(body)
  if (!top.success) Object.assign(errors, toFieldErrors(top.error))
  if (top.success && top.data.method === 'card') {
    if (!top.data.success_url) errors.success_url = [URL_REQUIRED_FOR_CARD]
    if (!top.data.cancel_url) errors.cancel_url = [URL_REQUIRED_FOR_CARD]
  }
  if (Object.keys(errors).length > 0 || !items || !top.success) throw new ApiError(400, errors)
  const card = top.data.method === 'card'
  return {
    items,
    method: top.data.method,
    idempotencyKey: top.data.idempotency_key,
    successUrl: card ? top.data.success_url! : null,
    cancelUrl: card ? top.data.cancel_url! : null,
  }
}

/** Stripe's Checkout puts the session id where `{CHECKOUT_SESSION_ID}` is; `{PURCHASE_ID}` is ours. */
export function returnUrl(template: string, purchaseId: number, { withSession }: { withSession: boolean }): string {
  const url = template.replaceAll('{PURCHASE_ID}', String(purchaseId))
  if (!withSession || url.includes('{CHECKOUT_SESSION_ID}')) return url
  const hash = url.indexOf('#')
  const [base, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)]
  return `${base}${base.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}${fragment}`
}

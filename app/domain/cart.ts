import { type Cents, multiplyCents, sumCents } from './money.ts'
import { type ProductType, isProductType, quantityAllowed } from './product-types.ts'

/**
 * The cart (issue 24): product ids and quantities, nothing else. A visitor's cart lives in a
 * cookie (signed elsewhere), a member's with their account; signing in merges the two. Prices
 * never live in the cart: priceCart reads them from the catalogue each time, so a tampered or
 * stale cart can never change what is charged. Pure; no I/O. Errors are i18n keys.
 */

/** Lines a cart holds at most. */
export const CART_MAX_LINES = 20
/** The most of one product a line holds, whatever its type allows (quantityAllowed). */
export const CART_MAX_QUANTITY = 10
/** The longest serialized cart parseCart reads; serializeCart writes at most 2 + 20 × 13 + 19 = 281 (ids of 10 digits, "*10", the dots). */
export const CART_MAX_BYTES = 1024
/** Product ids are the provider's ids: 1 to 2^31 - 1 (docs/product.md §9, request bounds). */
export const MAX_PRODUCT_ID = 2_147_483_647

type CartLine = { readonly productId: number; readonly quantity: number }
export type Cart = { readonly lines: readonly CartLine[] }
/** What the catalogue says of a product in the cart; undefined when it is not for sale (any more). */
export type CartProduct = { readonly type: ProductType; readonly priceCents: Cents }

/** Keys of the shop-replies namespace (translated on the server, in toasts). */
type CartError = 'cart.errors.full' | 'cart.errors.quantityLimit' | 'cart.errors.invalidProduct'
/** A change to a cart: the new cart, or why not (with the cart unchanged). */
type CartChange = { ok: true; cart: Cart } | { ok: false; error: CartError; cart: Cart }

export const EMPTY_CART: Cart = Object.freeze({ lines: Object.freeze([]) })

function isProductId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_PRODUCT_ID
}

const isQuantity = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= CART_MAX_QUANTITY

/**
 * Whether a value is a cart within every bound: at most CART_MAX_LINES lines, each a product id
 * and a quantity of 1 to CART_MAX_QUANTITY, no product twice. For a cart read from elsewhere (the
 * provider's copy of an account's cart); the per-type rule needs the catalogue (priceCart).
 */
export function isCart(value: unknown): value is Cart {
  if (typeof value !== 'object' || value === null) return false
  const lines: unknown = (value as { lines?: unknown }).lines
  if (!Array.isArray(lines) || lines.length > CART_MAX_LINES) return false
  const seen = new Set<number>()
  for (const line of lines as unknown[]) {
    if (typeof line !== 'object' || line === null) return false
    const { productId, quantity } = line as Record<string, unknown>
    if (!isProductId(productId) || !isQuantity(quantity) || seen.has(productId)) return false
    seen.add(productId)
  }
  return true
}

/** Items in the cart, quantities summed (the header's badge). */
export function cartItemCount(cart: Cart): number {
  return cart.lines.reduce((count, line) => count + line.quantity, 0)
}

/** The most of one product its type lets a cart hold, within the cart's own ceiling. */
const maxQuantityOf = (type: ProductType) => Math.min(quantityAllowed(type), CART_MAX_QUANTITY)

function checkProduct(product: { id: number; type: ProductType }): boolean {
  return isProductId(product.id) && isProductType(product.type)
}

/**
 * Adds a quantity (1 unless told) of a product: a new line at the end, or more of an existing
 * line. Refused: a product id or type that is not one, or a quantity that is not 1 to
 * CART_MAX_QUANTITY (`cart.errors.invalidProduct`); more than its type allows in all, e.g. a
 * course added twice (`cart.errors.quantityLimit`); a new line in a full cart (`cart.errors.full`).
 */
export function addToCart(cart: Cart, product: { id: number; type: ProductType }, quantity = 1): CartChange {
  if (!checkProduct(product) || !isQuantity(quantity)) return { ok: false, error: 'cart.errors.invalidProduct', cart }
  const existing = cart.lines.find((line) => line.productId === product.id)?.quantity ?? 0
  return setQuantity(cart, product, existing + quantity)
}

/**
 * Sets a product's quantity, keeping its place in the cart; 0 removes it; a product not in the
 * cart is added at the end. Refused as addToCart refuses (a quantity that is not a whole number
 * from 0 up is `cart.errors.invalidProduct`).
 */
export function setQuantity(cart: Cart, product: { id: number; type: ProductType }, quantity: number): CartChange {
  if (!checkProduct(product) || !Number.isSafeInteger(quantity) || quantity < 0) return { ok: false, error: 'cart.errors.invalidProduct', cart }
  if (quantity === 0) return { ok: true, cart: removeFromCart(cart, product.id) }
  if (quantity > maxQuantityOf(product.type)) return { ok: false, error: 'cart.errors.quantityLimit', cart }
  const index = cart.lines.findIndex((line) => line.productId === product.id)
  if (index !== -1) return { ok: true, cart: { lines: cart.lines.map((line, at) => (at === index ? { productId: product.id, quantity } : line)) } }
  if (cart.lines.length >= CART_MAX_LINES) return { ok: false, error: 'cart.errors.full', cart }
  return { ok: true, cart: { lines: [...cart.lines, { productId: product.id, quantity }] } }
}

/** The cart without a product (the same cart when it was not there). */
export function removeFromCart(cart: Cart, productId: number): Cart {
  return cart.lines.some((line) => line.productId === productId) ? { lines: cart.lines.filter((line) => line.productId !== productId) } : cart
}

/**
 * The cart after signing in: the account's cart and the visitor's cookie cart as one. Lines keep
 * their order, the account's first, then the cookie's new products. A product in both keeps the
 * larger quantity, not the sum: the same course in both carts is one wish made twice, and a sum
 * would buy it twice (quantities stay within CART_MAX_QUANTITY either way). When the union passes
 * CART_MAX_LINES, the account's oldest lines that the cookie does not hold give way: the visitor
 * chose the cookie's lines just now. A cart that is not one (isCart) counts as empty. The
 * per-type rule is applied once the products are known (priceCart).
 */
export function mergeCarts(accountCart: Cart, cookieCart: Cart): Cart {
  const account = isCart(accountCart) ? accountCart.lines : []
  const cookie = isCart(cookieCart) ? cookieCart.lines : []
  const fromCookie = new Map(cookie.map((line) => [line.productId, line.quantity]))
  const merged = account.map((line) => {
    const other = fromCookie.get(line.productId)
    return other === undefined ? line : { productId: line.productId, quantity: Math.min(Math.max(line.quantity, other), CART_MAX_QUANTITY) }
  })
  const inAccount = new Set(account.map((line) => line.productId))
  const lines = [...merged, ...cookie.filter((line) => !inAccount.has(line.productId))]
  const excess = lines.length - CART_MAX_LINES
  if (excess <= 0) return { lines }
  // The cookie holds at most CART_MAX_LINES lines, so there are always enough account-only lines to drop.
  const dropped = new Set(lines.filter((line) => !fromCookie.has(line.productId)).slice(0, excess).map((line) => line.productId))
  return { lines: lines.filter((line) => !dropped.has(line.productId)) }
}

// "1:" (the format's version), then the lines joined by ".": a product id, "*" and the quantity
// when it is more than 1. E.g. "1:12.345*2". Only characters a cookie value may hold unencoded.
const FORMAT_PREFIX = '1:'
const LINE_PATTERN = /^([1-9]\d{0,9})(?:\*([2-9]|10))?$/

/** The cart as a short ASCII string for its cookie (at most 281 bytes); a value that is not a cart writes the empty cart. */
export function serializeCart(cart: Cart): string {
  const lines = isCart(cart) ? cart.lines : []
  return FORMAT_PREFIX + lines.map((line) => (line.quantity === 1 ? `${line.productId}` : `${line.productId}*${line.quantity}`)).join('.')
}

/**
 * The cart a cookie's value holds, or the empty cart for anything serializeCart would not have
 * written: not a string, longer than CART_MAX_BYTES, another version, a character out of place
 * (NUL, spaces, signs, decimals, leading zeros, "*1"), an id of 0 or beyond MAX_PRODUCT_ID, a
 * quantity of 0 or beyond CART_MAX_QUANTITY, a product twice, more than CART_MAX_LINES lines.
 * All or nothing: a cart that was tampered with is not half trusted. Never throws.
 */
export function parseCart(value: unknown): Cart {
  // The length first, before any work: what passes is ASCII only, so characters are bytes.
  if (typeof value !== 'string' || value.length > CART_MAX_BYTES || !value.startsWith(FORMAT_PREFIX)) return EMPTY_CART
  const body = value.slice(FORMAT_PREFIX.length)
  if (body === '') return EMPTY_CART
  const parts = body.split('.', CART_MAX_LINES + 1)
  if (parts.length > CART_MAX_LINES) return EMPTY_CART
  const lines: CartLine[] = []
  const seen = new Set<number>()
  for (const part of parts) {
    const match = LINE_PATTERN.exec(part)
    if (!match) return EMPTY_CART
    const productId = Number(match[1])
    if (!isProductId(productId) || seen.has(productId)) return EMPTY_CART
    seen.add(productId)
    lines.push({ productId, quantity: match[2] === undefined ? 1 : Number(match[2]) })
  }
  return { lines }
}

type PricedLine = CartLine & { readonly type: ProductType; readonly unitCents: Cents; readonly lineCents: Cents }
type PricedCart =
  | { ok: true; cart: Cart; lines: readonly PricedLine[]; totalCents: Cents; changed: boolean }
  | { ok: false; error: 'cart.errors.totalTooLarge' }

/**
 * The cart with today's prices from the catalogue: lines of products no longer for sale are
 * dropped and quantities cut to what each type allows; `cart` is what remains (to write back)
 * and `changed` says whether anything was dropped or cut (for the page to tell the buyer). A line
 * or a total beyond MAX_CENTS (or a catalogue price that is not Cents) fails rather than wrap or round.
 */
export function priceCart(cart: Cart, productOf: (productId: number) => CartProduct | undefined): PricedCart {
  const lines: PricedLine[] = []
  // A value that is not a cart (isCart) prices as empty, and that is a change.
  let changed = !isCart(cart)
  for (const line of isCart(cart) ? cart.lines : []) {
    const product = productOf(line.productId)
    if (!product || !isProductType(product.type)) {
      changed = true
      continue
    }
    const quantity = Math.min(line.quantity, maxQuantityOf(product.type))
    if (quantity !== line.quantity) changed = true
    const lineCents = multiplyCents(product.priceCents, quantity)
    if (lineCents === undefined) return { ok: false, error: 'cart.errors.totalTooLarge' }
    lines.push({ productId: line.productId, quantity, type: product.type, unitCents: product.priceCents, lineCents })
  }
  const totalCents = sumCents(lines.map((line) => line.lineCents))
  if (totalCents === undefined) return { ok: false, error: 'cart.errors.totalTooLarge' }
  return { ok: true, cart: { lines: lines.map(({ productId, quantity }) => ({ productId, quantity })) }, lines, totalCents, changed }
}

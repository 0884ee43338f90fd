import { type Cart, priceCart } from '#app/domain/cart.ts'
import { formatMoney } from '#app/domain/money.ts'
import { type Language } from '#app/i18n/config.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { listOwnedProducts, productsByIds } from '#app/provider/products.server.ts'
import { listOpenPurchases } from '#app/provider/purchases.server.ts'
import { productView } from '#app/features/products/product-views.server.ts'

/**
 * The cart as its page shows it (docs/product.md §2): each line with today's product and price
 * from the catalogue (never from the cookie), the total in BRL for the page's language, and
 * whether something was dropped or cut since it was added (no longer for sale, a quantity its
 * kind does not allow). The products and the pillars' names are read in parallel.
 */
export async function cartView(cart: Cart, language: Language) {
  if (cart.lines.length === 0) return { lines: [], total: null, count: 0, changed: false, tooLarge: false }
  const [page, pillars] = await Promise.all([productsByIds(cart.lines.map((line) => line.productId)), pillarsForDisplay()])
  const byId = new Map(page.results.map((product) => [product.id, product]))
  const priced = priceCart(cart, (id) => {
    const product = byId.get(id)
    return product && { type: product.product_type, priceCents: product.price_cents }
  })
  if (!priced.ok) return { lines: [], total: null, count: 0, changed: true, tooLarge: true }
  return {
    lines: priced.lines.map((line) => ({
      product: productView(byId.get(line.productId)!, { language, pillars }),
      quantity: line.quantity,
      total: formatMoney(line.lineCents, language),
    })),
    total: formatMoney(priced.totalCents, language),
    count: priced.lines.reduce((sum, line) => sum + line.quantity, 0),
    changed: priced.changed,
    tooLarge: false,
  }
}


/** What is had for good once bought (a second one is not sold: decision 0072); packages and plans are bought again. */
const ONCE: readonly string[] = ['course', 'digital_material', 'program']

/**
 * Before checkout (issue 42): which of the cart's courses, materials and programs the patient has
 * already, and which a payment still open holds, each with its purchase. Two provider calls side
 * by side; either failing marks nothing (the checkout's own refusal still says it).
 */
export async function cartHoldings(auth: SignedInCaller, cart: Cart) {
  const ids = new Set(cart.lines.map((line) => line.productId))
  if (ids.size === 0) return { owned: [], open: [] }
  const [owned, open] = await Promise.all([listOwnedProducts(auth).catch(() => null), listOpenPurchases(auth).catch(() => null)])
  return {
    owned: (owned?.results ?? []).filter((item) => ids.has(item.product.id) && ONCE.includes(item.product.product_type)).map((item) => ({ productId: item.product.id, purchaseId: item.purchase_id })),
    open: (open?.results ?? []).flatMap((purchase) =>
      purchase.items.filter((item) => item.product_id !== null && ids.has(item.product_id) && ONCE.includes(item.product_type)).map((item) => ({ productId: item.product_id!, purchaseId: purchase.id })),
    ),
  }
}

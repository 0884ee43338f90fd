import { type Cart, priceCart } from '#app/domain/cart.ts'
import { formatMoney } from '#app/domain/money.ts'
import { type Language } from '#app/i18n/config.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { productsByIds } from '#app/provider/products.server.ts'
import { productView } from './product-views.server.ts'

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

export type CartView = Awaited<ReturnType<typeof cartView>>

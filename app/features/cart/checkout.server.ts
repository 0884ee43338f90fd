import { data, redirect } from '@remix-run/node'
import { z } from 'zod'
import { getEnv } from '#app/env.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { PAYMENT_METHODS } from '#app/provider/purchase-schemas.ts'
import { createPurchase } from '#app/provider/purchases.server.ts'
import { readCart } from './cart-cookie.server.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'

/** The key a checkout form carries (a UUID made with the page), so a second click buys nothing more. */
export const CHECKOUT_KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const checkoutSchema = z.object({
  intent: z.literal('checkout'),
  method: z.enum(PAYMENT_METHODS),
  idempotencyKey: z.string().regex(CHECKOUT_KEY_PATTERN),
})

/**
 * A refused or failed checkout: the method chosen, why, the cart's products the buyer already has
 * (`already_owned`), or those in a payment still open and that purchase (`already_in_checkout`,
 * decision 0072: its page finishes or cancels it).
 */
type CheckoutReply = { checkout: { method: string; error: string; owned?: number[]; inCheckout?: number[]; openPurchaseId?: number } }

/**
 * Paying for the cart (docs/product.md §2, decision 0048): the provider prices the cart's products
 * and starts the payment. PIX goes to the purchase's page with its code; a card, to the payment
 * service's own page, which sends the buyer back to the purchase's page. A refusal or a failure
 * re-renders the cart with the method chosen and says why; the cart is never touched here (a paid
 * purchase empties it, a declined one keeps it).
 */
export async function checkoutAction(request: Request, auth: SignedInCaller, fields: Record<string, string>) {
  const t = await getFixedT(request, ['common', 'shop'])
  const parsed = checkoutSchema.safeParse(fields)
  const method = PAYMENT_METHODS.find((item) => item === fields.method) ?? 'pix'
  if (!parsed.success) return data({ checkout: { method, error: t('shop-replies:checkout.invalid') } } satisfies CheckoutReply, { status: 400 })
  const cart = await readCart(request)
  if (cart.lines.length === 0) return redirect('/carrinho', { status: 303 })
  try {
    const purchase = await createPurchase(auth, {
      cart,
      method: parsed.data.method,
      idempotencyKey: parsed.data.idempotencyKey,
      returnUrl: `${getEnv().APP_PUBLIC_URL}/compras/{PURCHASE_ID}`,
    })
    if (purchase.status === 'pending' && purchase.checkout_url) return redirect(purchase.checkout_url, { status: 303 })
    return redirect(`/compras/${purchase.id}`, { status: 303 })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    if (error.code === 'already_owned') {
      const owned = error.failure.kind === 'http' ? (error.failure.productIds ?? []) : []
      return data({ checkout: { method: parsed.data.method, error: t('shop-replies:checkout.alreadyOwned'), owned } } satisfies CheckoutReply, { status: 409 })
    }
    if (error.code === 'already_in_checkout' && error.failure.kind === 'http') {
      const { productIds = [], purchaseId } = error.failure
      const reply = { method: parsed.data.method, error: t('shop-replies:checkout.alreadyInCheckout'), inCheckout: productIds, ...(purchaseId && { openPurchaseId: purchaseId }) }
      return data({ checkout: reply } satisfies CheckoutReply, { status: 409 })
    }
    const message = error.code === 'payment_provider_unavailable' ? t('shop-replies:checkout.unavailable') : failureText(t, error)
    return data({ checkout: { method: parsed.data.method, error: message } } satisfies CheckoutReply, failureInit(error))
  }
}

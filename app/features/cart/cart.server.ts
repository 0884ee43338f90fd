import { z } from 'zod'
import { type Cart, EMPTY_CART, MAX_PRODUCT_ID, addToCart, mergeCarts, removeFromCart } from '#app/domain/cart.ts'
import { log } from '#app/http/log.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getAccountCart, putAccountCart } from '#app/provider/cart.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { getProduct } from '#app/provider/products.server.ts'
import { cartCookieHeader, readCart } from './cart-cookie.server.ts'
import { textFields } from '#app/utils/form-data.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * The cart's changes (docs/product.md §2, decision 0047): small forms posted to /carrinho from the
 * catalogue, a product's page and the cart itself. Each answers a redirect back to the page it
 * came from (`returnTo`, this site only) with a toast, so it works without JavaScript. The cookie
 * is the browser's cart; a member's change is written to the account first, and a change the
 * account could not take is not made (the two copies never disagree because of a failure).
 */

const productId = z.coerce.number().int().min(1).max(MAX_PRODUCT_ID)
const returnTo = z.string().max(500).optional()
const cartChangeSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add'), productId, returnTo }),
  z.object({ intent: z.literal('remove'), productId, returnTo }),
])

type CartAuth = SignedInCaller & { readonly isSignedIn: boolean }

export async function cartAction(request: Request, auth: CartAuth, form: FormData): Promise<Response> {
  const fields = textFields(form)
  const parsed = cartChangeSchema.safeParse(fields)
  const back = safeRedirect(parsed.success ? parsed.data.returnTo : fields.returnTo, '/carrinho')
  if (!parsed.success) return redirectWithToast(back, { type: 'error', message: { key: 'shop-replies:cart.errors.invalidProduct' } })
  const change = parsed.data
  const cart = await readCart(request)
  const [t, language] = await Promise.all([getFixedT(request, ['common', 'shop']), languageOf(request)])

  let next: Cart
  let done: { key: string; values: Record<string, string> }
  if (change.intent === 'add') {
    let product
    try {
      product = await getProduct(change.productId)
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error
      const key = error.status === 404 ? 'shop-replies:cart.errors.unavailable' : undefined
      return redirectWithToast(back, { type: 'error', message: key ? { key } : { text: failureText(t, error) } })
    }
    // Plans are started from their own page (a subscription is not bought with other things).
    if (product.product_type === 'subscription') return redirectWithToast(back, { type: 'error', message: { key: 'shop-replies:cart.errors.subscription' } })
    const added = addToCart(cart, { id: product.id, type: product.product_type })
    if (!added.ok) return redirectWithToast(back, { type: 'error', message: { key: `shop-replies:${added.error}`, values: { name: product.name[language] } } })
    next = added.cart
    done = { key: 'shop-replies:cart.added', values: { name: product.name[language] } }
  } else {
    next = removeFromCart(cart, change.productId)
    done = { key: 'shop-replies:cart.removed', values: {} }
  }

  if (auth.isSignedIn) {
    try {
      await putAccountCart(auth, next)
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error
      return redirectWithToast(back, { type: 'error', message: { text: failureText(t, error) } })
    }
  }
  return redirectWithToast(back, { type: 'success', message: done }, { headers: { 'Set-Cookie': await cartCookieHeader(next) } })
}

/**
 * At sign-in (password or Google): the browser's cart and the account's become one (mergeCarts),
 * written to the account and answered as the browser's new cookie. A provider that fails here
 * does not stop the sign-in: the browser keeps its cart, and the failure is logged.
 */
export async function mergeCartAtSignIn(request: Request, auth: SignedInCaller): Promise<string | undefined> {
  const cookieCart = await readCart(request)
  try {
    const accountCart = await getAccountCart(auth)
    const merged = mergeCarts(accountCart, cookieCart)
    if (!sameCart(merged, accountCart)) await putAccountCart(auth, merged)
    return merged.lines.length === 0 && cookieCart.lines.length === 0 ? undefined : cartCookieHeader(merged)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    log('error', { type: 'cart-merge', status: error.status ?? 'network' })
    return undefined
  }
}

/** At sign-out the browser forgets the cart (it stays with the account). */
export const forgetCartHeader = () => cartCookieHeader(EMPTY_CART)

const sameCart = (one: Cart, other: Cart) =>
  one.lines.length === other.lines.length && one.lines.every((line, index) => line.productId === other.lines[index]!.productId && line.quantity === other.lines[index]!.quantity)

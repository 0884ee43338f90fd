import { createCookie } from '@remix-run/node'
import { getEnv } from '#app/env.server.ts'
import { type Cart, EMPTY_CART, parseCart, serializeCart } from '#app/domain/cart.ts'

// A month: long enough for a visitor to come back to what they chose, short enough to be forgotten.
const THIRTY_DAYS = 60 * 60 * 24 * 30

let cookie: ReturnType<typeof createCookie> | undefined
/**
 * The browser's cart (docs/product.md §2, decision 0047): `innera_cart`, signed with the session's
 * secrets, so a cart written by hand fails the signature and is dropped. Its value is the cart's
 * short text form (domain/cart.ts, at most 281 characters), never a price.
 */
function cartCookie() {
  cookie ??= createCookie('innera_cart', {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: getEnv().SESSION_COOKIE_SECURE,
    secrets: getEnv().SESSION_SECRET,
    maxAge: THIRTY_DAYS,
  })
  return cookie
}

/** The cart this browser holds: the empty cart when there is none, or when it was tampered with. */
export async function readCart(request: Request): Promise<Cart> {
  const header = request.headers.get('Cookie')
  if (!header?.includes('innera_cart=')) return EMPTY_CART
  // parse answers null for a bad signature; parseCart drops anything it would not have written.
  return parseCart(await cartCookie().parse(header))
}

/** The Set-Cookie that keeps this cart in the browser; an empty cart removes the cookie. */
export async function cartCookieHeader(cart: Cart): Promise<string> {
  return cart.lines.length === 0 ? cartCookie().serialize('', { maxAge: 0 }) : cartCookie().serialize(serializeCart(cart))
}

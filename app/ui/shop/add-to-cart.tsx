import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import type { ProductView } from '#app/features/products/product-views.server.ts'

/**
 * "Add to cart" for a product (a plain post to /carrinho that comes back to this page with a
 * toast, with or without JavaScript), or a link to the cart once the product is in it. Plans are
 * not put in a cart: they start from their own page.
 */
export function AddToCart({ product, inCart, className = '' }: { product: ProductView; inCart: boolean; className?: string }) {
  const { t } = useTranslation('shop')
  const location = useLocation()
  if (product.type === 'subscription') return null
  if (inCart) {
    return (
      <Link to="/carrinho" className={`btn-secondary ${className}`}>
        {t('cart.inCart')}
        <span className="sr-only">: {product.name}</span>
      </Link>
    )
  }
  return (
    <Form method="post" action="/carrinho" preventScrollReset className={className}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <button type="submit" className="btn-primary w-full">
        {t('cart.add')}
        <span className="sr-only">: {product.name}</span>
      </button>
    </Form>
  )
}

/** An empty list of the shop's (the cart, my purchases): what it means, and the way to the catalogue. */
export function EmptyShopList({ message }: { message: string }) {
  const { t } = useTranslation('shop')
  return (
    <div className="mt-6 rounded-2xl bg-white p-6">
      <p>{message}</p>
      <p className="mt-4">
        <Link to="/solucoes" className="btn-primary">
          {t('cart.browse')}
        </Link>
      </p>
    </div>
  )
}

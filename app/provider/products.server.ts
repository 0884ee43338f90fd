import { type ProductType } from '#app/domain/product-types.ts'
import { type PillarSlug } from '#app/domain/pillars.ts'
import { type Cents } from '#app/domain/money.ts'
import { providerJson, type SignedInCaller } from './fetch.server.ts'
import { ownedProductPageSchema, productPageSchema, productSchema, productWithViewerSchema } from './product-schemas.ts'

type ProductQuery = { productType?: ProductType; pillar?: PillarSlug; page?: number; pageSize?: number }

/** A page of the solutions catalogue: public, the same for every visitor (no token is sent). */
export function listProducts({ productType, pillar, page, pageSize }: ProductQuery = {}) {
  return providerJson('/products/', productPageSchema, { query: { product_type: productType, pillar, page, page_size: pageSize } })
}

/** One product of the catalogue; a 404 when it is unknown or no longer for sale. */
export function getProduct(id: number) {
  return providerJson(`/products/${id}/`, productSchema)
}

/** The products of a cart (at most its 20 lines) in one call; those no longer for sale are not in the answer. */
export function productsByIds(ids: readonly number[]) {
  return providerJson('/products/', productPageSchema, { query: { id__in: ids.join(','), page_size: Math.max(ids.length, 1) } })
}

/** An admin's new price (decision 0053): new buyers pay it at once; a plan's subscribers are told and pay it later. */
export function setProductPrice(auth: SignedInCaller, id: number, priceCents: Cents) {
  return auth.call(`/products/${id}/`, productSchema, { method: 'PATCH', json: { price_cents: priceCents } })
}

/** One product with the signed-in caller's standing beside it (a patient's: owned, a payment still open), in one call. */
export function getProductAs(auth: SignedInCaller, id: number) {
  return auth.call(`/products/${id}/`, productWithViewerSchema)
}

/** Everything the signed-in user has (docs/product.md §7 my-products), newest first; at most 100. */
export const listOwnedProducts = (auth: SignedInCaller) => auth.call('/products/my-products/', ownedProductPageSchema, { query: { page_size: 100 } })

/** A digital material's file, for its buyer (decision 0056). */
export const downloadMaterial = (auth: SignedInCaller, id: number) => auth.file(`/products/my-products/${id}/download/`)

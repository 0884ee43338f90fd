import type { ProductType } from '#server/db/schema.ts'

/**
 * The most of one product a purchase holds (docs/product.md §9): 1 of every type today, since each
 * grants something to one account and a second copy would grant nothing more (a package carries
 * its credits; a course, program or material is access once; one subscription per plan). The
 * provider's own rule: the app's cart keeps the same number for the browser
 * (app/domain/product-types.ts), and this one decides.
 */
const QUANTITY_ALLOWED: Readonly<Record<ProductType, number>> = {
  consultation_package: 1,
  program: 1,
  course: 1,
  digital_material: 1,
  subscription: 1,
}

export function quantityAllowed(type: ProductType): number {
  return QUANTITY_ALLOWED[type]
}

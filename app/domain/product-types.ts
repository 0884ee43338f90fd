/**
 * The kinds of product the solutions catalogue sells (issue 24), and how many of one product a
 * cart may hold. Pure; no imports: the cart's browser code may use it too.
 */
export const PRODUCT_TYPES = ['consultation_package', 'program', 'course', 'digital_material', 'subscription'] as const
export type ProductType = (typeof PRODUCT_TYPES)[number]

export function isProductType(value: unknown): value is ProductType {
  return typeof value === 'string' && (PRODUCT_TYPES as readonly string[]).includes(value)
}

/**
 * The most of one product a cart holds. Every type is 1 today, because every purchase grants
 * something to one account, and a second copy would grant nothing more:
 * - consultation_package: a package already carries its credits; more consultations means a
 *   larger package, and one package per purchase keeps its refund pro rata simple (decision 0044);
 * - program, course: access for the account, once;
 * - digital_material: downloads for the account, once;
 * - subscription: one running subscription per product.
 * The cart's own ceiling (CART_MAX_QUANTITY, 10) stays for a type that may one day allow more
 * (a gift, a bundle); raise a type's number here and nothing else changes.
 */
const QUANTITY_ALLOWED: Readonly<Record<ProductType, number>> = {
  consultation_package: 1,
  program: 1,
  course: 1,
  digital_material: 1,
  subscription: 1,
}

/** The most of one product of this type a cart may hold (1 for every type today). */
export function quantityAllowed(type: ProductType): number {
  return QUANTITY_ALLOWED[type]
}

import { describe, expect, test } from 'vitest'
import { PRODUCT_TYPES, isProductType, quantityAllowed } from './product-types.ts'

describe('product types', () => {
  test('the five the catalogue sells', () => {
    expect(PRODUCT_TYPES).toEqual(['consultation_package', 'program', 'course', 'digital_material', 'subscription'])
    for (const type of PRODUCT_TYPES) expect(isProductType(type)).toBe(true)
    for (const value of ['consultation', 'Course', ' course', '', null, 1, ['course']]) expect(isProductType(value)).toBe(false)
  })

  test('one of each product in a cart, whatever its type', () => {
    for (const type of PRODUCT_TYPES) expect(quantityAllowed(type)).toBe(1)
  })
})

import { type ProductType } from './product-types.ts'

/**
 * Where each paid item of a purchase leads (docs/product.md §2, issue 42): a course to the course,
 * a material to its file, a program to the program, a package to booking with it. A consultation's
 * line and a plan's have their own button on the page (the consultation, the subscription). Pure.
 */
type BoughtItem = { productId: number | null; type: ProductType | 'consultation' }
type BoughtLink = { productId: number; href: string; label: 'course' | 'material' | 'program' | 'package' }

/** `courseIdOf`: the course a course product sells, when known (else the course is found in "my products"). */
export function boughtLinks(items: readonly BoughtItem[], courseIdOf: (productId: number) => number | undefined): BoughtLink[] {
  return items.flatMap((item): BoughtLink[] => {
    const productId = item.productId
    if (productId === null) return []
    switch (item.type) {
      case 'course': {
        const courseId = courseIdOf(productId)
        return [{ productId, href: courseId === undefined ? '/meus-produtos' : `/cursos/${courseId}`, label: 'course' }]
      }
      case 'digital_material':
        return [{ productId, href: `/meus-produtos/${productId}/arquivo`, label: 'material' }]
      case 'program':
        return [{ productId, href: '/meu-programa', label: 'program' }]
      case 'consultation_package':
        return [{ productId, href: '/consultas/profissionais', label: 'package' }]
      default:
        return []
    }
  })
}

import { describe, expect, test } from 'vitest'
import { boughtLinks } from './purchase-links.ts'

describe('what a paid purchase leads to', () => {
  test('each kind of item to what it bought', () => {
    const courses = new Map([[8, 3]])
    const links = boughtLinks(
      [
        { productId: 8, type: 'course' },
        { productId: 9, type: 'digital_material' },
        { productId: 10, type: 'program' },
        { productId: 11, type: 'consultation_package' },
        { productId: 12, type: 'subscription' },
        { productId: null, type: 'consultation' },
      ],
      (id) => courses.get(id),
    )
    expect(links).toEqual([
      { productId: 8, href: '/cursos/3', label: 'course' },
      { productId: 9, href: '/meus-produtos/9/arquivo', label: 'material' },
      { productId: 10, href: '/meu-programa', label: 'program' },
      { productId: 11, href: '/consultas/profissionais', label: 'package' },
    ])
  })

  test('a course whose page is not known is found in “my products”', () => {
    expect(boughtLinks([{ productId: 8, type: 'course' }], () => undefined)).toEqual([{ productId: 8, href: '/meus-produtos', label: 'course' }])
  })
})

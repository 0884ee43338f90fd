/** docs/product.md §2: the six pillars in this order, placed alternately left and right. */
export const PILLAR_ORDER = ['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'] as const
export type PillarSlug = (typeof PILLAR_ORDER)[number]

export function isPillarSlug(value: unknown): value is PillarSlug {
  return typeof value === 'string' && (PILLAR_ORDER as readonly string[]).includes(value)
}

export function positionOf(index: number): 'left' | 'right' {
  return index % 2 === 0 ? 'left' : 'right'
}

/** Puts pillars in the product's order (docs/product.md §1), whatever order they came in; unknown slugs go last. */
export function inPillarOrder<Pillar extends { slug: string }>(pillars: readonly Pillar[]): Pillar[] {
  const rank = (slug: string) => {
    const index = (PILLAR_ORDER as readonly string[]).indexOf(slug)
    return index === -1 ? PILLAR_ORDER.length : index
  }
  return [...pillars].sort((a, b) => rank(a.slug) - rank(b.slug))
}

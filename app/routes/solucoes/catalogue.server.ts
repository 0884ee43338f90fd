import { z } from 'zod'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { PRODUCT_TYPES } from '#app/domain/product-types.ts'
import { MAX_PAGE } from '#app/utils/pagination.ts'

/** The solutions catalogue's query (`/solucoes`), on the server only: zod stays out of the page's JavaScript. */

/** The catalogue's filters as the URL gives them (`?tipo=&pilar=&page=`); anything unknown is no filter. */
const querySchema = z.object({
  tipo: z.enum(PRODUCT_TYPES).or(z.literal('')).catch(''),
  pilar: z.enum(PILLAR_ORDER).or(z.literal('')).catch(''),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1),
})
type CatalogueQuery = z.infer<typeof querySchema>

export function readCatalogueQuery(url: URL): CatalogueQuery {
  return querySchema.parse({ tipo: url.searchParams.get('tipo') ?? '', pilar: url.searchParams.get('pilar') ?? '', page: url.searchParams.get('page') ?? 1 })
}

/** The catalogue's address with these filters (the page left out when it is the first). */
export function catalogueUrl(query: CatalogueQuery, page = query.page) {
  const params = new URLSearchParams()
  if (query.tipo) params.set('tipo', query.tipo)
  if (query.pilar) params.set('pilar', query.pilar)
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return `/solucoes${search ? `?${search}` : ''}`
}

import { type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { inPillarOrder } from '#app/domain/pillars.ts'
import { PRODUCT_TYPES } from '#app/domain/product-types.ts'
import { catalogueUrl, readCatalogueQuery } from './catalogue.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { listProducts } from '#app/provider/products.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { Pagination, SelectFilter } from '#app/ui/list-controls.tsx'
import { ProductCard } from '#app/ui/shop/product-facts.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { productView } from '#app/features/products/product-views.server.ts'
import { readCart } from '#app/features/cart/cart-cookie.server.ts'

/** Products a page of the catalogue shows. */
const CATALOGUE_PAGE_SIZE = 12

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['shop'] }

/**
 * The solutions catalogue (docs/product.md §2): public, filtered by type and theme (pillar) with a
 * GET form that works without JavaScript. One provider call; the pillar names come from the
 * process's copy (docs/decisions/0030).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const query = readCatalogueQuery(new URL(request.url))
  const [t, language, page, pillars, cart] = await Promise.all([
    getFixedT(request, 'shop'),
    languageOf(request),
    listProducts({ productType: query.tipo || undefined, pillar: query.pilar || undefined, page: query.page, pageSize: CATALOGUE_PAGE_SIZE }).catch((error: unknown) => {
      // Past the last page (the catalogue shrank, or a hand-written URL): its first page.
      if (error instanceof ProviderError && error.status === 404 && query.page > 1) throw redirect(catalogueUrl(query, 1))
      return errorResponseFor(error)
    }),
    pillarsForDisplay().catch(errorResponseFor),
    readCart(request),
  ])
  return data({
    meta: { title: `${t('catalogue.title')} · Innera`, description: t('catalogue.lead') },
    query,
    count: page.count,
    pillars: inPillarOrder(pillars).map((pillar) => ({ slug: pillar.slug, name: pillar.name[language] ?? pillar.name.en })),
    products: page.results.map((product) => productView(product, { language, pillars })),
    inCart: cart.lines.map((line) => line.productId),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function CataloguePage() {
  const { query, count, pillars, products, inCart } = useLoaderData<typeof loader>()
  const { t } = useTranslation('shop')
  const filtered = Boolean(query.tipo || query.pilar)
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('catalogue.title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('catalogue.lead')}</p>
      <Form method="get" role="search" aria-label={t('catalogue.filters')} className="mt-6 flex flex-wrap items-end gap-3">
        <SelectFilter
          name="tipo"
          label={t('catalogue.type')}
          defaultValue={query.tipo}
          allLabel={t('catalogue.allTypes')}
          options={PRODUCT_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
        />
        <SelectFilter name="pilar" label={t('catalogue.theme')} defaultValue={query.pilar} allLabel={t('catalogue.allThemes')} options={pillars.map((pillar) => ({ value: pillar.slug, label: pillar.name }))} />
        <button type="submit" className="btn-primary">
          {t('catalogue.apply')}
        </button>
        {filtered ? (
          <Link to="/solucoes" className="btn-secondary">
            {t('catalogue.clear')}
          </Link>
        ) : null}
      </Form>
      <p className="mt-6 text-muted" role="status">
        {t('catalogue.count', { count })}
      </p>
      {/* Free courses are not sold, so they are not here: where they are (issue 42). */}
      {query.tipo === '' || query.tipo === 'course' ? (
        <p className="mt-2" data-testid="free-courses">
          {t('catalogue.freeCourses')}{' '}
          <Link to={query.pilar ? `/cursos?pilar=${query.pilar}` : '/cursos'} className="link">
            {t('catalogue.seeFreeCourses')}
          </Link>
        </p>
      ) : null}
      {products.length === 0 ? (
        <p className="mt-4 rounded-2xl bg-white p-6">{t('catalogue.empty')}</p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="products">
          {products.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} inCart={inCart.includes(product.id)} />
            </li>
          ))}
        </ul>
      )}
      <Pagination count={count} page={query.page} pageSize={CATALOGUE_PAGE_SIZE} />
    </main>
  )
}

import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { getProduct } from '#app/provider/products.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import { ProductFacts, ProductPrice } from '#app/ui/shop/product-facts.tsx'
import { AddToCart } from '#app/ui/shop/add-to-cart.tsx'
import { readCart } from '#app/utils/cart-cookie.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { productView } from '#app/utils/product-views.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['shop'] }

/** A product's page (`/produto/{id}`, docs/product.md §2): public; one provider call. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  const [t, language, product, pillars, cart] = await Promise.all([
    getFixedT(request, 'shop'),
    languageOf(request),
    getProduct(id).catch(errorResponseFor),
    pillarsForDisplay().catch(errorResponseFor),
    readCart(request),
  ])
  const view = productView(product, { language, pillars })
  return data({
    meta: { title: `${view.name} · ${t('catalogue.title')} · Innera`, description: view.description },
    product: view,
    inCart: cart.lines.some((line) => line.productId === view.id),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function ProductPage() {
  const { product, inCart } = useLoaderData<typeof loader>()
  const { t } = useTranslation('shop')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/solucoes" className="link">
          {t('product.back')}
        </Link>
      </p>
      <article className="mt-4 grid gap-8 lg:grid-cols-[2fr_1fr]">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t(`types.${product.type}`)}</p>
          <h1 className="mt-1 text-3xl font-bold">{product.name}</h1>
          {product.pillar ? (
            <p className="mt-2 flex items-center gap-1 text-muted">
              <PillarIcon icon={product.pillar.icon} className="size-5" />
              <Link to={`/solucoes?pilar=${product.pillar.slug}`} className="link">
                {t('product.theme', { pillar: product.pillar.name })}
              </Link>
            </p>
          ) : null}
          <p className="mt-4 max-w-2xl whitespace-pre-line text-lg">{product.description}</p>
          <ProductFacts product={product} />
        </div>
        <aside className="h-fit rounded-2xl border border-brand-100 bg-white p-6 shadow-sm" aria-label={t('product.price')}>
          <ProductPrice product={product} className="text-3xl font-bold text-brand-800" />
          <AddToCart product={product} inCart={inCart} className="mt-4" />
          <ul className="mt-4 space-y-2 text-sm text-muted">
            <li>{t(`product.access.${product.type}`)}</li>
            <li>{t('product.withdrawal')}</li>
            <li>{t('product.payment')}</li>
          </ul>
        </aside>
      </article>
    </main>
  )
}

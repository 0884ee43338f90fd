import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import type { ProductView } from '#app/features/products/product-views.server.ts'
import { AddToCart } from './add-to-cart.tsx'

/** What a product is, in a line each: its kind's own facts (consultations, weeks, the plan). */
export function ProductFacts({ product }: { product: ProductView }) {
  const { t } = useTranslation('shop')
  const facts: string[] = []
  if (product.consultations) facts.push(t('product.consultations', { count: product.consultations }))
  if (product.type === 'consultation_package') facts.push(product.professional ? t('product.withProfessional', { name: product.professional }) : t('product.anyProfessional'))
  if (product.weeks) facts.push(t('product.weeks', { count: product.weeks }))
  // The trial plan is its days, paid once (decision 0052); another plan's trial days come free first.
  if (product.trialDays) facts.push(t(product.interval === 'trial' ? 'product.trialAccess' : 'product.trialDays', { count: product.trialDays }))
  if (facts.length === 0) return null
  return (
    <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted">
      {facts.map((fact) => (
        <li key={fact}>{fact}</li>
      ))}
    </ul>
  )
}

/** The price, with the plan's period for a subscription ("R$ 89,90 por mês"). */
export function ProductPrice({ product, className = 'text-xl font-bold text-brand-800' }: { product: ProductView; className?: string }) {
  const { t } = useTranslation('shop')
  return (
    <p className={className}>
      {product.price}
      {product.type === 'subscription' && product.interval ? <span className="ml-1 text-sm font-medium text-muted">{t(`product.interval.${product.interval}`)}</span> : null}
    </p>
  )
}

/** A product in the catalogue's list: its kind, name, theme, facts, price, a link to its page and "add to cart". */
export function ProductCard({ product, inCart }: { product: ProductView; inCart: boolean }) {
  const { t } = useTranslation('shop')
  return (
    <article className="flex h-full flex-col rounded-2xl border border-brand-100 bg-white p-5 shadow-sm">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t(`types.${product.type}`)}</p>
      <h2 className="mt-1 text-xl font-semibold">
        <Link to={`/produto/${product.id}`} className="hover:underline">
          {product.name}
        </Link>
      </h2>
      {product.pillar ? (
        <p className="mt-1 flex items-center gap-1 text-sm text-muted">
          <PillarIcon icon={product.pillar.icon} className="size-4" />
          {product.pillar.name}
        </p>
      ) : null}
      <p className="mt-3 line-clamp-3 text-ink">{product.description}</p>
      <ProductFacts product={product} />
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
        <ProductPrice product={product} />
        <Link to={`/produto/${product.id}`} className="btn-secondary">
          {t('catalogue.details')}
          <span className="sr-only">: {product.name}</span>
        </Link>
      </div>
      <AddToCart product={product} inCart={inCart} className="mt-3" />
    </article>
  )
}

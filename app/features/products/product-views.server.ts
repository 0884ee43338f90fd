import { type Language } from '#app/i18n/config.ts'
import { formatMoney } from '#app/domain/money.ts'
import { type Product } from '#app/provider/product-schemas.ts'
import { type Pillar } from '#app/provider/schemas.ts'

/** A product as a page shows it: texts in the page's language, the price already formatted. */
export function productView(product: Product, { language, pillars }: { language: Language; pillars: readonly Pillar[] }) {
  const pillar = product.pillar ? pillars.find((item) => item.slug === product.pillar) : undefined
  const professional = product.professional
  return {
    id: product.id,
    type: product.product_type,
    name: product.name[language],
    description: product.description[language],
    price: formatMoney(product.price_cents, language),
    pillar: pillar ? { slug: pillar.slug, name: pillar.name[language] ?? pillar.name.en, icon: pillar.icon } : null,
    consultations: product.consultations,
    professional: professional ? [professional.first_name, professional.last_name].filter(Boolean).join(' ') : null,
    weeks: product.weeks,
    interval: product.plan_interval,
    trialDays: product.trial_days,
  }
}

export type ProductView = ReturnType<typeof productView>

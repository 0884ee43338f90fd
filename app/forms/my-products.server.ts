import { type Language } from '#app/i18n/config.ts'
import { type OwnedProduct } from '#app/provider/product-schemas.ts'
import { type Subscription } from '#app/provider/subscription-schemas.ts'
import { type Pillar } from '#app/provider/schemas.ts'
import { productView } from '#app/utils/product-views.server.ts'
import { subscriptionView } from './subscription.server.ts'

/**
 * "My products" (`/meus-produtos`, docs/product.md §2): what the signed-in user has, grouped as the
 * page shows it. A material is downloadable from when it is available; a package shows its
 * consultations left (a used-up one is left out); subscriptions that ended are on /assinaturas.
 */
export function myProductsView(owned: readonly OwnedProduct[], subscriptions: readonly Subscription[], { language, pillars, now }: { language: Language; pillars: readonly Pillar[]; now: number }) {
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'America/Sao_Paulo' })
  const view = (item: OwnedProduct) => ({
    ...productView(item.product, { language, pillars }),
    purchaseId: item.purchase_id,
    since: day.format(new Date(item.available_at)),
    available: Date.parse(item.available_at) <= now,
  })
  const of = (kind: OwnedProduct['kind']) => owned.filter((item) => item.kind === kind)
  return {
    courses: of('course').map(view),
    programs: of('program').map(view),
    materials: of('material').map((item) => ({ ...view(item), downloadable: item.download_url !== null })),
    packages: of('consultation_credits')
      .filter((item) => (item.credits?.remaining ?? 0) > 0)
      .map((item) => ({ ...view(item), remaining: item.credits!.remaining, total: item.credits!.total, professionalId: item.credits!.professional_id })),
    subscriptions: subscriptions.filter((item) => item.status !== 'ended').map((item) => subscriptionView(item, language)),
  }
}

export type MyProductsView = ReturnType<typeof myProductsView>

import type { LocalizedText } from '#server/db/schema.ts'
import { photoUrl } from '#server/users/serializers.ts'
import type { ProductView } from '#server/products/repository.ts'

/** jsonb keeps keys in its own order; texts answer in the product's language order, as the pillars do. */
const localized = (text: LocalizedText): LocalizedText => ({ pt: text.pt, en: text.en, es: text.es })

/**
 * A product of the catalogue (decision 0045). Every field is always present: the type-specific
 * ones are null where the type has none, so one schema reads every product.
 */
export function serializeProduct({ product, pillarId, professional }: ProductView, photoBase: string) {
  return {
    id: product.id,
    slug: product.slug,
    product_type: product.productType,
    category: product.category,
    pillar: product.pillarSlug,
    pillar_id: pillarId,
    name: localized(product.name),
    description: localized(product.description),
    price_cents: product.priceCents,
    currency: 'BRL',
    consultations: product.consultations,
    professional: professional && {
      id: professional.id,
      first_name: professional.firstName,
      last_name: professional.lastName,
      photo: photoUrl(photoBase, professional.photoName),
      profession: professional.profession,
    },
    weeks: product.weeks,
    plan_interval: product.planInterval,
    trial_days: product.trialDays,
  }
}

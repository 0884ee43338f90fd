import { z } from 'zod'
import { type Cents, isCents } from '#app/domain/money.ts'
import { PRODUCT_TYPES } from '#app/domain/product-types.ts'
import { paginated } from './schemas.ts'

export const localized = z.object({ pt: z.string(), en: z.string(), es: z.string() })

/** Integer cents of BRL end to end (docs/product.md §9), above zero; anything else fails the answer's check. */
export const positiveCents = z
  .number()
  .refine((value) => isCents(value) && value > 0, 'an amount in whole cents')
  .transform((value) => value as Cents)

/** A product of the catalogue as the provider answers it (docs/decisions/0045-products-api.md). */
export const productSchema = z.object({
  id: z.number().int().positive(),
  slug: z.string(),
  product_type: z.enum(PRODUCT_TYPES),
  category: z.string(),
  pillar: z.string().nullable(),
  pillar_id: z.number().int().nullable(),
  name: localized,
  description: localized,
  price_cents: positiveCents,
  currency: z.literal('BRL'),
  consultations: z.number().int().nullable(),
  professional: z
    .object({
      id: z.number().int(),
      first_name: z.string(),
      last_name: z.string(),
      photo: z.string().nullable(),
      profession: z.string().nullable(),
    })
    .nullable(),
  weeks: z.number().int().nullable(),
  plan_interval: z.enum(['monthly', 'yearly', 'trial', 'program']).nullable(),
  trial_days: z.number().int().nullable(),
})
export type Product = z.infer<typeof productSchema>

export const productPageSchema = paginated(productSchema)

/**
 * A product asked with the caller's token (decision 0095): their standing beside it, for a
 * patient (null for anyone else): whether they have it in force, and their payment of it still open.
 */
export const productWithViewerSchema = productSchema.extend({
  viewer: z.object({ owned: z.boolean(), open_purchase_id: z.number().int().positive().nullable() }).nullable(),
})

/** A product the user has (`GET /products/my-products/`): what a paid purchase gave, since when, and a package's credits. */
const ownedProductSchema = z.object({
  product: productSchema,
  purchase_id: z.number().int().positive(),
  kind: z.enum(['course', 'material', 'program', 'consultation_credits']),
  available_at: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  download_url: z.string().url().nullable(),
  credits: z.object({ total: z.number().int().nonnegative(), used: z.number().int().nonnegative(), remaining: z.number().int().nonnegative(), professional_id: z.number().int().nullable() }).nullable(),
})
export type OwnedProduct = z.infer<typeof ownedProductSchema>
export const ownedProductPageSchema = paginated(ownedProductSchema)

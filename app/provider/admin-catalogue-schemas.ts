import { z } from 'zod'
import { PRODUCT_TYPES } from '#app/domain/product-types.ts'
import { localized, positiveCents } from './product-schemas.ts'

/** The catalogue's editor as the provider answers it (decisions 0064 and 0065): pillars' texts and products, with drafts. */

const draftMark = z.object({ updated_at: z.string() }).nullable()
/** A draft's text: each language as typed, possibly empty. */
const draftText = z.object({ pt: z.string(), en: z.string(), es: z.string() })
const interval = z.enum(['monthly', 'yearly', 'trial', 'program'])

export const adminPillarSchema = z.object({ id: z.number().int(), slug: z.string(), order: z.number().int(), icon: z.string(), name: localized, description: localized })

export const adminPillarListSchema = z.object({ results: z.array(adminPillarSchema.extend({ draft: draftMark })), new_drafts: z.array(z.object({ key: z.string() })) })

export const pillarDraftSchema = z.object({ name: draftText, description: draftText, updated_at: z.string() })
export const adminPillarItemSchema = z.object({ published: adminPillarSchema, draft: pillarDraftSchema.nullable() })

export const adminProductSchema = z.object({
  id: z.number().int().positive(),
  slug: z.string(),
  product_type: z.enum(PRODUCT_TYPES),
  category: z.string(),
  pillar: z.string().nullable(),
  name: localized,
  description: localized,
  price_cents: positiveCents,
  active: z.boolean(),
  sort_order: z.number().int(),
  consultations: z.number().int().nullable(),
  professional_id: z.number().int().nullable(),
  weeks: z.number().int().nullable(),
  plan_interval: interval.nullable(),
  trial_days: z.number().int().nullable(),
})
export type AdminProduct = z.infer<typeof adminProductSchema>

/** A product's draft: any part of the form; a new product's also names its type and price. */
export const productDraftSchema = z.object({
  name: draftText,
  description: draftText,
  category: z.string().optional(),
  pillar: z.string().optional(),
  sort_order: z.number().int().optional(),
  active: z.boolean().optional(),
  product_type: z.enum(PRODUCT_TYPES).optional(),
  price_cents: positiveCents.optional(),
  consultations: z.number().int().optional(),
  professional_id: z.number().int().optional(),
  weeks: z.number().int().optional(),
  plan_interval: interval.optional(),
  trial_days: z.number().int().optional(),
  updated_at: z.string(),
})
export type ProductDraft = z.infer<typeof productDraftSchema>

export const adminProductListSchema = z.object({
  results: z.array(adminProductSchema.extend({ draft: draftMark })),
  new_drafts: z.array(productDraftSchema.extend({ key: z.string() })),
})
export const adminProductItemSchema = z.object({ published: adminProductSchema.nullable(), draft: productDraftSchema.nullable() })

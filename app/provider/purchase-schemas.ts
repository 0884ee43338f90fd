import { z } from 'zod'
import { type Cents, isCents } from '#app/domain/money.ts'
import { PAYMENT_METHODS } from '#app/domain/payment-methods.ts'
import { PRODUCT_TYPES } from '#app/domain/product-types.ts'
import { localized, positiveCents } from './product-schemas.ts'
import { paginated } from './schemas.ts'

/** A purchase's statuses (docs/product.md §4, decision 0048). */
export const PURCHASE_STATUSES = ['pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded'] as const
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number]
export { PAYMENT_METHODS, type PaymentMethod } from '#app/domain/payment-methods.ts'

export const cents = z
  .number()
  .refine((value) => isCents(value), 'an amount in whole cents')
  .transform((value) => value as Cents)

/** A purchase as the provider answers it (docs/product.md §3); lists leave out the page's own fields. */
export const purchaseSchema = z.object({
  id: z.number().int().positive(),
  status: z.enum(PURCHASE_STATUSES),
  method: z.enum(PAYMENT_METHODS),
  total_cents: positiveCents,
  refunded_cents: cents,
  currency: z.literal('BRL'),
  items: z.array(
    z.object({
      // Null for a consultation's line (decision 0051): its time, not a product of the catalogue.
      product_id: z.number().int().positive().nullable(),
      product_type: z.enum([...PRODUCT_TYPES, 'consultation']),
      name: localized,
      quantity: z.number().int().positive(),
      unit_cents: positiveCents,
      line_cents: positiveCents,
    }),
  ),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  checkout_url: z.string().url().nullable(),
  checkout_expires_at: z.string().nullable(),
  pix: z.object({ data: z.string().max(512), expires_at: z.string(), instructions_url: z.string().url().nullable() }).nullable(),
  failure: z.object({ code: z.string().nullable(), message: z.string().nullable() }).nullable(),
})

/** By when a refund reaches the buyer: a card's within billing cycles, a PIX's by a date (business days). */
export const refundDeadlineSchema = z.object({ method: z.string(), billing_cycles: z.number().nullable(), business_days: z.number().nullable(), date: z.string().nullable() }).nullable()
export type RefundDeadline = NonNullable<z.infer<typeof refundDeadlineSchema>>

export const purchaseDetailSchema = purchaseSchema.extend({
  refund_quote: z
    .object({
      refund_cents: cents,
      reason: z.string(),
      withdrawal_ends_at: z.string().nullable(),
      deadline: refundDeadlineSchema,
    })
    .nullable(),
  can_cancel: z.boolean(),
  can_renew_pix: z.boolean(),
  /** The consultation it pays, if it pays one: its page cancels and refunds it. */
  appointment_id: z.number().int().positive().nullable().optional(),
  /** The subscription it pays a period of, if any. */
  subscription_id: z.number().int().positive().nullable().optional(),
  /** Cancelled because another purchase of the buyer got its products (decision 0076): that purchase. */
  replaced_by_purchase_id: z.number().int().positive().nullable().optional(),
})
export type PurchaseDetail = z.infer<typeof purchaseDetailSchema>

export const purchasePageSchema = paginated(purchaseSchema)

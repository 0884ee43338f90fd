import { z } from 'zod'
import { PRODUCT_TYPES } from '#app/domain/product-types.ts'
import { localized, positiveCents } from './product-schemas.ts'
import { PAYMENT_METHODS, PURCHASE_STATUSES, cents, refundDeadlineSchema } from './purchase-schemas.ts'
import { paginated } from './schemas.ts'

/** The admin console's purchases as the provider answers them (docs/product.md §7, decision 0061). */

const id = z.number().int().positive()

const adminPurchaseSchema = z.object({
  id,
  created_at: z.string(),
  paid_at: z.string().nullable(),
  status: z.enum(PURCHASE_STATUSES),
  method: z.enum(PAYMENT_METHODS),
  total_cents: positiveCents,
  refunded_cents: cents,
  currency: z.literal('BRL'),
  buyer: z.object({ id, name: z.string(), email: z.string() }),
  items: z.array(z.object({ product_id: id.nullable(), kind: z.enum([...PRODUCT_TYPES, 'consultation']), title: localized, quantity: id, price_cents: positiveCents })),
})
export type AdminPurchase = z.infer<typeof adminPurchaseSchema>

export const adminPurchasePageSchema = paginated(adminPurchaseSchema)

/** Why the provider would refuse an admin's refund now (the page says it instead of the form). */
export const REFUND_REFUSALS = ['already_refunded', 'not_paid', 'cancel_the_subscription', 'cancel_the_consultation', 'nothing_to_refund'] as const

/** Why a payment was not taken as the purchase's (decision 0074); another still shows, as a plain mark. */
export const MISMATCH_REASONS = ['unknown_payment_intent', 'not_succeeded', 'other_purchase', 'currency', 'amount'] as const

export const adminPurchaseDetailSchema = adminPurchaseSchema.extend({
  updated_at: z.string(),
  failure: z.object({ code: z.string().nullable(), message: z.string().nullable() }).nullable(),
  appointment_id: id.nullable(),
  subscription_id: id.nullable(),
  events: z.array(z.object({ from_status: z.enum(PURCHASE_STATUSES).nullable(), to_status: z.enum(PURCHASE_STATUSES), at: z.string(), source: z.string(), stripe_event_id: z.string().nullable() })),
  webhook_deliveries: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      received_at: z.string().nullable(),
      changed_status: z.boolean(),
      deliveries: z.object({ attempts: z.number().int().min(0), delivered_at: z.string().nullable(), failed_at: z.string().nullable(), last_error: z.string().nullable() }).nullable(),
    }),
  ),
  refunds: z.array(
    z.object({
      id,
      amount_cents: positiveCents,
      method: z.enum(PAYMENT_METHODS),
      status: z.string(),
      reason: z.string(),
      note: z.string().nullable(),
      deadline: refundDeadlineSchema,
      created_at: z.string(),
      by: z.object({ role: z.enum(['admin', 'professional', 'buyer', 'system']), user: z.object({ id, name: z.string() }).nullable() }),
    }),
  ),
  // Payments Stripe spoke of that did not fit the purchase and granted nothing (decision 0074).
  payment_mismatches: z
    .array(
      z.object({
        at: z.string(),
        reason: z.string(),
        payment_intent_id: z.string(),
        amount_cents: z.number().int(),
        currency: z.string(),
        expected_cents: z.number().int(),
        stripe_event_id: z.string().nullable(),
      }),
    )
    .default([]),
  refund_quote: z.object({ refund_cents: cents, reason: z.string().nullable(), withdrawal_ends_at: z.string(), deadline: refundDeadlineSchema }).nullable(),
  // A refusal this app does not know yet still shows, as a plain "cannot be refunded".
  refund_refusal: z.object({ code: z.string(), withdrawal_ends_at: z.string().nullable() }).nullable(),
})
export type AdminPurchaseDetail = z.infer<typeof adminPurchaseDetailSchema>

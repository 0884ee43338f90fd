import { z } from 'zod'
import { localized, positiveCents } from './product-schemas.ts'
import { cents, PAYMENT_METHODS, refundDeadlineSchema } from './purchase-schemas.ts'
import { paginated } from './schemas.ts'

/** A subscription's statuses (decision 0052). */
const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'ended'] as const

const instant = z.string().refine((value) => !Number.isNaN(Date.parse(value)))

/** A subscription as the provider answers it (decision 0052). */
export const subscriptionSchema = z.object({
  id: z.number().int().positive(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  method: z.enum(PAYMENT_METHODS),
  plan: z.object({ id: z.number().int().positive(), slug: z.string(), name: localized, plan_interval: z.string().nullable(), renews: z.boolean(), trial_days: z.number().int().nonnegative() }),
  price_cents: positiveCents,
  next_price: z.object({ price_cents: positiveCents, from: instant.nullable() }).nullable(),
  current_period_start: instant.nullable(),
  current_period_end: instant.nullable(),
  has_access: z.boolean(),
  cancel_at_period_end: z.boolean(),
  pay_next_from: instant.nullable(),
  checkout_url: z.string().url().nullable(),
  card_updatable: z.boolean(),
  card_updated_at: instant.nullable(),
  renewal_deadline: instant.nullable(),
  open_payment_id: z.number().int().positive().nullable(),
  open_payment_checkout_url: z.string().url().nullable(),
  payments: z
    .array(
      z.object({
        id: z.number().int().positive(),
        status: z.string(),
        method: z.enum(PAYMENT_METHODS),
        total_cents: positiveCents,
        period_start: instant.nullable(),
        period_end: instant.nullable(),
        paid_at: instant.nullable(),
      }),
    )
    .max(500),
  cancellation: z
    .object({ refund_cents: cents, reason: z.string(), withdrawal: z.boolean(), access_ends_at: instant.nullable(), deadline: refundDeadlineSchema })
    .nullable(),
  ended_at: instant.nullable(),
  ended_reason: z.string().nullable(),
  created_at: instant,
})
export type Subscription = z.infer<typeof subscriptionSchema>

export const subscriptionPageSchema = paginated(subscriptionSchema)

/** Stripe's page where a subscriber saves a new card (decision 0055). */
export const cardUpdateSchema = z.object({ url: z.string().url(), expires_at: instant })

import { z } from 'zod'
import { paginated } from './schemas.ts'

/**
 * The privacy answers of the provider (docs/decisions/0060-lgpd-self-service.md, "API"): the
 * consent record, who can see one's results, and what a deletion removes and keeps. Unknown extra
 * fields are ignored.
 */

const id = z.number().int().positive()
const instant = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'an instant')

export const CONSENT_DOCUMENTS = ['terms', 'privacy', 'cookies', 'marketing'] as const
export type ConsentDocument = (typeof CONSENT_DOCUMENTS)[number]

export const consentRecordSchema = z.object({
  id,
  document: z.enum(CONSENT_DOCUMENTS),
  version: z.string(),
  granted: z.boolean(),
  source: z.string(),
  categories: z.object({ preferences: z.boolean(), analytics: z.boolean(), marketing: z.boolean() }).nullable(),
  recorded_at: instant,
})
export type ConsentRecord = z.infer<typeof consentRecordSchema>

export const consentsSchema = z.object({
  current: z.object({
    terms: consentRecordSchema.nullable(),
    privacy: consentRecordSchema.nullable(),
    cookies: consentRecordSchema.nullable(),
    marketing: consentRecordSchema.nullable(),
  }),
  history: paginated(consentRecordSchema),
})
export type Consents = z.infer<typeof consentsSchema>

const resultViewerSchema = z.object({
  professional: z.object({
    id,
    first_name: z.string(),
    last_name: z.string(),
    photo: z.string().nullable().optional().transform((value) => value ?? null),
    profession: z.string().nullable().optional().transform((value) => value ?? ''),
  }),
  results: z.array(z.object({ id, submitted_at: instant, shared_at: instant })),
  care_link_since: instant.nullable(),
})
export type ResultViewer = z.infer<typeof resultViewerSchema>
export const resultViewersSchema = z.array(resultViewerSchema)

export const KEPT_ITEMS = ['payment_records', 'consent_records', 'marketing_records', 'technical_logs', 'anonymised_records', 'conversations'] as const
export type KeptItem = (typeof KEPT_ITEMS)[number]

export const deletionPlanSchema = z.object({
  requires_password: z.boolean(),
  removed_now: z.array(z.string()),
  // How many of an item go, where the provider says (the files sent in messages, decision 0086).
  removed_counts: z.record(z.string(), z.number().int().nonnegative()).default({}),
  cancelled_now: z.object({
    appointments: z.number().int().nonnegative(),
    live_subscriptions: z.number().int().nonnegative(),
    upcoming: z.array(
      z.object({
        id,
        start_time: instant,
        status: z.string(),
        role: z.enum(['patient', 'professional']),
        refund: z.enum(['full', 'none']),
        refund_cents: z.number().int().nonnegative(),
        credit_returned: z.boolean(),
      }),
    ),
  }),
  // An item this app does not know yet is left out rather than failing the page.
  kept: z.array(z.object({ what: z.string(), basis: z.string(), until: z.string().nullable(), count: z.number().int().nonnegative().optional() })),
})
export type DeletionPlan = z.infer<typeof deletionPlanSchema>

export const deletionAnswerSchema = z.object({ detail: z.string() })

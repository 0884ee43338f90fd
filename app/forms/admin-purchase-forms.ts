import { z } from 'zod'

/**
 * An admin's refund of a purchase (decision 0061): the reason is required, 1 to 500 characters
 * (the audit log's bound), and recorded with the refund. Used by the server and, deferred, the
 * browser (forms/form-validation.ts).
 */
export const REFUND_REASON_MAX_LENGTH = 500

export const adminRefundSchema = z.object({
  reason: z
    .string({ error: 'errors.required' })
    .trim()
    .min(1, { error: 'errors.required' })
    .max(REFUND_REASON_MAX_LENGTH, { error: 'validation.tooLong' }),
})

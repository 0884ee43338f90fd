import { and, asc, eq, sql } from 'drizzle-orm'
import type { Database, Writer } from '#server/db/client.ts'
import { SYSTEM_ACTOR } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import { auditLog } from '#server/db/schema.ts'
import type { PurchaseRow } from '#server/purchases/repository.ts'
import { MISMATCH_REASONS, type MismatchReason, type PaymentMismatch } from '#server/purchases/statuses.ts'

/**
 * Payments Stripe spoke of that did not fit their purchase (decision 0074): another or an unknown
 * PaymentIntent, another amount or currency. Nothing was granted; each is kept for the admins as
 * the provider's own entry in the audit log (decision 0059: actor `system`, the purchase its
 * target, the buyer its subject), which the audit page lists and the admin's page of the purchase
 * marks. No table of its own: the audit log is where the admins already look for what happened.
 */

const MISMATCH_ACTION = 'purchase.payment_mismatch'

/**
 * Records a mismatch in the transaction that decided it, once per purchase, PaymentIntent and
 * reason: the redelivered event, the next refresh or reconciliation finds it written (the purchase
 * is locked, so two processes do not both write it).
 */
export async function recordMismatch(tx: Writer, purchase: Pick<PurchaseRow, 'id' | 'userId'>, mismatch: PaymentMismatch, { eventId, now }: { eventId: string | null; now: number }): Promise<void> {
  const [known] = await tx
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, MISMATCH_ACTION),
        eq(auditLog.targetType, 'purchase'),
        eq(auditLog.targetId, String(purchase.id)),
        sql`${auditLog.after} ->> 'payment_intent_id' = ${mismatch.paymentIntentId}`,
        sql`${auditLog.after} ->> 'reason' = ${mismatch.reason}`,
      ),
    )
    .limit(1)
  if (known) return
  await recordAudit(tx, {
    ...SYSTEM_ACTOR,
    action: MISMATCH_ACTION,
    targetType: 'purchase',
    targetId: purchase.id,
    subjectUserId: purchase.userId,
    after: {
      reason: mismatch.reason,
      payment_intent_id: mismatch.paymentIntentId,
      amount_cents: mismatch.amountCents,
      currency: mismatch.currency,
      expected_cents: mismatch.expectedCents,
      stripe_event_id: eventId,
    },
    at: now,
  })
}

export type RecordedMismatch = PaymentMismatch & { at: Date; stripeEventId: string | null }

/** A purchase's mismatches, oldest first (the admin's page of the purchase). */
export async function mismatchesOf(db: Pick<Database, 'select'>, purchaseId: number): Promise<RecordedMismatch[]> {
  const rows = await db
    .select({ at: auditLog.at, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.action, MISMATCH_ACTION), eq(auditLog.targetType, 'purchase'), eq(auditLog.targetId, String(purchaseId))))
    .orderBy(asc(auditLog.at), asc(auditLog.id))
  return rows.flatMap(({ at, after }) => {
    const fields = after ?? {}
    const reason = fields.reason as MismatchReason
    if (!MISMATCH_REASONS.includes(reason)) return []
    return [
      {
        at,
        reason,
        paymentIntentId: String(fields.payment_intent_id ?? ''),
        amountCents: Number(fields.amount_cents ?? 0),
        currency: String(fields.currency ?? ''),
        expectedCents: Number(fields.expected_cents ?? 0),
        stripeEventId: typeof fields.stripe_event_id === 'string' ? fields.stripe_event_id : null,
      },
    ]
  })
}

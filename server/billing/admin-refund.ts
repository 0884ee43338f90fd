import { actorOf, changedFields } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import { apiError, ApiError, notFound } from '#server/http/errors.ts'
import type { Services } from '#server/services.ts'
import { adminRefundEntries } from '#server/purchases/admin-queries.ts'
import { cancelPurchase, type CancellationRecorder } from '#server/billing/cancellation.ts'
import { findPurchase, type PurchaseRow } from '#server/purchases/repository.ts'

/**
 * An admin refunds a purchase (issue 26, decision 0061): exactly what the terms give now, through
 * the buyer's own cancellation (billing/cancellation.ts cancelPurchase: the same quote, the same refund row
 * sent to Stripe, the same end of access, the same e-mail once Stripe made it), with the reason
 * recorded in the audit log in the transaction that refunds. Never more than the terms: past the
 * 7 days a course gives nothing back (409 nothing_to_refund), whoever asks.
 *
 * Idempotent through the purchase's state: the same refund asked again (a second click, a lost
 * answer) finds the purchase refunded by an admin with the same reason and answers it as it is.
 */

const REFUND_ACTION = 'purchase.refund'

const conflict = (detail: string, code: string) => apiError(409, detail, { code })

/** Whether the purchase is already refunded by an admin for this very reason (a repeat of that refund). */
async function isRepeat(services: Services, purchase: PurchaseRow, reason: string): Promise<boolean> {
  if (purchase.status !== 'refunded') return false
  const last = (await adminRefundEntries(services.db, purchase.id)).at(-1)
  return last !== undefined && last.reason === reason
}

export async function refundAsAdmin(services: Services, caller: Caller, purchaseId: number, reason: string): Promise<PurchaseRow> {
  const { db } = services
  const purchase = await findPurchase(db, purchaseId)
  if (!purchase) throw notFound()
  if (await isRepeat(services, purchase, reason)) return purchase
  if (purchase.status === 'refunded') throw conflict('This purchase has already been refunded.', 'already_refunded')
  if (purchase.status !== 'paid') throw conflict(`Only a paid purchase can be refunded; this one is ${purchase.status}.`, 'not_paid')
  // A subscription's payment is refunded by cancelling the subscription (its own 7 days, decision 0052).
  if (purchase.subscriptionId !== null) throw conflict("This purchase paid a subscription's period: cancel the subscription, and its refund follows the subscription rules.", 'cancel_the_subscription')

  const record: CancellationRecorder = (tx, { before, after, refund, at }) =>
    recordAudit(tx, {
      ...actorOf(caller),
      action: REFUND_ACTION,
      targetType: 'purchase',
      targetId: purchase.id,
      subjectUserId: purchase.userId,
      ...changedFields(
        { status: before.status, refunded_cents: before.refundedCents },
        { status: after.status, refunded_cents: after.refundedCents, ...(refund && { refund_id: refund.id }) },
      ),
      reason,
      at,
    })
  try {
    // Paid: cancelPurchase refunds (a consultation's purchase is refused there: its refund is its cancellation's).
    return await cancelPurchase(services, purchase, record)
  } catch (error) {
    // The same refund sent twice at once: the other one made it.
    if (error instanceof ApiError && error.status === 409) {
      const now = await findPurchase(db, purchase.id)
      if (now && (await isRepeat(services, now, reason))) return now
    }
    throw error
  }
}

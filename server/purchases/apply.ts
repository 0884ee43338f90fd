import { confirmHeldAppointment } from '#server/appointments/holds.ts'
import type { TransitionSource } from '#server/db/schema.ts'
import { startPaidPeriod } from '#server/subscriptions/periods.ts'
import { supersededPayment, takeClaims } from '#server/purchases/claims.ts'
import { recordMismatch } from '#server/purchases/mismatches.ts'
import { cancelReplaced, type Replacements } from '#server/purchases/replacements.ts'
import { insertRefund, lockPurchase, makeGrants, recordTransition, revokeGrants, updatePurchase, type PurchaseRow, type RefundRow, type Writer } from '#server/purchases/repository.ts'
import { decide, type PaymentMismatch, type PaymentSignal } from '#server/purchases/statuses.ts'

export type Applied = {
  purchase: PurchaseRow | undefined
  /** Whether the status moved. */
  moved: boolean
  /** Refunds written now, to send to Stripe once the transaction has committed. */
  refunds: RefundRow[]
  /** The consultation this payment booked (its held time), to mirror once committed. */
  booked: number | null
  /** An event's copy that did not fit: nothing was written, Stripe is to be asked (decision 0074). */
  ask?: true
  /** A payment that did not fit, recorded for the admins: to log once committed. */
  mismatch?: PaymentMismatch
  /** The buyer's other checkouts of what this payment bought, cancelled now (decision 0076): to close at Stripe once committed. */
  replaced?: Replacements
}

/**
 * THE way what Stripe says reaches a purchase (decision 0048): the webhook, refresh-status and
 * the reconciliation all call it, inside their transaction, with the purchase locked. The status
 * change, its record, the grants or their revocation and the refunds to send are written together:
 * a crash anywhere leaves none of them, and the redelivered event (or the next reconciliation)
 * applies them all. Applying the same thing twice changes nothing (statuses.ts, the grants' unique
 * index, the refunds' unique index).
 */
export async function applySignal(tx: Writer, purchaseId: number, signal: PaymentSignal, options: ApplyOptions): Promise<Applied> {
  const purchase = await lockPurchase(tx, purchaseId)
  if (!purchase) return { purchase, moved: false, refunds: [], booked: null }
  return applySignalToLocked(tx, purchase, signal, options)
}

type ApplyOptions = { source: TransitionSource; eventId?: string | null; now: number }

/** The same, to a purchase the caller has just read locked in this transaction (the webhook's claimEventAndLock). */
export async function applySignalToLocked(tx: Writer, purchase: PurchaseRow, signal: PaymentSignal, { source, eventId = null, now }: ApplyOptions): Promise<Applied> {
  let outcome = decide(
    {
      id: purchase.id,
      status: purchase.status,
      method: purchase.method,
      paymentIntentId: purchase.stripePaymentIntentId,
      checkoutSessionId: purchase.stripeCheckoutSessionId,
      totalCents: purchase.totalCents,
      refundedCents: purchase.refundedCents,
      holdsTime: purchase.holdsTime,
      replaced: purchase.replacedByPurchaseId !== null,
    },
    signal,
  )
  if (outcome.ask) return { purchase, moved: false, refunds: [], booked: null, ask: true }
  if (outcome.mismatch) await recordMismatch(tx, purchase, outcome.mismatch, { eventId, now })
  // The courses, materials and programs this payment holds now (decision 0072); one another purchase of the buyer holds: this payment lost it, and goes back whole.
  let held: number[] = []
  if (outcome.grant && signal.kind === 'succeeded') {
    const claims = await takeClaims(tx, purchase, now)
    if (claims.refused.length > 0) outcome = await supersededPayment(tx, purchase, signal)
    else held = claims.held
  }
  const changes: Parameters<typeof updatePurchase>[2] = {}
  if (outcome.paymentIntentId !== undefined) changes.stripePaymentIntentId = outcome.paymentIntentId
  if (outcome.failure !== undefined) {
    changes.failureCode = outcome.failure?.code ?? null
    changes.failureMessage = outcome.failure?.message ?? null
  }
  if (outcome.refundedCents !== undefined) changes.refundedCents = outcome.refundedCents
  // Paid now (or paid after all, then refunded): the CHECK wants every paid purchase to say when.
  if ((outcome.to === 'paid' || outcome.to === 'refunded') && !purchase.paidAt) changes.paidAt = new Date(now)
  if (outcome.to === 'paid' || outcome.to === 'refunded') Object.assign(changes, { pixData: null, checkoutUrl: null })

  let updated = purchase
  // A payment's grants are written with its transition, in the same statement.
  const to = outcome.to !== purchase.status ? outcome.to : undefined
  if (to) updated = await recordTransition(tx, purchase, to, { source, eventId, now, changes, grants: outcome.grant })
  else if (Object.keys(changes).length > 0) updated = await updatePurchase(tx, purchase.id, changes, now)

  let booked: number | null = null
  const lateRefunds: RefundRow[] = []
  if (outcome.grant) {
    if (!to) await makeGrants(tx, updated, now)
    if (purchase.holdsTime) booked = await confirmHeldAppointment(tx, purchase.id, new Date(now))
    // A subscription's period starts with its payment (decision 0052); one over meanwhile gives the money back.
    if (purchase.subscriptionId !== null && (await startPaidPeriod(tx, updated, now)).late && updated.stripePaymentIntentId && updated.status === 'paid') {
      const refund = await insertRefund(tx, { purchaseId: updated.id, paymentIntentId: updated.stripePaymentIntentId, amountCents: updated.totalCents, reason: 'late_payment' }, now)
      if (refund) lateRefunds.push(refund)
      updated = await recordTransition(tx, updated, 'refunded', { source, eventId, now, changes: { refundedCents: updated.totalCents } })
    }
  }
  if (outcome.revoke) await revokeGrants(tx, purchase.id, now)
  const refunds: RefundRow[] = [...lateRefunds]
  if (outcome.refund && outcome.refund.amountCents > 0) {
    const refund = await insertRefund(tx, { purchaseId: purchase.id, ...outcome.refund }, now)
    if (refund) refunds.push(refund)
  }
  // Paid, it owns them now: the buyer's other checkouts of them are cancelled with it (decision 0076).
  const replaced = held.length > 0 && updated.status === 'paid' ? await cancelReplaced(tx, updated, held, { eventId, now }) : undefined
  return {
    purchase: updated,
    moved: updated.status !== purchase.status,
    refunds,
    booked,
    ...(outcome.mismatch && { mismatch: outcome.mismatch }),
    ...(replaced && (replaced.cancelled.length > 0 || replaced.busy.length > 0) && { replaced }),
  }
}

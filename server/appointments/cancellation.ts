import { mirrorAppointmentLater } from '#server/calendar/appointment-events.ts'
import type { Writer } from '#server/db/client.ts'
import type { CancelledBy } from '#server/db/schema.ts'
import type { MailLimits, QueuedMail } from '#server/mail/outbox.ts'
import { sendRefunds } from '#server/purchases/refunds.ts'
import { insertRefund, lockPurchase, recordTransition, returnCredit, type RefundRow } from '#server/purchases/repository.ts'
import type { Services } from '#server/services.ts'
import { cancellationQuote } from '#server/appointments/paid.ts'
import { cancelScheduledMessages, logDroppedMail, queueAppointmentNotice } from '#server/appointments/reminders.ts'
import { updateOpenAppointment, type AppointmentRow, type AppointmentView } from '#server/appointments/repository.ts'

const HOUR = 60 * 60_000
/** A patient's cancellation at least this long before the start is refunded in full (docs/product.md §9). */
const FULL_REFUND_NOTICE_MS = 24 * HOUR

/** A cancellation written in a transaction: the appointment as it is now, and what is left to do once it commits. */
export type Cancelled = { row: AppointmentRow; notices: QueuedMail[]; refunds: RefundRow[] }

/**
 * Cancels an open appointment (not closed, not started) as `by`, inside the caller's transaction,
 * under the terms (docs/product.md §9, decisions 0044 and 0051): a paid consultation is refunded
 * (or its credit returned) per quoteRefund; a free one records the same rule: in full when the
 * patient cancels 24 h or more ahead, and always when the professional or an admin does. Its
 * reminders are cancelled and both people told, once; what it cost comes back (the refund row is
 * written here, sent to Stripe by afterCancellations once committed). `causedBy`: whose hourly
 * mail bound the notices count against (null: nobody's). Undefined when it was no longer open.
 *
 * Used by the appointment's own cancel (booking/cancel.ts), a revoked accreditation
 * (professionals/accreditation.ts) and an account's deletion (privacy/deletion.ts).
 */
export async function cancelOpenAppointment(
  tx: Writer,
  view: AppointmentView,
  { by, reason, causedBy, now }: { by: CancelledBy; reason: string; causedBy: number | null; now: number },
  { appPublicUrl, mail }: { appPublicUrl: string; mail: MailLimits },
): Promise<Cancelled | undefined> {
  const { appointment } = view
  const quote = cancellationQuote(view, by, now)
  const ahead = appointment.startTime.getTime() - now
  const full = quote ? quote.refundCents > 0 || quote.creditReturned : by !== 'patient' || ahead >= FULL_REFUND_NOTICE_MS
  const row = await updateOpenAppointment(tx, appointment.id, new Date(now), {
    status: 'cancelled',
    cancelledAt: new Date(now),
    cancelledBy: by,
    cancellationReason: reason,
    refund: full ? 'full' : 'none',
  })
  if (!row) return undefined
  await cancelScheduledMessages(tx, appointment.id, new Date(now))
  const notices = await queueAppointmentNotice(tx, { kind: 'cancelled', appointmentId: appointment.id, now: new Date(now), appPublicUrl, causedBy, mail })
  const refunds: RefundRow[] = []
  if (quote?.creditReturned && row.creditId !== null) await returnCredit(tx, row.creditId, new Date(now))
  if (quote && quote.refundCents > 0 && row.purchaseId !== null) {
    const purchase = await lockPurchase(tx, row.purchaseId)
    if (purchase?.status === 'paid' && purchase.stripePaymentIntentId) {
      const written = await insertRefund(tx, { purchaseId: purchase.id, paymentIntentId: purchase.stripePaymentIntentId, amountCents: quote.refundCents, reason: 'cancel' }, now)
      if (written) refunds.push(written)
      await recordTransition(tx, purchase, 'refunded', { source: 'cancel', now, changes: { refundedCents: quote.refundCents } })
    }
  }
  return { row, notices, refunds }
}

/** What follows committed cancellations: dropped mail logged, the calendars mirrored, the refunds sent to Stripe. */
export async function afterCancellations(services: Services, cancelled: readonly Cancelled[]): Promise<void> {
  for (const { row, notices } of cancelled) {
    logDroppedMail(services.log, notices)
    mirrorAppointmentLater(services, row.id)
  }
  await sendRefunds(
    services,
    cancelled.flatMap((done) => done.refunds),
  )
}

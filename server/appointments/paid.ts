import type { CancelledBy } from '#server/db/schema.ts'
import { quoteRefund, type RefundQuote } from '#server/purchases/refund-rules.ts'
import { serializeDeadline } from '#server/purchases/serializers.ts'
import type { AppointmentView } from '#server/appointments/repository.ts'

/**
 * What cancelling a paid consultation gives back (docs/product.md §9, decisions 0044 and 0051):
 * the rule of quoteRefund for a consultation, paid by its own purchase or with a package's credit.
 * Pure: the appointment's page shows it before the cancel, and the cancel then does exactly that.
 * Null when there is nothing paid to give back (a free consultation, a held time not yet paid).
 */
export function cancellationQuote(view: AppointmentView, by: CancelledBy, at: number): RefundQuote | null {
  const { appointment, purchase, credit } = view
  const startsAt = appointment.startTime.getTime()
  if (appointment.creditId !== null && credit?.packagePaidAt) {
    return quoteRefund({ kind: 'consultation', payment: { method: 'package_credit', packagePaidAt: Math.min(credit.packagePaidAt.getTime(), at) }, startsAt, cancelledBy: by }, at)
  }
  if (purchase?.status === 'paid' && purchase.paidAt) {
    const payment = { method: purchase.method, paidAt: Math.min(purchase.paidAt.getTime(), at), amountCents: purchase.totalCents }
    return quoteRefund({ kind: 'consultation', payment, startsAt, cancelledBy: by }, at)
  }
  return null
}

/** The quote as the appointment's JSON shows it. */
export function serializeCancellationQuote(quote: RefundQuote) {
  return { refund_cents: quote.refundCents, reason: quote.reason, credit_returned: quote.creditReturned, deadline: serializeDeadline(quote.deadline) }
}

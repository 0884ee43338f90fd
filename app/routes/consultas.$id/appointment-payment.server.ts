import { type TFunction } from 'i18next'
import { type Canceller, formatPrice, formatTime } from '#app/domain/appointments.ts'
import { type Language } from '#app/i18n/config.ts'
import { type Appointment } from '#app/provider/appointment-schemas.ts'
import { calendarDate } from '#app/features/purchases/purchase.server.ts'

/**
 * A paid consultation on its page (docs/product.md §9, decision 0051): its price as booked, how it
 * is paid and where that stands (while its time is held: until when, and the way to pay), and what
 * cancelling it now gives back, as the provider quotes it for whoever is reading.
 */

type Options = { language: Language; patientZone: string; t: TFunction }

/** The price, the payment's line and, while the time is held, where to pay; a free consultation has none. */
export function paymentFacts(appointment: Appointment, { language, patientZone, t }: Options) {
  const payment = appointment.payment
  const price = appointment.price_cents !== null && appointment.price_cents > 0 ? formatPrice(appointment.price_cents, language) : null
  if (!payment) return { price, line: null, payAt: null, purchaseId: null }
  const held = appointment.status === 'awaiting_payment'
  const line =
    payment.kind === 'credit'
      ? t('appointments:payment.paidWithCredit')
      : held
        ? t('appointments:payment.awaiting', { time: payment.hold_expires_at ? formatTime(payment.hold_expires_at, patientZone, language) : '' })
        : payment.status === 'paid'
          ? t(`appointments:payment.paid.${payment.method ?? 'pix'}`)
          : payment.status === 'refunded'
            ? t('appointments:payment.refunded')
            : t('appointments:payment.notPaid')
  // A card pays on the payment service's page; PIX, with the code on the purchase's page.
  const payAt = held ? (payment.checkout_url ?? (payment.purchase_id ? `/compras/${payment.purchase_id}` : null)) : null
  return { price, line, payAt, purchaseId: payment.purchase_id }
}

/**
 * What the confirmation of a cancellation says. A time held for its payment is released and nothing
 * is charged; a paid one follows the provider's quote (a credit back, an amount and by when it
 * arrives, or nothing); a free one, the booking pages' rule (`fallback`).
 */
export function cancellationTerms(appointment: Appointment, canceller: Canceller, { language, t }: Omit<Options, 'patientZone'>, fallback: () => string[]): string[] {
  if (appointment.status === 'awaiting_payment') return [t('appointments:cancel.releaseHeld')]
  const quote = appointment.cancellation
  if (!quote) return fallback()
  const patient = canceller === 'patient'
  if (quote.credit_returned) return [t(patient ? 'appointments:cancel.creditBack' : 'appointments:cancel.creditBackOther')]
  if (quote.refund_cents === 0) return [t('appointments:cancel.lateNotice'), t('appointments:terms.late')]
  const amount = formatPrice(quote.refund_cents, language)
  const deadline = quote.deadline
  const when = !deadline
    ? []
    : deadline.method === 'card'
      ? [t('orders:purchase.deadline.card', { count: deadline.billing_cycles ?? 2 })]
      : [t('orders:purchase.deadline.pix', { count: deadline.business_days ?? 3, date: deadline.date ? calendarDate(deadline.date, language) : '' })]
  return [t(patient ? 'appointments:cancel.refundAmount' : 'appointments:cancel.refundAmountOther', { amount }), ...when]
}

import { releaseHeldAppointment } from '#server/appointments/holds.ts'
import { ENDED_UNPAID, recordTransition, type PurchaseRow, type Writer } from '#server/purchases/repository.ts'
import { periodPurchaseEnded } from '#server/subscriptions/periods.ts'

/**
 * A purchase's status change with what it pays for beyond its products, in the same transaction:
 * ending unpaid (failed, expired, cancelled), whichever path ended it (Stripe's news, a cancel,
 * the tick's expiry, a payment that could not start), it releases the consultation time it held
 * (decision 0051) and ends the subscription its first payment was to start (decision 0052); paid,
 * applySignal books that time and starts that period. Every path of billing/ moves a purchase
 * through here, so purchases/ knows neither appointments nor subscriptions. The two moves made
 * outside it cannot end one unpaid: a consultation's refund (appointments/cancellation.ts, to
 * refunded) and a checkout cancelled for another purchase (purchases/replacements.ts), which holds
 * one-time products only: no time, no period.
 */
export async function movePurchase(tx: Writer, purchase: Pick<PurchaseRow, 'id' | 'status' | 'subscriptionId'>, to: PurchaseRow['status'], options: Parameters<typeof recordTransition>[3]): Promise<PurchaseRow> {
  const moved = await recordTransition(tx, purchase, to, options)
  if (ENDED_UNPAID.includes(to)) {
    await releaseHeldAppointment(tx, purchase.id, new Date(options.now))
    await periodPurchaseEnded(tx, purchase, options.now)
  }
  return moved
}

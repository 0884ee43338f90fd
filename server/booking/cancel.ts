import { closedReason } from '#server/appointments/access.ts'
import { adminCancelEntry } from '#server/appointments/admin-audit.ts'
import { afterCancellations, cancelOpenAppointment } from '#server/appointments/cancellation.ts'
import { findAppointmentView, type AppointmentView } from '#server/appointments/repository.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import { cancelPurchase } from '#server/billing/cancellation.ts'
import type { CancelledBy } from '#server/db/schema.ts'
import { apiError } from '#server/http/errors.ts'
import { findPurchase } from '#server/purchases/repository.ts'
import type { Services } from '#server/services.ts'

/**
 * Cancels an open appointment for one of its people (`relation`). A time held for a payment not
 * made: the payment is cancelled at Stripe, which releases the time. Otherwise the terms
 * (docs/product.md §9, decisions 0044 and 0051) decide the refund; both people are told and what
 * it cost comes back, in one transaction (appointments/cancellation.ts). An admin's cancel is audited.
 */
export async function cancelAppointment(services: Services, caller: Caller, { view, relation }: { view: AppointmentView; relation: CancelledBy }, reason: string): Promise<void> {
  const { db, clock, config } = services
  const { appointment } = view
  const now = clock()
  const closed = closedReason(appointment, now)
  if (closed) throw apiError(400, closed)
  if (appointment.status === 'awaiting_payment') {
    const purchase = (await findPurchase(db, appointment.purchaseId!))!
    await cancelPurchase(services, purchase, relation === 'admin' ? (tx, { at }) => recordAudit(tx, adminCancelEntry(caller, appointment, { reason, refund: null, at })) : undefined)
    return
  }
  const cancelled = await db.transaction(async (tx) => {
    const done = await cancelOpenAppointment(tx, view, { by: relation, reason, causedBy: caller.user.id, now }, { appPublicUrl: config.appPublicUrl, mail: config.mail })
    if (done && relation === 'admin') await recordAudit(tx, adminCancelEntry(caller, appointment, { reason, refund: done.row.refund, at: now }))
    return done
  })
  if (!cancelled) throw apiError(400, closedReason((await findAppointmentView(db, appointment.id))!.appointment, now) ?? 'This appointment is already cancelled.')
  await afterCancellations(services, [cancelled])
}

import { and, eq } from 'drizzle-orm'
import type { Writer } from '#server/db/client.ts'
import { appointments } from '#server/db/schema.ts'
import { scheduleBookingMessages } from '#server/appointments/reminders.ts'

/**
 * A paid consultation's time held while its payment is open (decision 0051). The appointment is
 * `awaiting_payment` from the booking: the exclusion constraint keeps its time from anyone else,
 * no message or calendar event is made yet. The purchase that pays it moves it, in the transaction
 * that moves the purchase (purchases/repository.ts, recordTransition): paid, it is booked (its
 * confirmation and reminders scheduled as for any booking); failed, expired or cancelled unpaid,
 * its time is released.
 */

/** Why a held time was released: the appointment's cancellation reason (never shown as someone's words). */
export const HOLD_RELEASED_REASON = 'payment_not_completed'

/** The held appointment of a purchase just paid, booked now; its id, or null when there was none held. */
export async function confirmHeldAppointment(tx: Writer, purchaseId: number, now: Date): Promise<number | null> {
  const [row] = await tx
    .update(appointments)
    .set({ status: 'scheduled', holdExpiresAt: null, updatedAt: now })
    .where(and(eq(appointments.purchaseId, purchaseId), eq(appointments.status, 'awaiting_payment')))
    .returning()
  if (!row) return null
  await scheduleBookingMessages(tx, row, now)
  return row.id
}

/** Frees the time a purchase held, when the purchase ends unpaid; its id, or null when none was held. */
export async function releaseHeldAppointment(tx: Writer, purchaseId: number, now: Date): Promise<number | null> {
  const [row] = await tx
    .update(appointments)
    .set({ status: 'cancelled', holdExpiresAt: null, cancelledAt: now, cancellationReason: HOLD_RELEASED_REASON, updatedAt: now })
    .where(and(eq(appointments.purchaseId, purchaseId), eq(appointments.status, 'awaiting_payment')))
    .returning({ id: appointments.id })
  return row?.id ?? null
}

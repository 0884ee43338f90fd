import { closedReason, AWAITING_PAYMENT } from '#server/appointments/access.ts'
import { adminMoveEntry } from '#server/appointments/admin-audit.ts'
import { findAppointmentView, findBookableProfessional, lockBookingsOf, updateOpenAppointment, type AppointmentRow, type AppointmentView } from '#server/appointments/repository.ts'
import { logDroppedMail, moveScheduledMessages, queueAppointmentNotice } from '#server/appointments/reminders.ts'
import { rulesOf } from '#server/appointments/schedule.ts'
import { checkStart, NO_OVERLAP_CONSTRAINT, SLOT_TAKEN, slotTaken } from '#server/appointments/start-checks.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import { mirrorAppointmentLater } from '#server/calendar/appointment-events.ts'
import { isExclusionViolation } from '#server/db/errors.ts'
import type { CancelledBy } from '#server/db/schema.ts'
import { apiError } from '#server/http/errors.ts'
import type { QueuedMail } from '#server/mail/outbox.ts'
import type { Services } from '#server/services.ts'

const MINUTE = 60_000

export type RescheduleInput = { start_time: number; notes?: string; idempotency_key?: string }

/**
 * Moves an open appointment to a new start, for its patient or an admin (`relation`): the time
 * checked as a booking's, the move decided under the professional's lock and the database's
 * overlap rule, the reminders moved and both people told in the same transaction. Answers the
 * appointment as it is now; a reschedule with the key that already moved it moves nothing.
 */
export async function rescheduleAppointment(services: Services, caller: Caller, { view, relation }: { view: AppointmentView; relation: CancelledBy }, input: RescheduleInput): Promise<AppointmentView> {
  const { db, clock, config } = services
  const { appointment } = view
  const key = input.idempotency_key
  const closed = closedReason(appointment, clock())
  if (closed) throw apiError(400, closed)
  if (appointment.status === 'awaiting_payment') throw apiError(400, AWAITING_PAYMENT)
  const found = await findBookableProfessional(db, appointment.professionalId)
  if (!found) throw apiError(400, 'This professional is not taking appointments.')
  const rules = rulesOf(found.profile)
  await checkStart(services, appointment.professionalId, rules, input.start_time, appointment.id)

  const end = input.start_time + rules.consultationMinutes * MINUTE
  let updated: AppointmentRow | undefined
  let notices: QueuedMail[] = []
  try {
    const now = new Date(clock())
    const newStart = new Date(input.start_time)
    updated = await db.transaction(async (tx) => {
      await lockBookingsOf(tx, appointment.professionalId)
      const row = await updateOpenAppointment(tx, appointment.id, now, {
        startTime: newStart,
        endTime: new Date(end),
        blockedUntil: new Date(end + rules.bufferMinutes * MINUTE),
        status: 'scheduled',
        ...(input.notes !== undefined && { notes: input.notes }),
        ...(key !== undefined && { rescheduleKey: key }),
      })
      // Moved: the reminders follow, and both people hear of it (in this transaction: once).
      if (row && row.startTime.getTime() !== appointment.startTime.getTime()) {
        await moveScheduledMessages(tx, appointment.id, newStart, now)
        notices = await queueAppointmentNotice(tx, {
          kind: 'moved',
          appointmentId: appointment.id,
          previousStart: appointment.startTime,
          now,
          appPublicUrl: config.appPublicUrl,
          causedBy: caller.user.id,
          mail: config.mail,
        })
        if (relation === 'admin') await recordAudit(tx, adminMoveEntry(caller, appointment, row, now.getTime()))
      }
      return row
    })
  } catch (error) {
    if (isExclusionViolation(error, NO_OVERLAP_CONSTRAINT)) throw await slotTaken(services, appointment.professionalId, rules, input.start_time, appointment.id)
    throw error
  }
  const reread = async () => (await findAppointmentView(db, appointment.id))!
  if (!updated) {
    const current = await reread()
    // The same reschedule, sent twice at once: the other one moved it.
    if (key !== undefined && current.appointment.rescheduleKey === key) return current
    // Cancelled (or started) while we looked: say so, as if it had happened before.
    throw apiError(400, closedReason(current.appointment, clock()) ?? SLOT_TAKEN)
  }
  logDroppedMail(services.log, notices)
  mirrorAppointmentLater(services, appointment.id)
  return reread()
}

import { actorOf, changedFields, type AuditEntry } from '#server/audit/entries.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import type { AppointmentRow } from '#server/appointments/repository.ts'

/**
 * The audit entries of an admin's change to someone's appointment (issue 26, decision 0061):
 * cancelling it or moving it for support, through the same endpoints and rules as its people.
 * Written in the change's own transaction; the subject is the patient.
 */

const entry = (caller: Caller, appointment: AppointmentRow, at: number) => ({
  ...actorOf(caller),
  targetType: 'appointment',
  targetId: appointment.id,
  subjectUserId: appointment.patientId,
  at,
})

/** An admin cancelled it: its status before and after, the refund the rule gave, and the reason typed (if any). */
export function adminCancelEntry(caller: Caller, appointment: AppointmentRow, { reason, refund, at }: { reason: string; refund: string | null; at: number }): AuditEntry {
  return {
    ...entry(caller, appointment, at),
    action: 'appointment.cancel',
    before: { status: appointment.status },
    after: { status: 'cancelled', ...(refund !== null && { refund }) },
    reason,
  }
}

/** An admin moved it: its start (and its status, when a confirmed one went back to scheduled) before and after. */
export function adminMoveEntry(caller: Caller, appointment: AppointmentRow, moved: AppointmentRow, at: number): AuditEntry {
  return {
    ...entry(caller, appointment, at),
    action: 'appointment.move',
    ...changedFields({ start_time: appointment.startTime.toISOString(), status: appointment.status }, { start_time: moved.startTime.toISOString(), status: moved.status }),
  }
}

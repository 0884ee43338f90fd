import { roleOf, type Caller } from '#server/auth/authenticate.ts'
import type { CancelledBy } from '#server/db/schema.ts'
import type { AppointmentRow } from '#server/appointments/repository.ts'

/** Who the caller is to an appointment: its patient, its professional, an admin, or nobody. */
export function relationTo(caller: Caller, appointment: AppointmentRow): CancelledBy | undefined {
  if (appointment.patientId === caller.user.id) return 'patient'
  if (appointment.professionalId === caller.user.id) return 'professional'
  if (roleOf(caller.groups) === 'admin') return 'admin'
  return undefined
}

/** Why an appointment can no longer be moved or cancelled, if it cannot. */
export function closedReason(appointment: AppointmentRow, now: number): string | undefined {
  if (appointment.status === 'cancelled') return 'This appointment is already cancelled.'
  if (appointment.status === 'completed' || appointment.status === 'no_show') return 'This appointment has already taken place.'
  if (appointment.startTime.getTime() <= now) return 'This appointment has already started.'
  return undefined
}

/** The refusal of a change to a time held for its payment (decision 0051). */
export const AWAITING_PAYMENT = 'This appointment is held for its payment: it can change once it is paid.'

import { freeTimes, isClear, nearestFree, startTimeProblem, type Booking, type BusyInterval, type DateException, type ScheduleRules } from '#server/appointments/free-times.ts'
import { bookingRulesOf } from '#server/appointments/repository.ts'
import { busyIntervalsOf } from '#server/calendar/busy-time.ts'
import { apiError, fieldError } from '#server/http/errors.ts'
import type { Services } from '#server/services.ts'

export const SLOT_TAKEN = 'This time is no longer available.'
/** The exclusion constraint that keeps two bookings of one professional apart, whatever process writes them. */
export const NO_OVERLAP_CONSTRAINT = 'appointments_no_overlap'

type Checks = Pick<Services, 'db' | 'clock'>

/** What the free-time rules need about one professional, read now. */
async function bookingContext({ db }: Checks, professionalId: number, now: number): Promise<{ exceptions: DateException[]; booked: Booking[]; busy: BusyInterval[] }> {
  const { exceptions, booked, events } = await bookingRulesOf(db, professionalId, now)
  return { exceptions, booked, busy: busyIntervalsOf(events) }
}

/** The 409 for a taken time, with the free times nearest to it (read again: the table just changed). */
export async function slotTaken(services: Checks, professionalId: number, rules: ScheduleRules, start: number, ignoreAppointmentId?: number) {
  const now = services.clock()
  const { exceptions, booked, busy } = await bookingContext(services, professionalId, now)
  const free = freeTimes({ schedule: rules, exceptions, booked, busy, now, ignoreAppointmentId })
  return apiError(409, SLOT_TAKEN, { code: 'slot_taken', nearest: nearestFree(start, free, 3).map((time) => new Date(time).toISOString()) })
}

/** Checks a start against the rules and the bookings; throws the field error or the 409. */
export async function checkStart(services: Checks, professionalId: number, rules: ScheduleRules, start: number, ignoreAppointmentId?: number): Promise<void> {
  const now = services.clock()
  const { exceptions, booked, busy } = await bookingContext(services, professionalId, now)
  const problem = startTimeProblem(rules, exceptions, now, start)
  if (problem) throw fieldError('start_time', problem)
  if (!isClear(rules, booked, start, ignoreAppointmentId, busy)) throw await slotTaken(services, professionalId, rules, start, ignoreAppointmentId)
}

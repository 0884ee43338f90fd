import { z } from 'zod'
import { type ConsultationPayment } from '#app/domain/consultation-payment.ts'
import { ProviderError } from './errors.ts'
import { type SignedInCaller } from './fetch.server.ts'
import {
  type AppointmentStatus,
  appointmentPageSchema,
  appointmentSchema,
  availabilitySchema,
  bookableProfessionalSchema,
  consultationSchema,
  professionalDashboardSchema,
} from './appointment-schemas.ts'
import { paginated } from './schemas.ts'

/**
 * One function per endpoint of docs/decisions/0023-appointments-api.md (the professional's
 * schedule, current-schedule and update-schedule, is in schedule.server.ts).
 */

// Built once (zod compiles each schema it builds). The directory may come plain or DRF-paginated.
const directorySchema = z.union([z.array(bookableProfessionalSchema), paginated(bookableProfessionalSchema).transform((page) => page.results)])

/** The accredited professionals, by name; `pillar` filters. */
export const listBookableProfessionals = (auth: SignedInCaller, pillar?: string) =>
  auth.call('/appointments/professionals/', directorySchema, { query: { pillar } })

/**
 * Free times of one professional; the provider clips the window to its notice and horizon. With
 * `timeZone`, it answers the dates with free times in that zone and only `date`'s times (or the
 * first date's).
 */
export const getAvailability = (
  auth: SignedInCaller,
  professionalId: number,
  window: { start?: string; end?: string } = {},
  byDate: { timeZone?: string; date?: string } = {},
) =>
  auth.call('/appointments/calendar/availability/', availabilitySchema, {
    query: { professional_id: professionalId, start: window.start, end: window.end, time_zone: byDate.timeZone, date: byDate.date },
  })

/** Books; the same `idempotency_key` again answers the same appointment (decision 0034), never a second one. */
export const createAppointment = (
  auth: SignedInCaller,
  body: { professional_id: number; start_time: string; notes: string; idempotency_key?: string; payment?: ConsultationPayment; success_url?: string; cancel_url?: string },
) =>
  auth.call('/appointments/create/', appointmentSchema, { method: 'POST', json: body })

/** The patient's appointment booked with this idempotency key (a booking whose answer was lost), or null. */
export async function findAppointmentByKey(auth: SignedInCaller, key: string) {
  try {
    return await auth.call('/appointments/by-idempotency-key/', appointmentSchema, { query: { key } })
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null
    throw error
  }
}

/** A page of the caller's appointments (`page` a number or 'last'; `pageSize` the provider's 20 unless given). */
/** `professional`: an admin's view of one professional's schedule, for support (decision 0061). */
export const listAppointments = (auth: SignedInCaller, when: 'upcoming' | 'past', page: number | 'last' = 1, pageSize?: number, { professional }: { professional?: number } = {}) =>
  auth.call('/appointments/', appointmentPageSchema, { query: { when, page: page === 1 ? undefined : page, page_size: pageSize, professional } })

export const getAppointment = (auth: SignedInCaller, id: number) => auth.call(`/appointments/${id}/`, appointmentSchema)

/** Reschedules (its own old time counts as free); the status goes back to scheduled. The same `idempotency_key` again changes nothing. */
export const updateAppointment = (auth: SignedInCaller, id: number, body: { start_time: string; notes?: string; idempotency_key?: string }) =>
  auth.call(`/appointments/${id}/update/`, appointmentSchema, { method: 'PATCH', json: body })

export const cancelAppointment = (auth: SignedInCaller, id: number, reason?: string) =>
  auth.call(`/appointments/${id}/cancel/`, appointmentSchema, { method: 'POST', json: reason ? { reason } : {} })

export const setAppointmentStatus = (auth: SignedInCaller, id: number, body: { status?: Exclude<AppointmentStatus, 'scheduled' | 'cancelled'>; shared_notes?: string; private_notes?: string }) =>
  auth.call(`/appointments/${id}/status/`, appointmentSchema, { method: 'PATCH', json: body })

export const getConsultation = (auth: SignedInCaller, id: number) => auth.call(`/appointments/${id}/consultation/`, consultationSchema)

export const getProfessionalDashboard = (auth: SignedInCaller, query: { start?: string; days?: number } = {}) =>
  auth.call('/appointments/dashboard/', professionalDashboardSchema, { query })

import { z } from 'zod'
import { addDays, startOfLocalDay } from '#server/dates.ts'
import { APPOINTMENT_STATUSES } from '#server/db/schema.ts'
import { validationError } from '#server/http/errors.ts'
import { choiceField, dateField, idField, validate } from '#server/http/fields.ts'
import type { AppointmentFilters, AppointmentScope } from '#server/appointments/repository.ts'

/**
 * GET /appointments/'s narrower filters (issue 26, decision 0061): `professional` (an admin reading
 * one professional's schedule for support), `from` and `to` (dates in the caller's time zone, both
 * days included) and `status`. An empty value is no filter; anything malformed is a 400, DRF-style.
 */

const optional = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional())

const schema = z.object({
  professional: optional(idField()),
  from: optional(dateField()),
  to: optional(dateField()),
  status: optional(choiceField(APPOINTMENT_STATUSES)),
})

export function appointmentListFilters(query: (name: string) => string | undefined, timeZone: string): { professionalId: number | undefined; filters: AppointmentFilters } {
  const input = validate(schema, { professional: query('professional'), from: query('from'), to: query('to'), status: query('status') })
  if (input.from && input.to && input.to < input.from) throw validationError({ to: ['The end date must not be before the start date.'] })
  return {
    professionalId: input.professional,
    filters: {
      from: input.from ? new Date(startOfLocalDay(input.from, timeZone)) : undefined,
      to: input.to ? new Date(startOfLocalDay(addDays(input.to, 1), timeZone)) : undefined,
      status: input.status,
    },
  }
}

/** An admin's list: everyone's, or one professional's and/or one patient's. */
export function adminScope(professionalId: number | undefined, patientId: number | undefined): AppointmentScope {
  if (professionalId !== undefined) return { professionalId, ...(patientId !== undefined && { patientId }) }
  return patientId !== undefined ? { patientId } : 'all'
}

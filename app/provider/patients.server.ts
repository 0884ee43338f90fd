import { type z } from 'zod'
import { appointmentPageSchema } from './appointment-schemas.ts'
import { ProviderError } from './errors.ts'
import { type SignedInCaller } from './fetch.server.ts'
import { programSchema } from './program.server.ts'
import { pageOf, sharedResultSchema } from './questionnaire-schemas.ts'
import { profileSchema } from './schemas.ts'

/**
 * One patient as their professional reads them (issue 12): the profile, the appointments with
 * this professional, the latest assessment shared with them, the current program's summary.
 */

// Built once (zod compiles each schema it builds).
const sharedResultPage = pageOf(sharedResultSchema)

/** `GET /users/patients/{id}/program/`: the current program without its weekly goals. */
const patientProgramSchema = programSchema.pick({
  id: true,
  starts_on: true,
  ends_on: true,
  weeks: true,
  current_week: true,
  finished: true,
  focus_pillars: true,
  progress: true,
})
type PatientProgram = z.infer<typeof patientProgramSchema>

/** The patient's profile: 403 when they are not the professional's patient, 404 when the id is no patient's. */
export const getPatient = (auth: SignedInCaller, patientId: number) =>
  auth.call('/users/patients/', profileSchema, {
    query: { patient: patientId },
  })

/** A page of the professional's appointments with the patient (a professional sees only their own). */
export const listPatientAppointments = (auth: SignedInCaller, patientId: number, when: 'upcoming' | 'past') =>
  auth.call('/appointments/', appointmentPageSchema, {
    query: { patient: patientId, when },
  })

/** The newest assessment result the patient shared with the professional, or null when none is. */
export async function getLatestSharedResult(auth: SignedInCaller, patientId: number) {
  const page = await auth.call('/questionnaire/shared-with-me/', sharedResultPage, { query: { patient: patientId, page_size: 1 } })
  return page.results[0] ?? null
}

/** The patient's current program, or null when they have none yet (the provider's 404). */
export async function getPatientProgram(auth: SignedInCaller, patientId: number): Promise<PatientProgram | null> {
  try {
    return await auth.call(`/users/patients/${patientId}/program/`, patientProgramSchema)
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null
    throw error
  }
}

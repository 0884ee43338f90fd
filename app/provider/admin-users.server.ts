import { z } from 'zod'
import { type SignedInCaller } from './fetch.server.ts'
import { optionalUrl, text } from './schemas.ts'

/**
 * The admin console's users (issue 26, decision 0059): one user as the console reads them, an
 * admin's edit of their groups and activity, and a professional's accreditation and its revocation.
 */

/** An account as admins read it (GET and PATCH /users/{id}/). */
const adminUserSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  first_name: text(),
  last_name: text(),
  groups: z.array(z.string()),
  photo: optionalUrl(),
  is_active: z.boolean(),
  date_joined: z.string(),
  last_login: z.string().nullable().optional().transform((value) => value ?? null),
})

/** The professional profile beside an account; null for someone who never was one. */
const professionalProfileSchema = z.object({
  accredited: z.boolean(),
  profession: text(),
  registration_number: text(),
  pillars: z.array(z.string()),
  languages: z.array(z.string()),
  price_cents: z.number().int().nonnegative(),
  currency: z.literal('BRL').optional(),
  consultation_minutes: z.number().optional(),
  time_zone: z.string().optional(),
})

/** GET /admin/users/{id}/: the account, the profile, and their upcoming appointments. */
const adminUserDetailSchema = adminUserSchema.extend({
  professional: professionalProfileSchema.nullable(),
  counts: z.object({ future_appointments_as_professional: z.number(), future_appointments_as_patient: z.number() }),
})
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>

/** The revocation's answer: the detail, and what it did to the professional's future appointments. */
const revocationSchema = adminUserDetailSchema.extend({ cancelled_appointments: z.number(), released_held_times: z.number().optional().default(0) })

export const getAdminUser = (auth: SignedInCaller, id: number) => auth.call(`/admin/users/${id}/`, adminUserDetailSchema)

/** Groups or activity (deactivating ends the user's sessions at once). */
export const updateAdminUser = (auth: SignedInCaller, id: number, changes: { groups?: string[]; is_active?: boolean }) =>
  auth.call(`/users/${id}/`, adminUserSchema, { method: 'PATCH', json: changes })

type AccreditationBody = { profession: string; registration_number: string; pillars: string[]; languages: string[]; price_cents: number }

/** Accredits (or changes the accredited profile): in the directory and bookable from then on. */
export const accreditProfessional = (auth: SignedInCaller, id: number, body: AccreditationBody) =>
  auth.call(`/admin/users/${id}/accreditation/`, adminUserDetailSchema, { method: 'PUT', json: body })

/** Revokes it, the reason recorded: out of the directory, every future appointment cancelled and refunded. */
export const revokeAccreditation = (auth: SignedInCaller, id: number, reason: string) =>
  auth.call(`/admin/users/${id}/accreditation/`, revocationSchema, { method: 'DELETE', json: { reason } })

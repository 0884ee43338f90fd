import { z } from 'zod'
import { type Auth } from '#app/session/auth.server.ts'
import { paginated, passwordChangedSchema, personSchema, profileSchema, userStatsSchema } from './schemas.ts'

/** Lists may come plain or DRF-paginated; either way the app reads an array. */
const listOf = <Item extends z.ZodType>(item: Item) =>
  z.union([z.array(item), paginated(item).transform((page) => page.results)])

// Schemas are built once: building one per call costs zod's compilation on every request.
const personList = listOf(personSchema)
const personPage = paginated(personSchema)

export const getProfile = (auth: Auth) => auth.call('/users/profile/', profileSchema)

export const updateProfile = (auth: Auth, body: FormData | Record<string, unknown>) =>
  body instanceof FormData
    ? auth.call('/users/profile/update/', profileSchema, { method: 'PATCH', formData: body })
    : auth.call('/users/profile/update/', profileSchema, { method: 'PATCH', json: body })

/**
 * Changes the password. The provider ends every session issued before (this one too) and answers
 * with a new pair, which replaces the session's tokens so the user stays signed in here.
 */
export async function changePassword(auth: Auth, oldPassword: string, newPassword: string): Promise<void> {
  const answer = await auth.call('/users/change-password/', passwordChangedSchema, {
    method: 'POST',
    json: { old_password: oldPassword, new_password: newPassword },
  })
  if (answer.access && answer.refresh) auth.renewTokens({ access: answer.access, refresh: answer.refresh })
}

export const listMyPatients = (auth: Auth) => auth.call('/users/professionals/patients/', personList)

export const listProfessionals = (auth: Auth) => auth.call('/users/professionals/', personList)

export const getUserStats = (auth: Auth) => auth.call('/users/stats/', userStatsSchema)

export const listUsers = (auth: Auth, query: { search?: string; page?: number; group?: string; page_size?: number }) =>
  auth.call('/users/', personPage, { query })

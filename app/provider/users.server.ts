import { type SignedInCaller } from './fetch.server.ts'
import { z } from 'zod'
import { paginated, passwordChangedSchema, personSchema, profileSchema, userStatsSchema } from './schemas.ts'

/** Lists may come plain or DRF-paginated; either way the app reads an array. */
const listOf = <Item extends z.ZodType>(item: Item) =>
  z.union([z.array(item), paginated(item).transform((page) => page.results)])

// Schemas are built once: building one per call costs zod's compilation on every request.
const personList = listOf(personSchema)
const personPage = paginated(personSchema)

export const getProfile = (auth: SignedInCaller) => auth.call('/users/profile/', profileSchema)

export const updateProfile = (auth: SignedInCaller, body: FormData | Record<string, unknown>) =>
  body instanceof FormData
    ? auth.call('/users/profile/update/', profileSchema, { method: 'PATCH', formData: body })
    : auth.call('/users/profile/update/', profileSchema, { method: 'PATCH', json: body })

/**
 * Changes the password. The provider ends every session issued before (this one too) and answers
 * with the new pair of this one, for the session to keep (null from a provider that sends none).
 */
/** `keepCalendarFeed`: the private calendar link goes on working; without it the provider revokes it with the sessions. */
export async function changePassword(auth: SignedInCaller, oldPassword: string, newPassword: string, { keepCalendarFeed = false } = {}) {
  const answer = await auth.call('/users/change-password/', passwordChangedSchema, {
    method: 'POST',
    json: { old_password: oldPassword, new_password: newPassword, keep_calendar_feed: keepCalendarFeed },
  })
  return answer.access && answer.refresh ? { access: answer.access, refresh: answer.refresh } : null
}

/** A page of the professional's patients, by name (every booking can add one). */
export const listMyPatients = (auth: SignedInCaller, page: number | 'last', pageSize: number) =>
  auth.call('/users/professionals/patients/', personPage, { query: { page: page === 1 ? undefined : page, page_size: pageSize } })

export const listProfessionals = (auth: SignedInCaller) => auth.call('/users/professionals/', personList)

export const getUserStats = (auth: SignedInCaller) => auth.call('/users/stats/', userStatsSchema)

export const listUsers = (auth: SignedInCaller, query: { search?: string; page?: number; group?: string; state?: 'active' | 'inactive'; page_size?: number }) =>
  auth.call('/users/', personPage, { query })

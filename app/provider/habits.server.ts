import { type SignedInCaller } from './fetch.server.ts'
import {
  type HabitPayload,
  type TrackStatus,
  habitDetailSchema,
  habitListSchema,
  habitStatsSchema,
  habitSuggestionsSchema,
  habitSummarySchema,
} from './habit-schemas.ts'

/** The patient's active habits (decision 0027): at most 30, so the first page holds them all. */
export const listHabits = (auth: SignedInCaller) => auth.call('/habits/', habitListSchema)

/** A page of the patient's archived habits, the latest archived first (decision 0032). */
export const listArchivedHabits = (auth: SignedInCaller, page: number | 'last', pageSize: number) =>
  auth.call('/habits/', habitListSchema, { query: { archived: 'true', page: page === 1 ? undefined : page, page_size: pageSize } })

export const getHabit = (auth: SignedInCaller, id: number) => auth.call(`/habits/${id}/`, habitDetailSchema)

export const createHabit = (auth: SignedInCaller, body: HabitPayload) => auth.call('/habits/', habitSummarySchema, { method: 'POST', json: body })

export const updateHabit = (auth: SignedInCaller, id: number, body: Partial<HabitPayload> & { archived?: boolean }) =>
  auth.call(`/habits/${id}/`, habitDetailSchema, { method: 'PATCH', json: body })

export const deleteHabit = (auth: SignedInCaller, id: number) => auth.send(`/habits/${id}/`, { method: 'DELETE' })

/** One day's answer (today or one of the six days before); `none` forgets it. Answers the habit's new summary. */
export const trackHabit = (auth: SignedInCaller, id: number, body: { date: string; status: TrackStatus; amount?: number | null }) =>
  auth.call(`/habits/${id}/track/`, habitSummarySchema, { method: 'POST', json: body })

export const getHabitStats = (auth: SignedInCaller) => auth.call('/habits/stats/', habitStatsSchema)

export const getHabitSuggestions = (auth: SignedInCaller) => auth.call('/habits/suggestions/', habitSuggestionsSchema)

import { type SignedInCaller } from './fetch.server.ts'
import {
  type EventPayload,
  authorizationUrlSchema,
  availabilityCheckSchema,
  calendarEventSchema,
  calendarStatusSchema,
  connectResultSchema,
  eventListSchema,
  integrationStatusSchema,
  syncResultSchema,
} from './calendar-schemas.ts'

/** One function per endpoint of docs/decisions/0025-calendar-api.md. */

/** Google's consent URL for the calendar scope, carrying the app's `state`. */
export const getAuthorizationUrl = (auth: SignedInCaller, body: { redirect_uri: string; state: string }) =>
  auth.call('/auth/google/calendar/', authorizationUrlSchema, { method: 'POST', json: body })

export const getCalendarStatus = (auth: SignedInCaller) => auth.call('/calendar/', calendarStatusSchema)

/** Not connected is an answer here, not an error. */
export const getIntegrationStatus = (auth: SignedInCaller) => auth.call('/calendar/integration-status/', integrationStatusSchema)

/** The events of those local dates (≤ 62 days); a stale store is synced first by the provider. */
export const listCalendarEvents = (auth: SignedInCaller, query: { start_date: string; end_date: string; include_innera_events: boolean }) =>
  auth.call('/calendar/', eventListSchema, { query })

/** Exchanges the authorization code (a first full sync follows at the provider). */
export const connectCalendar = (auth: SignedInCaller, body: { auth_code: string; redirect_uri: string }) =>
  auth.call('/calendar/', connectResultSchema, { method: 'POST', json: { ...body, integration_type: 'enable' } })

export const createCalendarEvent = (auth: SignedInCaller, payload: EventPayload) => auth.call('/calendar/', calendarEventSchema, { method: 'POST', json: payload })

export const updateCalendarEvent = (auth: SignedInCaller, id: string, payload: EventPayload) =>
  auth.call(`/calendar/${encodeURIComponent(id)}/`, calendarEventSchema, { method: 'PUT', json: payload })

export const deleteCalendarEvent = (auth: SignedInCaller, id: string) => auth.send(`/calendar/${encodeURIComponent(id)}/`, { method: 'DELETE' })

/** Disconnects: the provider revokes the grant and forgets the events, tokens and sync state. */
export const disconnectCalendar = (auth: SignedInCaller) => auth.send('/calendar/', { method: 'DELETE' })

/** 409 `sync_in_progress` while another sync runs. */
export const syncCalendar = (auth: SignedInCaller, body: { full?: boolean } = {}) => auth.call('/calendar/sync/', syncResultSchema, { method: 'POST', json: body })

/** Google's busy time for one interval of a professional, asked live (any signed-in user). */
export const checkCalendarAvailability = (auth: SignedInCaller, body: { start_time: string; end_time: string; professional_id: number }, { signal }: { signal?: AbortSignal } = {}) =>
  auth.call('/calendar/availability/', availabilityCheckSchema, { method: 'POST', json: body, signal })

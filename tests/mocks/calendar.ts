import { http, HttpResponse } from 'msw'
import { WEEKDAYS } from '#app/domain/availability.ts'
import { providerMock, providerUrl } from './provider.ts'

/**
 * The calendar API of decision 0025 as the app's tests see it: Paula (the professional) with a
 * connected Google Calendar, a week of events, her schedule, and handlers that record what the
 * app asked and sent. "Now" is the appointments mocks' NOW: Monday 30 November 2026, 09:00 in
 * São Paulo.
 */

export const notConnected = { calendar_enabled: false, token_valid: false, primary_calendar_id: null, last_sync: null, connected: false, needs_reconnect: false, sync_in_progress: false, google_email: null }

export function integrationStatus(overrides: Record<string, unknown> = {}) {
  return {
    calendar_enabled: true,
    token_valid: true,
    primary_calendar_id: 'paula@example.com',
    last_sync: '2026-11-30T11:58:00.000Z',
    connected: true,
    needs_reconnect: false,
    sync_in_progress: false,
    google_email: 'paula@example.com',
    ...overrides,
  }
}

export function googleEvent(id: string, start: string, end: string, overrides: Record<string, unknown> = {}) {
  const allDay = !start.includes('T')
  return {
    id,
    summary: id,
    start: allDay ? { date: start } : { dateTime: start, timeZone: 'America/Sao_Paulo' },
    end: allDay ? { date: end } : { dateTime: end, timeZone: 'America/Sao_Paulo' },
    description: '',
    location: '',
    attendees: [],
    status: 'confirmed',
    htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
    colorId: null,
    transparency: 'opaque',
    innera_appointment_id: null,
    notes: '',
    ...overrides,
  }
}

/**
 * The week of 30 November: a dentist on Tuesday morning (inside the 09:00-12:00 slot: low), an
 * urgent board meeting on Wednesday afternoon (medium), a booked consultation's own event on
 * Thursday (no conflict by itself), a three-day congress from Friday (all-day), a free lunch.
 */
export const weekEvents = [
  googleEvent('dentista', '2026-12-01T10:00:00-03:00', '2026-12-01T11:00:00-03:00', { summary: 'Dentista', location: 'Rua Augusta, 100' }),
  googleEvent('banca', '2026-12-02T15:00:00-03:00', '2026-12-02T16:00:00-03:00', { summary: 'Banca URGENTE', status: 'tentative' }),
  googleEvent('consulta-31', '2026-12-03T09:00:00-03:00', '2026-12-03T09:50:00-03:00', { summary: 'Consulta Innera com Pedro', innera_appointment_id: 31 }),
  googleEvent('congresso', '2026-12-04', '2026-12-07', { summary: 'Congresso de medicina' }),
  googleEvent('almoco', '2026-12-01T12:00:00-03:00', '2026-12-01T13:00:00-03:00', { summary: 'Almoço', transparency: 'transparent' }),
]

const workday = { enabled: true, slots: [{ start: '09:00', end: '12:00' }, { start: '14:00', end: '18:00' }] }
export const paulaSchedule = {
  time_zone: 'America/Sao_Paulo',
  consultation_minutes: 50,
  buffer_minutes: 10,
  minimum_notice_hours: 12,
  horizon_days: 60,
  availability: Object.fromEntries(WEEKDAYS.map((day) => [day, day === 'saturday' || day === 'sunday' ? { enabled: false, slots: [] } : workday])),
  exceptions: [],
}

const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status })
type Answer = () => Response | Promise<Response>

export type CalendarAsked = {
  status: number
  integration: number
  events: URLSearchParams[]
  created: unknown[]
  updated: { id: string; body: unknown }[]
  deleted: string[]
  synced: unknown[]
  disconnected: number
  connected: unknown[]
  authorization: unknown[]
  availability: unknown[]
  schedule: number
  dashboard: URLSearchParams[]
}

/**
 * The calendar endpoints with these answers (each overridable by a function that returns a
 * Response); returns what the app asked for.
 */
export function calendarProvider({
  status = integrationStatus(),
  events = weekEvents,
  eventsAnswer,
  fromCache = true,
  syncError = false,
  lastSync = '2026-11-30T11:58:00.000Z',
  schedule = paulaSchedule,
  scheduleAnswer,
  appointments = [],
  statusAnswer,
  integrationAnswer,
  createAnswer,
  updateAnswer,
  deleteAnswer,
  syncAnswer,
  disconnectAnswer,
  connectAnswer,
  authorizationAnswer,
  availabilityAnswer,
  agendaCarriesState = true,
}: {
  status?: Record<string, unknown>
  events?: unknown[]
  eventsAnswer?: Answer
  fromCache?: boolean
  syncError?: boolean
  lastSync?: string | null
  schedule?: unknown
  scheduleAnswer?: Answer
  appointments?: unknown[]
  /** GET /calendar/ without dates: the status. */
  statusAnswer?: Answer
  integrationAnswer?: Answer
  createAnswer?: Answer
  updateAnswer?: Answer
  deleteAnswer?: Answer
  syncAnswer?: Answer
  disconnectAnswer?: Answer
  connectAnswer?: Answer
  authorizationAnswer?: Answer
  availabilityAnswer?: Answer
  /** Whether the professional's agenda brings the calendar's state along (as this provider's does). */
  agendaCarriesState?: boolean
} = {}): CalendarAsked {
  const asked: CalendarAsked = {
    status: 0,
    integration: 0,
    events: [],
    created: [],
    updated: [],
    deleted: [],
    synced: [],
    disconnected: 0,
    connected: [],
    authorization: [],
    availability: [],
    schedule: 0,
    dashboard: [],
  }
  const connected = Boolean(status.connected || status.calendar_enabled)
  const notConnectedAnswer = () => json({ detail: 'Calendar não está conectado', code: 'calendar_not_connected' }, 400)
  providerMock.use(
    http.get(providerUrl('/calendar/integration-status/'), () => {
      asked.integration += 1
      return integrationAnswer ? integrationAnswer() : json(status)
    }),
    http.get(providerUrl('/calendar/'), ({ request }) => {
      const query = new URL(request.url).searchParams
      if (!query.has('start_date')) {
        asked.status += 1
        if (statusAnswer) return statusAnswer()
        const { calendar_enabled, token_valid, primary_calendar_id, last_sync } = status
        return json({ calendar_enabled, token_valid, primary_calendar_id, last_sync })
      }
      asked.events.push(query)
      if (eventsAnswer) return eventsAnswer()
      if (!connected) return notConnectedAnswer()
      return json({ events, last_sync: lastSync, from_cache: fromCache, sync_error: syncError })
    }),
    http.post(providerUrl('/calendar/'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      if ('auth_code' in body) {
        asked.connected.push(body)
        return connectAnswer ? connectAnswer() : json({ success: true, calendar_enabled: true })
      }
      asked.created.push(body)
      if (createAnswer) return createAnswer()
      if (!connected) return notConnectedAnswer()
      return json(googleEvent('novo', String(body.start_time), String(body.end_time), { summary: 'Consulta Innera com Ana' }), 201)
    }),
    http.put(providerUrl('/calendar/:id/'), async ({ request, params }) => {
      const body = await request.json()
      asked.updated.push({ id: String(params.id), body })
      if (updateAnswer) return updateAnswer()
      if (!connected) return notConnectedAnswer()
      return json(googleEvent(String(params.id), '2026-12-01T13:00:00Z', '2026-12-01T14:00:00Z'))
    }),
    http.delete(providerUrl('/calendar/:id/'), ({ params }) => {
      asked.deleted.push(String(params.id))
      if (deleteAnswer) return deleteAnswer()
      if (!connected) return notConnectedAnswer()
      return new HttpResponse(null, { status: 204 })
    }),
    http.delete(providerUrl('/calendar/'), () => {
      asked.disconnected += 1
      if (disconnectAnswer) return disconnectAnswer()
      if (!connected) return notConnectedAnswer()
      return new HttpResponse(null, { status: 204 })
    }),
    http.post(providerUrl('/calendar/sync/'), async ({ request }) => {
      asked.synced.push(await request.json())
      if (syncAnswer) return syncAnswer()
      if (!connected) return notConnectedAnswer()
      return json({ synced: 3, last_sync: '2026-11-30T12:00:00.000Z', full: false })
    }),
    http.post(providerUrl('/auth/google/calendar/'), async ({ request }) => {
      const body = (await request.json()) as { state: string; redirect_uri: string }
      asked.authorization.push(body)
      if (authorizationAnswer) return authorizationAnswer()
      return json({ authorization_url: `http://provider.test/fake-google/authorize?scope=calendar&state=${body.state}&redirect_uri=${encodeURIComponent(body.redirect_uri)}` })
    }),
    http.post(providerUrl('/calendar/availability/'), async ({ request }) => {
      asked.availability.push(await request.json())
      return availabilityAnswer ? availabilityAnswer() : json({ available: true, conflicts: [], warnings: [] })
    }),
    http.get(providerUrl('/appointments/current-schedule/'), () => {
      asked.schedule += 1
      return scheduleAnswer ? scheduleAnswer() : json(schedule)
    }),
    http.get(providerUrl('/appointments/dashboard/'), ({ request }) => {
      const query = new URL(request.url).searchParams
      asked.dashboard.push(query)
      const state = agendaCarriesState ? { calendar: { calendar_enabled: connected, token_valid: Boolean(status.token_valid) } } : {}
      // The agenda's zone is the schedule's, as the provider's.
      const timeZone = (schedule as { time_zone?: string } | null)?.time_zone ?? 'America/Sao_Paulo'
      return json({ time_zone: timeZone, start: query.get('start'), end: query.get('start'), appointments, ...state })
    }),
  )
  return asked
}

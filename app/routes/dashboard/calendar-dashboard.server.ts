import { timeZoneOr } from '#app/domain/appointments.ts'
import { type CalendarStats, calendarStats } from '#app/domain/calendar.ts'
import { inRefreshWindow } from '#app/domain/calendar-agenda.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { orNull } from '#app/provider/responses.server.ts'
import { getSchedule } from '#app/provider/schedule.server.ts'
import { conflictsOf } from '#app/features/calendar/calendar-conflicts.server.ts'
import { type ConnectionState, eventsInZone, isConnected, needsReconnect, readEvents } from '#app/features/calendar/calendar.server.ts'

/** The calendar's part of the professional's dashboard (`/dashboard`): its stats. */

/** The calendar state the professional's agenda brings along (`calendar_enabled`, `token_valid`), as a status. */
export const connectionStateOf = ({ calendar_enabled, token_valid }: { calendar_enabled: boolean; token_valid: boolean }): ConnectionState => ({
  calendar_enabled,
  token_valid,
  connected: calendar_enabled,
  needs_reconnect: calendar_enabled && !token_valid,
})

export type DashboardCalendar =
  | { state: 'not-connected' }
  | { state: 'reconnect' }
  | { state: 'unavailable' }
  | { state: 'connected'; stats: Omit<CalendarStats, 'conflictsDetected'> & { conflictsDetected: number | null } }

/**
 * The dashboard's calendar stats (docs/product.md §3), for a professional: the integration's state came with
 * the agenda, so one without a connected calendar costs nothing more; a connected one reads the
 * events and the schedule, in parallel, and counts in the schedule's zone (the calendar page's).
 */
export async function dashboardCalendar(auth: SignedInCaller, status: ConnectionState | null, { now, timeZone: guess }: { now: Date; timeZone: string }): Promise<DashboardCalendar> {
  if (!status) return { state: 'unavailable' }
  if (!isConnected(status)) return { state: 'not-connected' }
  if (needsReconnect(status)) return { state: 'reconnect' }
  const [guessed, schedule] = await Promise.all([readEvents(auth, now, guess), getSchedule(auth).catch(orNull)])
  const timeZone = timeZoneOr(schedule?.time_zone, guess)
  const events = await eventsInZone(auth, now, { events: guessed, zone: guess }, timeZone)
  if (events.state === 'not-connected') return { state: 'not-connected' }
  if (events.state === 'reconnect') return { state: 'reconnect' }
  if (events.state === 'failed') return { state: 'unavailable' }
  const conflicts = schedule ? conflictsOf(schedule, events.list.events, now) : null
  const stats = calendarStats(inRefreshWindow(events.list.events, now, timeZone), conflicts ?? [], now, timeZone)
  return { state: 'connected', stats: { ...stats, conflictsDetected: conflicts ? stats.conflictsDetected : null } }
}

import { type TFunction } from 'i18next'
import { formatTime } from '#app/domain/appointments.ts'
import { type CalendarEvent, eventInterval, isAllDay } from '#app/domain/calendar.ts'
import { eventsQuery } from '#app/domain/calendar-agenda.ts'
import { type Language } from '#app/i18n/config.ts'
import { type EventList, type IntegrationStatus } from '#app/provider/calendar-schemas.ts'
import { listCalendarEvents } from '#app/provider/calendar.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { failureText } from '#app/utils/messages.server.ts'

/**
 * The professional's Google Calendar (issue 13, decision 0025) as the app's pages read it: the
 * connection's state, the events of the page's dates, what a failed call says, and how an event is
 * said. The pages' own parts beside it: calendar-page.server.ts (the `/agenda/calendario` loader),
 * calendar-action.server.ts (its action), calendar-conflicts.server.ts (the conflicts, also on
 * the availability editor) and calendar-dashboard.server.ts (the dashboard's stats). Pure logic is
 * in app/domain/calendar*.ts.
 */

export const CALENDAR_PATH = '/agenda/calendario'

/** Connected, as far as the provider says (a revoked grant is still connected: it needs "Reconnect"). */
export const isConnected = (status: Pick<IntegrationStatus, 'connected' | 'calendar_enabled'>) => status.connected || status.calendar_enabled
export const needsReconnect = (status: ConnectionState) => isConnected(status) && (status.needs_reconnect || !status.token_valid)

/** What a page needs to know of the integration to choose what to show. */
export type ConnectionState = Pick<IntegrationStatus, 'connected' | 'calendar_enabled' | 'needs_reconnect' | 'token_valid'>

/**
 * What a failed calendar call means for the user (docs/product.md §8's calendar rows): not connected, a grant
 * to renew, a throttle, or the action's own message.
 */
export function calendarFailureText(t: TFunction, error: unknown, actionKey: string): string {
  if (!(error instanceof ProviderError)) throw error
  if (error.code === 'calendar_not_connected') return t('calendar:errors.notConnected')
  if (error.code === 'calendar_reconnect') return t('calendar:errors.reconnect')
  if (error.status === 429) return failureText(t, error)
  return t(actionKey)
}

type EventsRead =
  | { state: 'ok'; list: EventList }
  | { state: 'not-connected' }
  | { state: 'reconnect' }
  | { state: 'failed' }

/** The events of the page's dates (the refresh window, stretched over the conflict window), the product's own included. */
export async function readEvents(auth: SignedInCaller, now: Date, timeZone: string): Promise<EventsRead> {
  try {
    return { state: 'ok', list: await listCalendarEvents(auth, { ...eventsQuery(now, timeZone), include_innera_events: true }) }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    if (error.code === 'calendar_not_connected') return { state: 'not-connected' }
    if (error.code === 'calendar_reconnect') return { state: 'reconnect' }
    return { state: 'failed' }
  }
}

/**
 * The events of the dates of `zone` (the professional's schedule zone, in which the provider reads
 * them), given those read in parallel with the schedule from the dates of the zone guessed then (the
 * account's): read again only when the two zones give other dates, as they may near midnight.
 */
export async function eventsInZone(auth: SignedInCaller, now: Date, read: { events: EventsRead; zone: string }, zone: string): Promise<EventsRead> {
  if (zone === read.zone) return read.events
  const wanted = eventsQuery(now, zone)
  const asked = eventsQuery(now, read.zone)
  return wanted.start_date === asked.start_date && wanted.end_date === asked.end_date ? read.events : readEvents(auth, now, zone)
}

/** An event's title, or "untitled". */
export const eventTitle = (t: TFunction, event: Pick<CalendarEvent, 'summary'>) => event.summary?.trim() || t('calendar:week.untitled')

/** "09:00–10:00", or "all day" for an all-day event. */
export function eventTime(event: CalendarEvent, timeZone: string, language: Language, t: TFunction): string {
  if (isAllDay(event)) return t('calendar:week.allDay')
  const interval = eventInterval(event, timeZone)
  if (!interval) return ''
  return `${formatTime(new Date(interval.start), timeZone, language)}–${formatTime(new Date(interval.end), timeZone, language)}`
}

import { sql } from 'drizzle-orm'
import type { BusyInterval } from '#server/appointments/free-times.ts'
import type { Database } from '#server/db/client.ts'
import { calendarEvents } from '#server/db/schema.ts'
import { storedEventsAfter, type StoredEvent } from '#server/calendar/event-store.ts'

/** The professional's answers to an invitation that make its time theirs (decision 0036). */
const BLOCKING_ANSWERS = new Set(['accepted', 'tentative'])

/**
 * Which stored Google events make a professional busy for booking (decisions 0026 and 0036): timed
 * and all-day events alike, tentative ones too, unless the event is marked free (transparent), is
 * cancelled, or is an invitation the professional has not accepted (declined, or not answered yet:
 * anyone who knows their address can invite them). Their own events, and those they organize,
 * have no answer to wait for. The product's own appointment events are left out: the appointment
 * itself already blocks that time.
 */
export function countsAsBusy(event: Pick<StoredEvent, 'status' | 'transparency' | 'selfResponseStatus' | 'inneraAppointmentId'>): boolean {
  if (event.status === 'cancelled' || event.transparency === 'transparent') return false
  if (event.selfResponseStatus !== null && !BLOCKING_ANSWERS.has(event.selfResponseStatus)) return false
  return event.inneraAppointmentId === null
}

/**
 * countsAsBusy as a condition on calendar_events, so the free-time reads leave the rest (a flood of
 * unanswered invitations among them) in the database instead of reading and dropping it.
 */
export const mayCountAsBusy = sql`(${calendarEvents.status} <> 'cancelled' and ${calendarEvents.transparency} <> 'transparent' and ${calendarEvents.inneraAppointmentId} is null
  and (${calendarEvents.selfResponseStatus} is null or ${calendarEvents.selfResponseStatus} in ('accepted', 'tentative')))`

/**
 * The busy Google time of each professional from `from` on, from the synced events (at most one
 * periodic sync old, decision 0025); professionals without a connected calendar have none.
 */
export async function calendarBusyTimes(db: Database, professionalIds: number[], from: number): Promise<Map<number, BusyInterval[]>> {
  const busy = new Map<number, BusyInterval[]>(professionalIds.map((id) => [id, []]))
  for (const event of await storedEventsAfter(db, professionalIds, from, mayCountAsBusy)) {
    if (countsAsBusy(event)) busy.get(event.userId)?.push({ start: event.startAt.getTime(), end: event.endAt.getTime() })
  }
  return busy
}

/** The busy time among one professional's stored events (as the booking rules read them): what they add to the appointments. */
export function busyIntervalsOf(events: readonly (Parameters<typeof countsAsBusy>[0] & { start: number; end: number })[]): BusyInterval[] {
  return events.filter(countsAsBusy).map((event) => ({ start: event.start, end: event.end }))
}

import type { BusyInterval } from '#server/appointments/free-times.ts'
import type { Database } from '#server/db/client.ts'
import { storedEventsAfter, type StoredEvent } from './event-store'

/**
 * Which stored Google events make a professional busy for booking (decision 0026): timed and
 * all-day events alike, tentative ones too, unless the event is marked free (transparent), is
 * cancelled, or is an invitation the professional declined. The product's own appointment
 * events are left out: the appointment itself already blocks that time.
 */
export function countsAsBusy(event: Pick<StoredEvent, 'status' | 'transparency' | 'selfResponseStatus' | 'inneraAppointmentId'>): boolean {
  if (event.status === 'cancelled' || event.transparency === 'transparent') return false
  if (event.selfResponseStatus === 'declined') return false
  return event.inneraAppointmentId === null
}

/**
 * The busy Google time of each professional from `from` on, from the synced events (at most one
 * periodic sync old, decision 0025); professionals without a connected calendar have none.
 */
export async function calendarBusyTimes(db: Database, professionalIds: number[], from: number): Promise<Map<number, BusyInterval[]>> {
  const busy = new Map<number, BusyInterval[]>(professionalIds.map((id) => [id, []]))
  for (const event of await storedEventsAfter(db, professionalIds, from)) {
    if (countsAsBusy(event)) busy.get(event.userId)?.push({ start: event.startAt.getTime(), end: event.endAt.getTime() })
  }
  return busy
}

/** The busy time among one professional's stored events (as the booking rules read them): what they add to the appointments. */
export function busyIntervalsOf(events: readonly (Parameters<typeof countsAsBusy>[0] & { start: number; end: number })[]): BusyInterval[] {
  return events.filter(countsAsBusy).map((event) => ({ start: event.start, end: event.end }))
}

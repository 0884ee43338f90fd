/**
 * What one professional's stored copy of their Google Calendar keeps (decision 0036): the events
 * from 30 days ago (a full sync's start) to a year and a day ahead (the longest booking horizon),
 * and of those at most MAX_STORED_EVENTS, the nearest to now. Anyone who knows the professional's
 * address can fill their calendar with invitations; the store, and every free-time read of it,
 * stays bounded. Pure: instants are ms since the epoch.
 */
const DAY = 24 * 60 * 60_000

export const STORED_DAYS_BACK = 30
const STORED_DAYS_AHEAD = 366
export const MAX_STORED_EVENTS = 2000

/** The instants the store keeps events overlapping: [from, to). */
export function storedWindow(now: number): { from: number; to: number } {
  return { from: now - STORED_DAYS_BACK * DAY, to: now + STORED_DAYS_AHEAD * DAY }
}

type Timed = { startAt: Date; endAt: Date }

/** How far an event lies from now, before or after: 0 while it runs. */
export function distanceFromNow(event: Timed, now: number): number {
  return Math.max(event.startAt.getTime() - now, now - event.endAt.getTime(), 0)
}

/**
 * The events the store keeps: those overlapping the window, the nearest `max` of them (ties by
 * start); `outside` the window and `beyondLimit` (in it, but past the limit) are left out.
 */
export function eventsToKeep<Event extends Timed>(events: readonly Event[], now: number, max = MAX_STORED_EVENTS): { kept: Event[]; outside: Event[]; beyondLimit: Event[] } {
  const { from, to } = storedWindow(now)
  const inside: Event[] = []
  const outside: Event[] = []
  for (const event of events) (event.endAt.getTime() > from && event.startAt.getTime() < to ? inside : outside).push(event)
  if (inside.length <= max) return { kept: inside, outside, beyondLimit: [] }
  const nearest = [...inside].sort((a, b) => distanceFromNow(a, now) - distanceFromNow(b, now) || a.startAt.getTime() - b.startAt.getTime())
  return { kept: nearest.slice(0, max), outside, beyondLimit: nearest.slice(max) }
}

import { countsAsBusy } from '#server/calendar/busy-time.ts'
import type { NewStoredEvent } from '#server/calendar/event-store.ts'

/**
 * A patient's live calendar check at the booking's confirm step (decisions 0025 and 0036, issue
 * 22): whether one consultation's time is free in the professional's Google Calendar, and nothing
 * more. Google's events on that time, read live, count as the stored copy counts them: an
 * unanswered invitation does not take the time, and the product's own appointment events are the
 * appointments (the booking rules already hold them, a rescheduled one's own time included). Pure:
 * instants are ms since the epoch.
 */
type Interval = { start: number; end: number }

type EventTimes = Pick<NewStoredEvent, 'status' | 'transparency' | 'selfResponseStatus' | 'inneraAppointmentId' | 'startAt' | 'endAt'>

/** Whether no event that counts as busy overlaps `window` (events as storedEventOf reads Google's). */
export function isTimeFree(window: Interval, events: readonly EventTimes[]): boolean {
  return !events.some(
    (event) =>
      countsAsBusy({ status: event.status, transparency: event.transparency ?? 'opaque', selfResponseStatus: event.selfResponseStatus ?? null, inneraAppointmentId: event.inneraAppointmentId ?? null }) &&
      event.startAt.getTime() < window.end &&
      event.endAt.getTime() > window.start,
  )
}

/**
 * The calendar's bounds and event types (decision 0025), apart from the rest so the event form's
 * schema (which the browser loads) pulls in nothing else.
 */

export const eventTypes = ['consultation', 'class', 'personal', 'other'] as const
export type EventType = (typeof eventTypes)[number]

/** Google's event ids are at most this long. */
export const EVENT_ID_MAX_LENGTH = 1024
export const EVENT_NOTES_MAX_LENGTH = 5000
export const EVENT_NAME_MAX_LENGTH = 200
export const EVENT_MAX_ATTENDEES = 50
export const EVENT_MEETING_LINK_MAX_LENGTH = 500

import { z } from 'zod'
import { EVENT_ID_MAX_LENGTH, EVENT_NOTES_MAX_LENGTH, type EventType } from '#app/domain/calendar-limits.ts'

/**
 * The calendar shapes of docs/decisions/0025-calendar-api.md, as the provider sends them. Every
 * answer is bounded: lists have a ceiling (a longer one is a bad gateway, not a page that takes
 * the server's memory), and free texts that come from Google (titles, descriptions, names) are
 * cut to a length a page can show, so one long description never hides the whole calendar.
 */

/** At most this many events in one answer (Google's own page limit; the window is ≤ 62 days). */
const MAX_EVENTS = 2500
const MAX_ATTENDEES_SHOWN = 100

/** A text from Google, cut to `max` characters; null or missing is empty. */
const googleText = (max: number) =>
  z
    .string()
    .nullable()
    .optional()
    .transform((value) => (value ?? '').slice(0, max))

/** An instant as the provider writes it (ISO 8601 with `Z` or an offset). */
const instantText = () =>
  z
    .string()
    .max(40)
    .refine((value) => !Number.isNaN(Date.parse(value)))

const nullableInstant = () =>
  instantText()
    .nullable()
    .optional()
    .transform((value) => value ?? null)

/** docs/product.md §3 "Calendar status": `GET /calendar/`. */
export const calendarStatusSchema = z.object({
  calendar_enabled: z.boolean(),
  token_valid: z.boolean(),
  primary_calendar_id: z
    .string()
    .max(1024)
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  last_sync: nullableInstant(),
})

/** `GET /calendar/integration-status/`: the status plus what the page needs to say about it. */
export const integrationStatusSchema = calendarStatusSchema.extend({
  connected: z.boolean(),
  needs_reconnect: z.boolean().optional().default(false),
  sync_in_progress: z.boolean().optional().default(false),
  google_email: z
    .string()
    .max(320)
    .nullable()
    .optional()
    .transform((value) => value ?? null),
})
export type IntegrationStatus = z.infer<typeof integrationStatusSchema>

const eventTimeSchema = z.object({
  dateTime: z.string().max(64).nullable().optional(),
  date: z.string().max(10).nullable().optional(),
  timeZone: z.string().max(64).nullable().optional(),
})

const attendeeSchema = z.object({
  email: z.string().max(320),
  displayName: googleText(200),
  responseStatus: z.string().max(32).nullable().optional(),
  self: z.boolean().nullable().optional(),
})

/**
 * docs/product.md §3 "Calendar event (read)", Google's resource plus `transparency`, `innera_appointment_id`
 * and the professional's `notes` (decision 0029: kept by the provider, never in Google's event).
 */
export const calendarEventSchema = z.object({
  id: z.string().min(1).max(EVENT_ID_MAX_LENGTH),
  summary: googleText(300),
  start: eventTimeSchema,
  end: eventTimeSchema,
  description: googleText(5000),
  location: googleText(500),
  attendees: z
    .array(attendeeSchema)
    .max(5000)
    .nullable()
    .optional()
    .transform((list) => (list ?? []).slice(0, MAX_ATTENDEES_SHOWN)),
  // Google may add statuses; an unknown one reads as "confirmed" (it blocks time, the safe side).
  status: z.enum(['confirmed', 'tentative', 'cancelled']).nullable().optional().catch('confirmed'),
  htmlLink: z.string().max(2048).nullable().optional(),
  colorId: z.string().max(16).nullable().optional(),
  transparency: z.enum(['opaque', 'transparent']).nullable().optional().catch(null),
  innera_appointment_id: z.number().int().nullable().optional(),
  notes: googleText(EVENT_NOTES_MAX_LENGTH),
})
export type CalendarEventRead = z.infer<typeof calendarEventSchema>

/** `GET /calendar/?start_date=&end_date=&include_innera_events=`. */
export const eventListSchema = z.object({
  events: z.array(calendarEventSchema).max(MAX_EVENTS),
  last_sync: nullableInstant(),
  from_cache: z.boolean().optional().default(false),
  sync_error: z.boolean().optional().default(false),
})
export type EventList = z.infer<typeof eventListSchema>

/** `POST /auth/google/calendar/`: Google's consent URL. */
export const authorizationUrlSchema = z.object({
  authorization_url: z
    .string()
    .max(4096)
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value)),
})

/** `POST /calendar/` with a code: `{success: true, calendar_enabled: true}`. */
export const connectResultSchema = z.object({ success: z.boolean().optional(), calendar_enabled: z.boolean().optional() })

/** `POST /calendar/sync/`. */
export const syncResultSchema = z.object({
  synced: z.union([z.number(), z.boolean()]).optional(),
  last_sync: nullableInstant(),
  full: z.boolean().optional(),
  // The calendar holds more events than the provider keeps (the nearest are kept: decision 0036).
  events_not_kept: z.number().int().nonnegative().optional().catch(undefined),
})

/** `POST /calendar/availability/`: Google's busy time for one interval. */
export const availabilityCheckSchema = z.object({
  available: z.boolean(),
  conflicts: z
    .array(z.object({ start: instantText(), end: instantText(), summary: googleText(300) }))
    .max(500)
    .optional()
    .default([]),
  warnings: z.array(z.string().max(500)).max(50).optional().default([]),
})

/** docs/product.md §3 "Event creation payload" (create and update). */
export type EventPayload = {
  start_time: string
  end_time: string
  event_type: EventType
  related_object_id: number | null
  attendees: string[]
  notes: string
  patient_name: string
  professional_name: string
  meeting_link: string
}

import { type SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { isDateInRange } from '#app/domain/date-range.ts'
import { minutesOf } from '#app/domain/availability.ts'
import { EVENT_ID_MAX_LENGTH, EVENT_MAX_ATTENDEES, EVENT_MEETING_LINK_MAX_LENGTH, EVENT_NAME_MAX_LENGTH, EVENT_NOTES_MAX_LENGTH, type EventType, eventTypes } from '#app/domain/calendar-limits.ts'

/**
 * The Google Calendar event form (docs/product.md §3's payload, decision 0025's bounds), shared by the
 * browser (conform's client validation) and the server (the page's action). A date and two
 * times in the zone the form names (the professional's schedule zone); the server turns them
 * into instants. Messages are keys.
 */

const MAX_ID = 2_147_483_647

const calendarIntents = ['create', 'update', 'delete', 'sync', 'sync-full', 'disconnect'] as const
export type CalendarIntent = (typeof calendarIntents)[number]

export function calendarIntentOf(value: FormDataEntryValue | null): CalendarIntent | null {
  return (calendarIntents as readonly string[]).includes(String(value)) ? (value as CalendarIntent) : null
}

// A date the provider takes (years 2000-2100).
const isDate = (value: string) => isDateInRange(value)
// What the browser's type=email accepts (WHATWG), which Google takes as an attendee.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

/** Attendees as typed: separated by commas, semicolons, spaces or lines; each once. */
export function splitAttendees(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((item) => item.trim().toLowerCase()).filter(Boolean))]
}

/** A clock time of the day, 00:00 to 23:59 (what <input type="time"> sends). */
const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/
const time = () => z.string({ error: 'calendar:validation.time' }).trim().regex(CLOCK_TIME, { error: 'calendar:validation.time' })

/** An event id as the provider gave it (a hidden field): printable, bounded. */
export const eventIdField = () =>
  z
    .string({ error: 'errors.badRequest' })
    .trim()
    .min(1, { error: 'errors.badRequest' })
    .max(EVENT_ID_MAX_LENGTH, { error: 'errors.badRequest' })
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\s\u0000-\u001f\u007f/?#\\]+$/, { error: 'errors.badRequest' })

export const eventFormSchema = z
  .object({
    event_id: eventIdField().optional(),
    // The zone the page showed the times in (a hidden field): the professional's schedule zone.
    time_zone: z.string().trim().max(64).optional(),
    event_type: z.enum(eventTypes, { error: 'calendar:validation.type' }).default('consultation'),
    date: z
      .string({ error: 'calendar:validation.date' })
      .trim()
      .refine(isDate, { error: 'calendar:validation.date' }),
    start: time(),
    end: time(),
    patient_name: z.string().trim().max(EVENT_NAME_MAX_LENGTH, { error: 'calendar:validation.nameTooLong' }).optional().default(''),
    attendees: z
      .string()
      .max(EVENT_MAX_ATTENDEES * 330, { error: 'calendar:validation.tooManyAttendees' })
      .optional()
      .default('')
      .transform((text, ctx) => {
        const list = splitAttendees(text)
        if (list.length > EVENT_MAX_ATTENDEES) ctx.addIssue({ code: 'custom', message: 'calendar:validation.tooManyAttendees' })
        else if (list.some((email) => email.length > 320 || !EMAIL.test(email))) ctx.addIssue({ code: 'custom', message: 'calendar:validation.attendees' })
        return list
      }),
    notes: z.string().trim().max(EVENT_NOTES_MAX_LENGTH, { error: 'calendar:validation.notesTooLong' }).optional().default(''),
    meeting_link: z
      .string()
      .trim()
      .max(EVENT_MEETING_LINK_MAX_LENGTH, { error: 'calendar:validation.meetingLink' })
      .optional()
      .default('')
      .refine((value) => value === '' || (/^https:\/\/[^\s]+$/i.test(value) && URL.canParse(value)), { error: 'calendar:validation.meetingLink' }),
    related_object_id: z
      .string()
      .trim()
      .optional()
      .default('')
      .refine((value) => value === '' || (/^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_ID), { error: 'calendar:validation.relatedObject' })
      .transform((value) => (value === '' ? null : Number(value))),
  })
  .superRefine((values, ctx) => {
    // Only two times that are times are in order or not (a bad one has its own message).
    if (!CLOCK_TIME.test(values.start) || !CLOCK_TIME.test(values.end)) return
    const start = minutesOf(values.start)
    const end = minutesOf(values.end)
    if (start !== null && end !== null && end <= start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'calendar:validation.order' })
  })

/** The event form's values as the page fills it (editing an event, or a new one). */
export type EventFormDefaults = {
  event_type: EventType
  date: string
  start: string
  end: string
  patient_name: string
  attendees: string
  notes: string
  meeting_link: string
  related_object_id: string
}

/**
 * The page action's answers: the event form again (what was typed, the errors), or a message for
 * the other forms (sync, disconnect, delete), said where they are.
 */
export type CalendarReply = { form: 'event'; result: SubmissionResult<string[]> } | { form: 'status'; intent: CalendarIntent; error: string }

import { z } from 'zod'
import type { GoogleEvent } from '#server/google/calendar-api.ts'
import { fieldError } from '#server/http/errors.ts'
import { charField, choiceField, emailField, idField, instantField, listField, validate } from '#server/http/fields.ts'
import { shownFirstName } from '#server/person-names.ts'
import { APPOINTMENT_PROPERTY, INNERA_PROPERTY } from '#server/calendar/event-store.ts'

/**
 * The event payload of decision 0025 (create and update) and the Google event it becomes. The
 * provider writes the title itself, from the type and the patient's first name only: a calendar
 * is shared with assistants and synced to phones, so health details and full names stay out of
 * it (LGPD). For the same reason the notes the professional typed never go to Google (decision
 * 0029): the provider keeps them; the description holds only Innera's neutral lines (the
 * consultation's manage link, the meeting link) beside whatever else the event's owner wrote there.
 */

const EVENT_TYPES = ['consultation', 'class', 'personal', 'other'] as const
type EventType = (typeof EVENT_TYPES)[number]

const MAX_EVENT_DAYS = 31
const DAY = 24 * 60 * 60_000
const INVALID_URL = 'Enter a valid https URL.'

/** An https URL (≤ 500 characters) or empty: the meeting room's link. */
const meetingLinkField = () =>
  z.unknown().transform((value, context) => {
    if (value === undefined || value === null || value === '') return ''
    const text = typeof value === 'string' ? value.trim() : ''
    let valid = text.length > 0 && text.length <= 500
    try {
      valid &&= new URL(text).protocol === 'https:'
    } catch {
      valid = false
    }
    if (valid) return text
    context.addIssue({ code: 'custom', message: INVALID_URL })
    return z.NEVER
  })

/** An id or nothing (null, empty). */
const optionalIdField = () =>
  z.unknown().transform((value, context) => {
    if (value === undefined || value === null || value === '') return null
    const parsed = idField().safeParse(value)
    if (parsed.success) return parsed.data
    for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message })
    return z.NEVER
  })

const payloadSchema = z.object({
  start_time: instantField(),
  end_time: instantField(),
  event_type: choiceField(EVENT_TYPES).optional(),
  related_object_id: optionalIdField().optional(),
  attendees: listField(emailField(), { maxLength: 50 }).optional(),
  notes: charField({ maxLength: 5000, allowBlank: true }).optional(),
  patient_name: charField({ maxLength: 200, allowBlank: true }).optional(),
  // Accepted as the contract's payload has it; the calendar is the professional's own, so it is not written.
  professional_name: charField({ maxLength: 200, allowBlank: true }).optional(),
  meeting_link: meetingLinkField().optional(),
})

export type EventPayload = {
  start: number
  end: number
  type: EventType
  relatedObjectId: number | null
  attendees: string[]
  /** The professional's notes, for the provider's own store only; null when the payload left them out. */
  notes: string | null
  patientName: string
  meetingLink: string
}

/** The payload checked: DRF field errors, then the end after the start and within 31 days. */
export function parseEventPayload(data: unknown): EventPayload {
  const input = validate(payloadSchema, data)
  if (input.end_time <= input.start_time) throw fieldError('end_time', 'The end must be after the start.')
  if (input.end_time - input.start_time > MAX_EVENT_DAYS * DAY) throw fieldError('end_time', `An event can last at most ${MAX_EVENT_DAYS} days.`)
  return {
    start: input.start_time,
    end: input.end_time,
    type: input.event_type ?? 'consultation',
    relatedObjectId: input.related_object_id ?? null,
    attendees: [...new Set((input.attendees ?? []).map((email) => email.toLowerCase()))],
    notes: input.notes ?? null,
    patientName: input.patient_name ?? '',
    meetingLink: input.meeting_link ?? '',
  }
}

/** The first word of a name, when it is a name: all of it the calendar may show. */
const firstNameOf = (name: string) => shownFirstName(name)

export function eventTitle(type: EventType, patientName: string): string {
  if (type === 'class') return 'Aula Innera'
  if (type === 'personal') return 'Compromisso pessoal'
  if (type === 'other') return 'Evento Innera'
  const firstName = firstNameOf(patientName)
  return firstName ? `Consulta Innera com ${firstName}` : 'Consulta Innera'
}

/** The lines Innera writes in a description: nothing but links (decision 0029). */
const MANAGE_LINE = 'Gerenciar a consulta: '
const MEETING_LINE = 'Sala da consulta: '

/**
 * The event's description: what else is there (the owner's own text, kept as it was), then
 * Innera's neutral lines: the consultation's manage link and the meeting link. Never the notes.
 */
export function eventDescription({ manageLink = '', meetingLink = '' }: { manageLink?: string; meetingLink?: string }, kept = ''): string {
  return [kept.trim(), manageLink && `${MANAGE_LINE}${manageLink}`, meetingLink && `${MEETING_LINE}${meetingLink}`].filter(Boolean).join('\n\n')
}

/** A description without the lines Innera wrote in it: what its owner wrote there, to keep on an update. */
export function ownersText(description: string): string {
  return description
    .split('\n')
    .filter((line) => !line.startsWith(MANAGE_LINE) && !line.startsWith(MEETING_LINE))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/**
 * The Google event for a payload, in the professional's time zone. `appointmentId` marks the
 * event as an appointment's (a consultation whose related object is one of the professional's
 * appointments): it is then not counted again as busy time. `manageLink` is that appointment's
 * page; `keptDescription`, the owner's text of an event being updated.
 */
export function googleEventOf(
  payload: EventPayload,
  { timeZone, appointmentId, manageLink = '', keptDescription = '' }: { timeZone: string; appointmentId: number | null; manageLink?: string; keptDescription?: string },
): GoogleEvent {
  return {
    // Confirmed also brings back an event deleted in Google meanwhile (an update on it answers it cancelled otherwise).
    status: 'confirmed',
    summary: eventTitle(payload.type, payload.patientName),
    description: eventDescription({ manageLink, meetingLink: payload.meetingLink }, keptDescription),
    start: { dateTime: new Date(payload.start).toISOString(), timeZone },
    end: { dateTime: new Date(payload.end).toISOString(), timeZone },
    attendees: payload.attendees.map((email) => ({ email })),
    extendedProperties: {
      private: {
        [INNERA_PROPERTY]: '1',
        inneraEventType: payload.type,
        ...(payload.relatedObjectId !== null && { inneraRelatedObjectId: String(payload.relatedObjectId) }),
        ...(appointmentId !== null && { [APPOINTMENT_PROPERTY]: String(appointmentId) }),
      },
    },
  }
}

import { formatShortDateTime, shouldLabelTimeZone, timeZoneLabel } from '#app/domain/appointments.ts'
import { type Language } from '#app/i18n/config.ts'

/**
 * What a professional's page about one patient shows, from the provider's shapes: names, the
 * appointments' times in the professional's own zone, pillar names. Built in the loader, so the
 * browser gets finished texts.
 */

type Named = { first_name: string; last_name: string; username?: string }

/** "First Last", else the username (an account with no name yet), else "". */
export function personName(person: Named): string {
  return `${person.first_name} ${person.last_name}`.trim() || person.username || ''
}

type AppointmentShape = {
  id: number
  status: string
  start_time: string
  time_zone: string
}

export type PatientAppointmentItem = {
  id: number
  status: string
  when: string
  zone: string | null
}

/**
 * The appointments of one list, each in its own zone (the professional's, which the appointment
 * carries); `zone` names it only where it differs from the page's (`pageZone`, the first one's).
 */
export function patientAppointmentItems(appointments: readonly AppointmentShape[], language: Language, pageZone: string | null): PatientAppointmentItem[] {
  return appointments.map((appointment) => ({
    id: appointment.id,
    status: appointment.status,
    when: formatShortDateTime(appointment.start_time, appointment.time_zone, language),
    zone: pageZone !== null && shouldLabelTimeZone(pageZone, appointment.time_zone) ? timeZoneLabel(appointment.time_zone, language, appointment.start_time) : null,
  }))
}

/** The zone the page names for its times: the first appointment's, with its label; null with none. */
export function pageZoneOf(appointments: readonly AppointmentShape[], language: Language): { zone: string; label: string } | null {
  const first = appointments[0]
  return first
    ? {
        zone: first.time_zone,
        label: timeZoneLabel(first.time_zone, language, first.start_time),
      }
    : null
}

type PillarShape = { slug: string; name: Record<Language, string> }

/** Pillar slugs as names in the reader's language, in the given order; an unknown slug (or no pillar list) shows as itself. */
export function pillarNamesOf(slugs: readonly string[], pillars: readonly PillarShape[] | null, language: Language): string[] {
  const bySlug = new Map((pillars ?? []).map((pillar) => [pillar.slug, pillar] as const))
  return slugs.map((slug) => {
    const pillar = bySlug.get(slug)
    return pillar?.name[language] || slug
  })
}

import {
  formatDateTime,
  formatPrice,
  formatShortDateTime,
  formatTime,
  languageName,
  shouldLabelTimeZone,
  timeZoneLabel,
} from '#app/domain/appointments.ts'
import { type Language } from '#app/i18n/config.ts'
import { type Appointment, type BookableProfessional } from '#app/provider/appointment-schemas.ts'
import { type Pillar } from '#app/provider/schemas.ts'
import { mediaUrl } from '#app/utils/media.ts'

/**
 * Provider shapes (decision 0023) turned into what the consultation pages show: names, wall times
 * in the patient's zone, prices, in the reader's language. Built in loaders, so the browser gets
 * finished texts and no time-zone code.
 */

const nameOf = (person: { first_name: string; last_name: string }) => `${person.first_name} ${person.last_name}`.trim()

export type ProfessionalView = ReturnType<typeof professionalView>

export function professionalView(
  professional: BookableProfessional,
  { language, patientZone, pillars }: { language: Language; patientZone: string; pillars: readonly Pillar[] },
) {
  const bySlug = new Map(pillars.map((pillar) => [pillar.slug, pillar]))
  return {
    id: professional.id,
    name: nameOf(professional),
    photo: mediaUrl(professional.photo),
    profession: professional.profession,
    registration: professional.registration_number,
    pillars: professional.pillars.map((slug) => {
      const pillar = bySlug.get(slug)
      return { slug, name: pillar ? (pillar.name[language] ?? pillar.name.en) : slug, icon: pillar?.icon ?? 'shield' }
    }),
    languages: professional.languages.map((code) => languageName(code, language)),
    bio: professional.bio,
    minutes: professional.consultation_minutes,
    price: formatPrice(professional.price_cents, language, professional.currency || 'BRL'),
    nextFree: professional.next_free_time ? formatShortDateTime(professional.next_free_time, patientZone, language) : null,
    /** The patient's zone, named when the professional works in another. */
    zoneLabel:
      professional.next_free_time && shouldLabelTimeZone(patientZone, professional.time_zone)
        ? timeZoneLabel(patientZone, language, professional.next_free_time)
        : null,
  }
}


export function appointmentView(appointment: Appointment, { language, patientZone }: { language: Language; patientZone: string }) {
  const labelled = shouldLabelTimeZone(patientZone, appointment.time_zone)
  return {
    id: appointment.id,
    status: appointment.status,
    when: formatShortDateTime(appointment.start_time, patientZone, language),
    whenLong: formatDateTime(appointment.start_time, patientZone, language),
    ends: formatTime(appointment.end_time, patientZone, language),
    minutes: Math.round((Date.parse(appointment.end_time) - Date.parse(appointment.start_time)) / 60_000),
    /** The zone the times are shown in, always named on the details page. */
    zone: timeZoneLabel(patientZone, language, appointment.start_time),
    /** The professional's zone and wall time, when it is another. */
    professionalTime: labelled
      ? { zone: timeZoneLabel(appointment.time_zone, language, appointment.start_time), when: formatDateTime(appointment.start_time, appointment.time_zone, language) }
      : null,
    professional: {
      id: appointment.professional.id,
      name: nameOf(appointment.professional),
      photo: mediaUrl(appointment.professional.photo),
      profession: appointment.professional.profession,
      registration: appointment.professional.registration_number,
    },
    patient: nameOf(appointment.patient),
    notes: appointment.notes,
    sharedNotes: appointment.shared_notes,
    refund: appointment.refund,
    cancelledBy: appointment.cancelled_by,
  }
}

import { ICalCalendar, ICalEventStatus } from 'ical-generator'

/**
 * Consultations as iCalendar (RFC 5545) for a download or a subscribed feed (issue 12). Times are
 * written in UTC, which every calendar converts to its own zone; the viewer's zone is named for
 * calendars that show one. Nothing about health goes in: the title is the product's and the other
 * person's first name, and the only other text is the link to manage the appointment (LGPD:
 * sensitive data stays in the product).
 */
type CalendarAppointment = {
  id: number
  status: string
  start: string
  end: string
  /** The other person's first name (the professional for a patient, the patient for a professional). */
  otherFirstName: string
}

type CalendarTexts = {
  /** "Consulta Innera com {{name}}" */
  title: (name: string) => string
  /** "Remarque ou cancele em: {{url}}" */
  manage: (url: string) => string
  calendarName: string
}

/** The texts from the `schedule` namespace's `calendar.*` keys, for a download and the feed alike. */
export function calendarTexts(t: (key: string, values?: Record<string, string>) => string): CalendarTexts {
  return {
    title: (name) => t('calendar.title', { name }),
    manage: (url) => t('calendar.manage', { url }),
    calendarName: t('calendar.name'),
  }
}

export function appointmentsCalendar({
  appointments,
  origin,
  timeZone,
  texts,
}: {
  appointments: readonly CalendarAppointment[]
  origin: string
  timeZone: string
  texts: CalendarTexts
}): string {
  const calendar = new ICalCalendar({ name: texts.calendarName, prodId: { company: 'Innera', product: 'Consultas', language: 'PT' }, timezone: null })
  calendar.x([{ key: 'X-WR-TIMEZONE', value: timeZone }])
  for (const appointment of appointments) {
    const url = new URL(`/consultas/${appointment.id}`, origin).toString()
    calendar.createEvent({
      id: `appointment-${appointment.id}@innera`,
      start: new Date(appointment.start),
      end: new Date(appointment.end),
      summary: texts.title(appointment.otherFirstName),
      description: texts.manage(url),
      url,
      status: appointment.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    })
  }
  return calendar.toString()
}

import { eq } from 'drizzle-orm'
import { appointments, professionalProfiles, users } from '#server/db/schema.ts'
import { GoogleApiError, type GoogleCalendarSession, type GoogleEvent } from '#server/google/calendar-api.ts'
import { errorFields } from '#server/log.ts'
import type { Services } from '#server/services.ts'
import { findConnection } from '#server/calendar/connections.ts'
import { googleEventOf } from '#server/calendar/event-payload.ts'
import { removeStoredEvents, storedEventOf, upsertStoredEvents } from '#server/calendar/event-store.ts'
import { withCalendar } from '#server/calendar/google-access.ts'

/**
 * An appointment's event in its professional's Google calendar (decision 0025): booked, it is
 * created ("Consulta Innera com {first name}", the manage and meeting links in the
 * description); moved, it moves; cancelled or deleted, it goes. Always after the response
 * (services.background), for a professional whose calendar is connected and usable; a failure
 * is logged and never touches the booking.
 */

type AppointmentEventSource = {
  id: number
  professionalId: number
  status: string
  startTime: Date
  endTime: Date
  meetingLink: string
  googleEventId: string | null
  patientFirstName: string
  timeZone: string | null
}

/** The appointment's page in the app: the one link its event's description carries besides the meeting's. */
export const manageLinkOf = (appPublicUrl: string, appointmentId: number) => `${appPublicUrl}/consultas/${appointmentId}`

const isGoneAtGoogle = (error: unknown) => error instanceof GoogleApiError && (error.failure === 'not_found' || error.failure === 'gone')

async function loadSource(services: Services, appointmentId: number): Promise<AppointmentEventSource | undefined> {
  const [row] = await services.db
    .select({
      id: appointments.id,
      professionalId: appointments.professionalId,
      status: appointments.status,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      meetingLink: appointments.meetingLink,
      googleEventId: appointments.googleEventId,
      patientFirstName: users.firstName,
      timeZone: professionalProfiles.timeZone,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, appointments.professionalId))
    .where(eq(appointments.id, appointmentId))
  return row
}

/** Deletes an event at Google (already gone is fine) and from the stored copy. */
async function removeEvent(services: Services, session: GoogleCalendarSession, calendarId: string, professionalId: number, eventId: string): Promise<void> {
  try {
    await session.deleteEvent(calendarId, eventId)
  } catch (error) {
    if (!isGoneAtGoogle(error)) throw error
  }
  await removeStoredEvents(services.db, professionalId, [eventId])
}

/** Makes the professional's calendar match the appointment now: its event created, moved or removed. */
async function mirrorAppointment(services: Services, appointmentId: number): Promise<void> {
  const { db, config } = services
  const source = await loadSource(services, appointmentId)
  if (!source) return
  const connection = await findConnection(db, source.professionalId)
  if (!connection?.tokenValid) return
  const live = source.status === 'scheduled' || source.status === 'confirmed'

  await withCalendar(services, connection, async (session, calendarId) => {
    if (!live) {
      if (source.googleEventId) await removeEvent(services, session, calendarId, source.professionalId, source.googleEventId)
      await db.update(appointments).set({ googleEventId: null }).where(eq(appointments.id, source.id))
      return
    }
    const timeZone = source.timeZone ?? 'America/Sao_Paulo'
    const body = googleEventOf(
      {
        start: source.startTime.getTime(),
        end: source.endTime.getTime(),
        type: 'consultation',
        relatedObjectId: source.id,
        attendees: [],
        // The patient's notes of the booking are health details: never in the calendar (decision 0029).
        notes: null,
        patientName: source.patientFirstName,
        meetingLink: source.meetingLink,
      },
      { timeZone, appointmentId: source.id, manageLink: manageLinkOf(config.appPublicUrl, source.id) },
    )
    let event: GoogleEvent | undefined
    if (source.googleEventId) {
      try {
        event = await session.patchEvent(calendarId, source.googleEventId, body)
      } catch (error) {
        // Deleted in Google meanwhile: it is written again below.
        if (!isGoneAtGoogle(error)) throw error
        await removeStoredEvents(db, source.professionalId, [source.googleEventId])
      }
    }
    event ??= await session.insertEvent(calendarId, body)
    const stored = storedEventOf(event, source.professionalId, { owners: [calendarId], timeZone: connection.calendarTimeZone ?? timeZone })
    if (stored) await upsertStoredEvents(db, [stored])
    if (event.id !== source.googleEventId) {
      await db
        .update(appointments)
        .set({ googleEventId: event.id ?? null })
        .where(eq(appointments.id, source.id))
    }
  })
}

/** After the response: the appointment's event follows it (booked, moved, cancelled). */
export function mirrorAppointmentLater(services: Services, appointmentId: number): void {
  services.background.run('calendar event of an appointment', () => logFailure(services, appointmentId, () => mirrorAppointment(services, appointmentId)))
}

/**
 * Called before an appointment is deleted: its event (if it has one) is removed after the
 * response. The id is read now, as the row will be gone by then.
 */
export async function mirrorAppointmentDeletion(services: Services, appointmentId: number): Promise<void> {
  const [row] = await services.db
    .select({ professionalId: appointments.professionalId, googleEventId: appointments.googleEventId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId))
  if (!row?.googleEventId) return
  const { professionalId, googleEventId } = row
  services.background.run('calendar event of a deleted appointment', () =>
    logFailure(services, appointmentId, async () => {
      const connection = await findConnection(services.db, professionalId)
      if (!connection?.tokenValid) return
      await withCalendar(services, connection, (session, calendarId) => removeEvent(services, session, calendarId, professionalId, googleEventId))
    }),
  )
}

async function logFailure(services: Services, appointmentId: number, work: () => Promise<void>): Promise<void> {
  try {
    await work()
  } catch (error) {
    // GoogleApiError's message names the failure and the HTTP status only, never a token.
    services.log({ level: 'error', msg: 'calendar event of an appointment failed', appointment_id: appointmentId, error: errorFields(error).error })
  }
}

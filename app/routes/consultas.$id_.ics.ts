import { type LoaderFunctionArgs } from '@remix-run/node'
import { appointmentsCalendar, calendarTexts } from '#app/domain/calendar-file.ts'
import { DEFAULT_TIME_ZONE } from '#app/domain/time-zones.ts'
import { getEnv } from '#app/env.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { getAppointment } from '#app/provider/appointments.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { parseId } from '#app/utils/ids.ts'

/** One consultation as an .ics download (issue 12): its time, the other person's first name, the link to manage it. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const id = parseId(params.id)
  if (id === undefined) throw new Response('Not Found', { status: 404 })
  const [t, appointment] = await Promise.all([getFixedT(request, 'schedule'), getAppointment(auth, id).catch(errorResponseFor)])
  const other = appointment.patient.id === user.id ? appointment.professional : appointment.patient
  const body = appointmentsCalendar({
    appointments: [{ id: appointment.id, status: appointment.status, start: appointment.start_time, end: appointment.end_time, otherFirstName: other.first_name }],
    origin: getEnv().APP_PUBLIC_URL,
    timeZone: user.time_zone ?? DEFAULT_TIME_ZONE,
    texts: calendarTexts(t),
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="consulta-innera-${appointment.start_time.slice(0, 10)}.ics"`,
    },
  })
}

import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { isChangeable, timeZoneOr } from '#app/domain/appointments.ts'
import { bookingAction, fetchAvailability, pickerView } from '#app/features/appointments/booking.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getAppointment, updateAppointment } from '#app/provider/appointments.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { BookingFlow } from '#app/ui/appointments/booking-flow.tsx'
import { appointmentView } from '#app/features/appointments/appointment-views.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

// The review and back steps change nothing: the page's data is not read again behind them.
export { keepDataAfterBookingStep as shouldRevalidate } from '#app/ui/appointments/booking-revalidation.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['appointments'] }

/** Rescheduling is the patient's (or an admin's), as the provider allows it. */
const roles = ['paciente', 'admin'] as const

/** The booking picker for another time of the same professional; the appointment's own time stays on offer. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: roles })
  const id = routeId(params)
  const [t, language, appointment] = await Promise.all([getFixedT(request, 'appointments'), languageOf(request), getAppointment(auth, id).catch(nullWhileResubmitting)])
  const meta = { title: `${t('reschedule.title')} · Innera`, description: t('reschedule.lead') }
  const patientZone = timeZoneOr(user.time_zone)
  const changeable = appointment ? isChangeable({ status: appointment.status, start: appointment.start_time }, new Date()) : true
  // The free times depend on whose appointment it is: read after it.
  const availability = appointment && changeable ? await fetchAvailability(auth, appointment.professional.id).catch(nullWhileResubmitting) : null
  const view = appointment ? appointmentView(appointment, { language, patientZone }) : null
  return data({
    meta,
    id,
    changeable,
    current: view ? { when: view.whenLong, professional: view.professional.name, notes: view.notes } : null,
    picker: pickerView({
      availability,
      patientZone,
      language,
      requestedDate: new URL(request.url).searchParams.get('data'),
      own: appointment ? { start: appointment.start_time, end: appointment.end_time } : undefined,
      t,
    }),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: roles })
  const id = routeId(params)
  return bookingAction(request, {
    auth,
    patientZone: timeZoneOr(user.time_zone),
    target: async () => {
      const appointment = await getAppointment(auth, id)
      return { professionalId: appointment.professional.id, own: { start: appointment.start_time, end: appointment.end_time } }
    },
    submit: (values) => updateAppointment(auth, id, values),
    mayHaveGoneThroughKey: 'appointments:reschedule.mayHaveGoneThrough',
    done: (appointment, { calendarUnverified }) =>
      redirectWithToast(`/consultas/${appointment.id}`, {
        type: 'success',
        // docs/product.md §8: the Google Calendar check failed; done all the same, and the patient is told.
        message: { key: calendarUnverified ? 'appointments:reschedule.doneUnverified' : 'appointments:reschedule.done' },
        durationMs: calendarUnverified ? 10_000 : undefined,
      }),
  })
}

export default function ReschedulePage() {
  const { id, current, changeable, picker } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('appointments')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link className="link" to={`/consultas/${id}`}>
          {t('reschedule.backToDetails')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('reschedule.title')}</h1>
      {current ? <p className="mt-2 max-w-2xl text-lg text-muted">{t('reschedule.current', { name: current.professional, when: current.when })}</p> : null}
      {changeable ? (
        <BookingFlow picker={picker} reply={reply} mode="reschedule" defaultNotes={current?.notes ?? ''} />
      ) : (
        <p className="mt-6 rounded-2xl bg-white p-6">{t('reschedule.closed')}</p>
      )}
    </main>
  )
}

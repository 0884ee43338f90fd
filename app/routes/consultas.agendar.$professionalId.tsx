import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { bookingAction, fetchAvailability, paymentReturnUrl, paymentStep, pickerView } from '#app/features/appointments/booking.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { createAppointment, findAppointmentByKey, listBookableProfessionals } from '#app/provider/appointments.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { BookingFlow } from '#app/ui/appointments/booking-flow.tsx'
import { ProfessionalCard } from '#app/ui/appointments/professional-card.tsx'
import { professionalView } from '#app/features/appointments/appointment-views.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

// The review and back steps change nothing: the page's data is not read again behind them.
export { keepDataAfterBookingStep as shouldRevalidate } from '#app/ui/appointments/booking-revalidation.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['appointments'] }

function professionalIdOf(params: Record<string, string | undefined>) {
  const id = parseId(params.professionalId)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  return id
}

/** Booking (patients only): the professional, the dates with free times (`?data=`), the chosen date's times. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'paciente' })
  const id = professionalIdOf(params)
  const patientZone = timeZoneOr(user.time_zone)
  const requestedDate = new URL(request.url).searchParams.get('data')
  const [t, language, pillars, availability] = await Promise.all([
    getFixedT(request, 'appointments'),
    languageOf(request),
    pillarsForDisplay().catch(nullWhileResubmitting),
    fetchAvailability(auth, id, { timeZone: patientZone, date: requestedDate }).catch(nullWhileResubmitting),
  ])
  // The free times carry the professional (an unknown one is the provider's 404); an older
  // provider without it is asked for the directory.
  const professional = availability?.professional ?? (availability ? (await listBookableProfessionals(auth).catch(nullWhileResubmitting))?.find((candidate) => candidate.id === id) : undefined)
  if (availability && !professional) throw data({ reason: 'not-found' }, { status: 404 })
  const view = professional ? professionalView(professional, { language, patientZone, pillars: pillars ?? [] }) : null
  return data({
    meta: { title: `${view ? t('booking.titleWith', { name: view.name }) : t('booking.title')} · Innera`, description: t('booking.lead') },
    professional: view,
    picker: pickerView({ availability, patientZone, language, requestedDate, t }),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'paciente' })
  const id = professionalIdOf(params)
  return bookingAction(request, {
    auth,
    patientZone: timeZoneOr(user.time_zone),
    target: async () => ({ professionalId: id }),
    paid: true,
    // A card's payment page sends the patient back to the purchase's page, whichever way they leave it.
    submit: (values) => createAppointment(auth, { professional_id: id, ...values, ...(values.payment === 'card' && { success_url: paymentReturnUrl(), cancel_url: paymentReturnUrl() }) }),
    // A booking whose answer was lost is found by its key (decision 0034).
    recover: (key) => findAppointmentByKey(auth, key),
    mayHaveGoneThroughKey: 'appointments:booking.mayHaveGoneThrough',
    // Held for its payment: on to paying it (decision 0051); otherwise booked.
    done: async (appointment, { calendarUnverified, earlier }) =>
      (await paymentStep(appointment)) ??
      redirectWithToast(`/consultas/${appointment.id}`, {
        type: 'success',
        // docs/product.md §8: the Google Calendar check failed; booked all the same, and the patient is told.
        message: { key: earlier ? 'appointments:booking.bookedEarlier' : calendarUnverified ? 'appointments:booking.bookedUnverified' : 'appointments:booking.booked' },
        durationMs: calendarUnverified || earlier ? 10_000 : undefined,
      }),
  })
}

export default function BookingPage() {
  const { professional, picker } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('appointments')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link className="link" to="/consultas/profissionais">
          {t('booking.backToDirectory')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('booking.title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('booking.lead')}</p>
      {professional ? (
        <div className="mt-6">
          <ProfessionalCard professional={professional} />
        </div>
      ) : null}
      <BookingFlow picker={picker} reply={reply} mode="book" defaultNotes="" />
    </main>
  )
}

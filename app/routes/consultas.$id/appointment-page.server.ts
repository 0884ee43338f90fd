import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { type Canceller, isChangeable, refundOnCancel, timeZoneOr } from '#app/domain/appointments.ts'
import { appointmentView } from '#app/features/appointments/appointment-views.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getAppointment } from '#app/provider/appointments.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { routeId } from '#app/utils/route-ids.server.ts'
import { cancellationTerms, paymentFacts } from './appointment-payment.server.ts'

export const cancellerOf = { paciente: 'patient', profissional: 'professional', admin: 'admin' } as const satisfies Record<string, Canceller>

/**
 * One appointment: who, when (in the patient's zone), status, notes, price and payment (while its
 * time is held for the payment: until when, and where to pay); links to reschedule and to the
 * consultation page; `?cancelar=1` shows what cancelling now means under the terms before the
 * patient confirms it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const id = routeId(params)
  const [t, language, appointment] = await Promise.all([getFixedT(request, ['appointments', 'shop']), languageOf(request), getAppointment(auth, id).catch(nullWhileResubmitting)])
  const meta = { title: `${t('details.title')} · Innera`, description: t('details.lead') }
  if (!appointment) return data({ meta, appointment: null, cancel: null, manage: null })
  const now = new Date()
  const role = roleFromGroups(user.groups)
  const patientZone = timeZoneOr(user.time_zone)
  const view = appointmentView(appointment, { language, patientZone })
  const changeable = isChangeable({ status: appointment.status, start: appointment.start_time }, now)
  // A time held for its payment may be let go (nothing is charged); it changes no other way until paid.
  const held = appointment.status === 'awaiting_payment'
  const canceller = cancellerOf[role]
  const refund = refundOnCancel({ start: appointment.start_time, now, by: canceller })
  // A free consultation: the booking pages' rule.
  const freeTerms = () => (refund === 'full' ? [t(canceller === 'patient' ? 'cancel.fullRefund' : 'cancel.fullRefundOther')] : [t('cancel.lateNotice'), t('terms.late')])
  return data({
    meta,
    appointment: {
      ...view,
      viewer: role,
      // The two write to each other between consultations (issue 44): the list opens their conversation.
      messageWith: role === 'paciente' ? appointment.professional.id : role === 'profissional' ? appointment.patient.id : null,
      ...paymentFacts(appointment, { language, patientZone, t }),
      canCancel: changeable || held,
      canReschedule: changeable && role !== 'profissional',
      hasConsultation: appointment.status !== 'cancelled' && !held,
      held,
    },
    // The professional (and admins) run the consultation: its status and notes (docs/product.md §7).
    manage: appointment.private_notes !== undefined && role !== 'paciente' ? manageView(appointment, now) : null,
    // What the terms (docs/product.md §9) make of cancelling now, said before the patient confirms.
    cancel:
      (changeable || held) && new URL(request.url).searchParams.get('cancelar') === '1' ? { terms: cancellationTerms(appointment, canceller, { language, t }, freeTerms) } : null,
  })
}

/** What the professional may do now: confirm before the start, complete or mark no-show after it; notes at any time. */
export function manageView(appointment: { status: string; start_time: string; private_notes?: string; shared_notes: string }, now: Date) {
  const started = Date.parse(appointment.start_time) <= now.getTime()
  const open = appointment.status === 'scheduled' || appointment.status === 'confirmed'
  return {
    canConfirm: appointment.status === 'scheduled' && !started,
    canClose: open && started,
    privateNotes: appointment.private_notes ?? '',
    sharedNotes: appointment.shared_notes,
  }
}

export type Manage = ReturnType<typeof manageView>

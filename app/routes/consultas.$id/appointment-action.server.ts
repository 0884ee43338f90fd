import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, redirect } from '@remix-run/node'
import { cancelSchema, consultationNotesSchema, statusMessage, statusSchema } from '#app/forms/appointment-forms.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { cancelAppointment, setAppointmentStatus } from '#app/provider/appointments.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { isConfirmed } from '#app/utils/confirm-step.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { messageText } from '#app/utils/messages.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { routeId } from '#app/utils/route-ids.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * `intent=status`: the professional confirms, completes or marks a no-show; `intent=notes`: their
 * private and shared notes; otherwise the cancellation after its confirmation, the toast saying what
 * the terms make of it.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request)
  const id = routeId(params)
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'status') {
    const submission = parseWithZod(form, { schema: statusSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await setAppointmentStatus(auth, id, { status: submission.value.status })
      return redirectWithToast(`/consultas/${id}`, { type: 'success', message: { key: `appointments:manage.saved_${submission.value.status}` } })
    } catch (error) {
      const t = await getFixedT(request, ['appointments', 'common'])
      // A refused status is the whole form's message (its buttons are the field).
      const { result, init } = replyToFailure(submission, error, t, {
        fields: { status: { field: '', messages: (provided) => provided.map((message) => messageText(t, statusMessage(message))) } },
      })
      return data({ intent, result }, init)
    }
  }
  if (intent === 'notes') {
    const submission = parseWithZod(form, { schema: consultationNotesSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await setAppointmentStatus(auth, id, submission.value)
      return redirectWithToast(`/consultas/${id}`, { type: 'success', message: { key: 'appointments:manage.notesSaved' } })
    } catch (error) {
      const t = await getFixedT(request, ['appointments', 'common'])
      const tooLong = () => ['appointments:validation.consultationNotesTooLong']
      const { result, init } = replyToFailure(submission, error, t, {
        fields: { private_notes: { field: 'private_notes', messages: tooLong }, shared_notes: { field: 'shared_notes', messages: tooLong } },
      })
      return data({ intent, result }, init)
    }
  }
  // A cancel moves money or a credit: only from its step, which says what the terms give back (decision 0079).
  if (!isConfirmed(form)) return redirect(`/consultas/${id}?cancelar=1`, { status: 303 })
  const submission = parseWithZod(form, { schema: cancelSchema })
  if (submission.status !== 'success') return data({ intent: 'cancel', result: submission.reply() }, { status: 400 })
  try {
    const cancelled = await cancelAppointment(auth, id, submission.value.reason || undefined)
    return redirectWithToast(`/consultas/${id}`, { type: 'success', message: { key: cancelledMessage(cancelled) }, durationMs: 8_000 })
  } catch (error) {
    const t = await getFixedT(request, ['appointments', 'common'])
    const { result, init } = replyToFailure(submission, error, t, { fields: { reason: 'reason' }, statusMessages: { 400: 'appointments:cancel.notAllowed' } })
    return data({ intent: 'cancel', result }, init)
  }
}

/** What the toast says after a cancellation: the held time let go, the credit back, the refund, or none. */
function cancelledMessage(cancelled: Awaited<ReturnType<typeof cancelAppointment>>): string {
  const payment = cancelled.payment
  if (payment?.kind === 'purchase' && payment.status !== 'paid' && payment.status !== 'refunded') return 'appointments:cancel.doneReleased'
  if (cancelled.refund === 'full') return payment?.kind === 'credit' ? 'appointments:cancel.doneCredit' : 'appointments:cancel.doneFull'
  return 'appointments:cancel.doneNone'
}

import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { type Canceller, REASON_MAX_LENGTH, isChangeable, refundOnCancel, timeZoneOr } from '#app/domain/appointments.ts'
import { CONSULTATION_NOTES_MAX_LENGTH } from '#app/domain/appointment-limits.ts'
import { cancelSchema, consultationNotesSchema, statusMessage, statusSchema } from '#app/forms/appointment-forms.ts'
import { cancellationTerms, paymentFacts } from './appointment-payment.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { cancelAppointment, getAppointment, setAppointmentStatus } from '#app/provider/appointments.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { ProfessionalPhoto } from '#app/ui/appointments/professional-card.tsx'
import { StatusBadge } from '#app/ui/appointments/status-badge.tsx'
import { type FormInput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { TextAreaField } from '#app/ui/textarea-field.tsx'
import { appointmentView } from '#app/features/appointments/appointment-views.server.ts'
import { CONFIRM_FIELD, CONFIRM_VALUE, isConfirmed } from '#app/utils/confirm-step.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { messageText } from '#app/utils/messages.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['appointments'] }

const cancellerOf = { paciente: 'patient', profissional: 'professional', admin: 'admin' } as const satisfies Record<string, Canceller>

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
function manageView(appointment: { status: string; start_time: string; private_notes?: string; shared_notes: string }, now: Date) {
  const started = Date.parse(appointment.start_time) <= now.getTime()
  const open = appointment.status === 'scheduled' || appointment.status === 'confirmed'
  return {
    canConfirm: appointment.status === 'scheduled' && !started,
    canClose: open && started,
    privateNotes: appointment.private_notes ?? '',
    sharedNotes: appointment.shared_notes,
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

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

type Details = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['appointment']>

export default function AppointmentPage() {
  const { appointment, cancel, manage } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('appointments')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link className="link" to="/consultas">
          {t('details.backToList')}
        </Link>
      </p>
      {appointment ? (
        <>
          <div className="mt-4 flex flex-wrap items-center gap-4">
            <h1 className="text-3xl font-bold">
              {appointment.viewer === 'profissional' ? t('details.titleWithPatient', { name: appointment.patient }) : t('details.titleWith', { name: appointment.professional.name })}
            </h1>
            <StatusBadge status={appointment.status} />
          </div>
          <AppointmentFacts appointment={appointment} />
          {cancel ? <CancelConfirmation terms={cancel.terms} /> : <Actions appointment={appointment} />}
          {manage && !cancel ? <ManageConsultation manage={manage} /> : null}
        </>
      ) : (
        // The appointment could not be read again after a failed submission: the form that was
        // sent comes back around what was typed.
        <>
          <h1 className="mt-4 text-3xl font-bold">{t('details.title')}</h1>
          {reply?.intent === 'notes' ? <ManageConsultation manage={{ canConfirm: false, canClose: false, privateNotes: '', sharedNotes: '' }} /> : <CancelConfirmation terms={[]} />}
        </>
      )}
    </main>
  )
}

function AppointmentFacts({ appointment }: { appointment: Details }) {
  const { t } = useTranslation('appointments')
  const row = 'grid gap-1 border-t border-brand-100 py-3 sm:grid-cols-[12rem_1fr]'
  return (
    <section aria-labelledby="facts-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="facts-title" className="sr-only">
        {t('details.facts')}
      </h2>
      <div className="flex items-center gap-4 pb-4">
        <ProfessionalPhoto name={appointment.professional.name} photo={appointment.professional.photo} size="size-16" />
        <div>
          <p className="text-lg font-semibold">{appointment.professional.name}</p>
          <p className="text-muted">
            {appointment.professional.profession}
            {appointment.professional.registration ? ` · ${t('professional.registration', { number: appointment.professional.registration })}` : null}
          </p>
        </div>
      </div>
      <dl>
        {appointment.viewer !== 'paciente' ? (
          <div className={row}>
            <dt className="text-muted">{t('details.patient')}</dt>
            <dd>{appointment.patient}</dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-muted">{t('details.when')}</dt>
          <dd className="font-medium">{t('review.whenValue', { when: appointment.whenLong, ends: appointment.ends })}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('details.zone')}</dt>
          <dd>
            {appointment.zone}
            {appointment.professionalTime ? (
              <span className="block text-sm text-muted">{t('details.professionalTime', { when: appointment.professionalTime.when, zone: appointment.professionalTime.zone })}</span>
            ) : null}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('review.duration')}</dt>
          <dd>{t('minutes', { count: appointment.minutes })}</dd>
        </div>
        {appointment.price ? (
          <div className={row}>
            <dt className="text-muted">{t('professional.price')}</dt>
            <dd>{appointment.price}</dd>
          </div>
        ) : null}
        {appointment.line ? (
          <div className={row}>
            <dt className="text-muted">{t('payment.title')}</dt>
            <dd data-testid="appointment-payment">
              {appointment.line}
              {appointment.purchaseId && !appointment.payAt ? (
                <>
                  {' '}
                  <Link className="link" to={`/compras/${appointment.purchaseId}`}>
                    {t('payment.receipt')}
                  </Link>
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-muted">{t('details.notes')}</dt>
          <dd className="whitespace-pre-line">{appointment.notes || t('review.noNotes')}</dd>
        </div>
        {appointment.sharedNotes ? (
          <div className={row}>
            <dt className="text-muted">{t('consultation.sharedNotes')}</dt>
            <dd className="whitespace-pre-line">{appointment.sharedNotes}</dd>
          </div>
        ) : null}
        {appointment.status === 'cancelled' && appointment.refund ? (
          <div className={row}>
            <dt className="text-muted">{t('details.refund')}</dt>
            <dd>{appointment.refund === 'full' ? t('details.refundFull') : t('details.refundNone')}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  )
}

function Actions({ appointment }: { appointment: Details }) {
  const { t } = useTranslation('appointments')
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      {/* While its time is held: pay first (a card's page is the payment service's, not ours). */}
      {appointment.payAt ? (
        <a className="btn-primary" href={appointment.payAt}>
          {t('payment.payNow')}
        </a>
      ) : null}
      {appointment.hasConsultation ? (
        <Link className="btn-primary" to={`/consultas/${appointment.id}/consulta`}>
          {t('details.consultation')}
        </Link>
      ) : null}
      {appointment.canReschedule ? (
        <Link className="btn-secondary" to={`/consultas/${appointment.id}/remarcar`}>
          {t('details.reschedule')}
        </Link>
      ) : null}
      {appointment.canCancel ? (
        <Link className="btn-secondary" to="?cancelar=1" preventScrollReset>
          {t('details.cancel')}
        </Link>
      ) : null}
      {/* A file download, not a page: a plain link so the browser saves it. Not for a time only held. */}
      {appointment.held ? null : (
        <a className="btn-secondary" href={`/consultas/${appointment.id}/ics`} download>
          {t('details.addToCalendar')}
        </a>
      )}
    </div>
  )
}

/** What the terms make of cancelling now, then the cancellation itself (with an optional reason). */
function CancelConfirmation({ terms }: { terms: string[] }) {
  const { t } = useTranslation('appointments')
  const reply = useActionData<typeof action>()
  const lastResult = reply?.intent === 'cancel' ? reply.result : undefined
  const validation = useDeferredValidation('cancelAppointment')
  const [form, fields] = useForm<FormInput<'cancelAppointment'>>({
    id: 'cancel-form',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="cancel-title" className="mt-6 max-w-3xl rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
      <h2 id="cancel-title" className="text-2xl font-semibold">
        {t('cancel.title')}
      </h2>
      {terms.length ? (
        <div className="mt-2 space-y-1" data-testid="refund-terms">
          {terms.map((line, index) => (
            <p key={line} className={index > 0 ? 'font-medium' : undefined}>
              {line}
            </p>
          ))}
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-4">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name={CONFIRM_FIELD} value={CONFIRM_VALUE} />
        <TextAreaField meta={fields.reason} label={t('cancel.reason')} hint={t('cancel.reasonHint', { max: REASON_MAX_LENGTH })} rows={3} />
        <div className="flex flex-wrap gap-3">
          <SubmitButton className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('cancel.cancelling')}>
            {t('cancel.confirm')}
          </SubmitButton>
          <Link className="btn-secondary" to="." preventScrollReset>
            {t('cancel.keep')}
          </Link>
        </div>
      </Form>
    </section>
  )
}

type Manage = ReturnType<typeof manageView>

/** The professional's part: the status (one form, a button per change) and the consultation notes. */
function ManageConsultation({ manage }: { manage: Manage }) {
  const { t } = useTranslation('appointments')
  const reply = useActionData<typeof action>()
  const statusErrors = reply?.intent === 'status' ? (reply.result.error?.[''] ?? []) : []
  const validation = useDeferredValidation('consultationNotes')
  const [form, fields] = useForm<FormInput<'consultationNotes'>>({
    id: 'consultation-notes',
    lastResult: reply?.intent === 'notes' ? reply.result : undefined,
    defaultValue: { private_notes: manage.privateNotes, shared_notes: manage.sharedNotes },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="manage-title" className="mt-8 max-w-3xl space-y-6 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="manage-title" className="text-2xl font-semibold">
        {t('manage.title')}
      </h2>
      {manage.canConfirm || manage.canClose ? (
        <Form method="post" className="space-y-3" aria-labelledby="status-title">
          <h3 id="status-title" className="text-lg font-semibold">
            {t('manage.statusTitle')}
          </h3>
          <p className="text-muted">{manage.canConfirm ? t('manage.confirmLead') : t('manage.closeLead')}</p>
          <FormError id="status-errors" errors={statusErrors} />
          <input type="hidden" name="intent" value="status" />
          <div className="flex flex-wrap gap-3">
            {manage.canConfirm ? (
              <button type="submit" name="status" value="confirmed" className="btn-primary">
                {t('manage.confirm')}
              </button>
            ) : (
              <>
                <button type="submit" name="status" value="completed" className="btn-primary">
                  {t('manage.complete')}
                </button>
                <button type="submit" name="status" value="no_show" className="btn-secondary">
                  {t('manage.noShow')}
                </button>
              </>
            )}
          </div>
        </Form>
      ) : null}
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="space-y-4">
        <h3 className="text-lg font-semibold">{t('manage.notesTitle')}</h3>
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="notes" />
        <TextAreaField meta={fields.private_notes} label={t('manage.privateNotes')} hint={t('manage.privateNotesHint', { max: CONSULTATION_NOTES_MAX_LENGTH })} rows={5} />
        <TextAreaField meta={fields.shared_notes} label={t('manage.sharedNotes')} hint={t('manage.sharedNotesHint', { max: CONSULTATION_NOTES_MAX_LENGTH })} rows={4} />
        <SubmitButton className="btn-primary" pendingText={t('manage.saving')}>
          {t('manage.saveNotes')}
        </SubmitButton>
      </Form>
    </section>
  )
}

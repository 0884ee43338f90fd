import { getFormProps, useForm } from '@conform-to/react'
import { Form, Link, useActionData } from '@remix-run/react'
import { REASON_MAX_LENGTH } from '#app/domain/appointments.ts'
import { CONSULTATION_NOTES_MAX_LENGTH } from '#app/domain/appointment-limits.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { TextAreaField } from '#app/ui/textarea-field.tsx'
import { CONFIRM_FIELD, CONFIRM_VALUE } from '#app/utils/confirm-step.ts'
import type { action } from './appointment-action.server.ts'
import type { Manage } from './appointment-page.server.ts'

/** What the terms make of cancelling now, then the cancellation itself (with an optional reason). */
export function CancelConfirmation({ terms }: { terms: string[] }) {
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

/** The professional's part: the status (one form, a button per change) and the consultation notes. */
export function ManageConsultation({ manage }: { manage: Manage }) {
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

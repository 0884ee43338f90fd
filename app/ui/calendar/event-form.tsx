import { type SubmissionResult, getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { Form, Link } from '@remix-run/react'
import { EVENT_MAX_ATTENDEES, EVENT_NOTES_MAX_LENGTH, eventTypes } from '#app/domain/calendar-limits.ts'
import { type EventFormDefaults } from '#app/forms/calendar-forms.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { TextAreaField } from '#app/ui/textarea-field.tsx'

const fieldClass = 'mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700'

type Props = {
  mode: 'create' | 'edit'
  eventId: string | null
  defaults: EventFormDefaults | null
  notFound: boolean
  today: string
  timeZone: string
  week: string
  lastResult?: SubmissionResult<string[]>
}

/**
 * Create or edit a Google Calendar event (docs/product.md §3's payload): type, date and times in the
 * professional's zone, patient's name, guests, notes, meeting link, linked consultation. Works
 * without JavaScript; a failed submission comes back with everything typed.
 */
export function EventForm({ mode, eventId, defaults, notFound, today, timeZone, week, lastResult }: Props) {
  const { t } = useTranslation('calendar')
  const validation = useDeferredValidation('calendarEvent')
  const [form, fields] = useForm<FormInput<'calendarEvent'>, FormOutput<'calendarEvent'>>({
    id: mode === 'edit' ? `event-form-${eventId}` : 'event-form',
    lastResult,
    defaultValue: defaults ?? { event_type: 'consultation', date: today, start: '', end: '', patient_name: '', attendees: '', notes: '', meeting_link: '', related_object_id: '' },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="event-form-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="event-form-title" className="text-2xl font-semibold">
        {mode === 'edit' ? t('event.editTitle') : t('event.createTitle')}
      </h2>
      <p className="mt-1 max-w-3xl text-muted">{t('event.lead')}</p>
      {notFound ? <p className="mt-3 rounded-lg bg-amber-50 px-4 py-2 text-amber-950">{t('event.notFound')}</p> : null}
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-5">
        <FormError id={form.errorId} errors={form.errors} />
        {mode === 'edit' && eventId ? <input type="hidden" name="event_id" value={eventId} /> : null}
        <input type="hidden" name="time_zone" value={timeZone} />
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <label htmlFor={fields.event_type.id} className="block font-medium text-ink">
              {t('event.type')}
            </label>
            <select {...getSelectProps(fields.event_type)} className={fieldClass}>
              {eventTypes.map((type) => (
                <option key={type} value={type}>
                  {t(`event.types.${type}`)}
                </option>
              ))}
            </select>
            <ErrorList id={fields.event_type.errorId} errors={fields.event_type.errors} />
          </div>
          <Field labelProps={{ children: t('event.date') }} inputProps={getInputProps(fields.date, { type: 'date' })} errors={fields.date.errors} />
          <Field labelProps={{ children: t('event.start') }} inputProps={{ ...getInputProps(fields.start, { type: 'time' }), step: 300 }} errors={fields.start.errors} />
          <Field labelProps={{ children: t('event.end') }} inputProps={{ ...getInputProps(fields.end, { type: 'time' }), step: 300 }} errors={fields.end.errors} />
        </div>
        <p className="-mt-3 text-sm text-muted">{t('event.timesIn', { zone: timeZone })}</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            labelProps={{ children: t('event.patientName') }}
            hint={t('event.patientNameHint')}
            inputProps={{ ...getInputProps(fields.patient_name, { type: 'text' }), autoComplete: 'off' }}
            errors={fields.patient_name.errors}
          />
          <Field
            labelProps={{ children: t('event.relatedObject') }}
            inputProps={{ ...getInputProps(fields.related_object_id, { type: 'text' }), inputMode: 'numeric', autoComplete: 'off' }}
            errors={fields.related_object_id.errors}
          />
        </div>
        <TextAreaField meta={fields.attendees} label={t('event.attendees')} hint={t('event.attendeesHint', { max: EVENT_MAX_ATTENDEES })} rows={2} />
        <TextAreaField meta={fields.notes} label={t('event.notes')} hint={t('event.notesHint', { max: EVENT_NOTES_MAX_LENGTH })} rows={4} />
        <Field
          labelProps={{ children: t('event.meetingLink') }}
          hint={t('event.meetingLinkHint')}
          inputProps={{ ...getInputProps(fields.meeting_link, { type: 'url' }), autoComplete: 'off' }}
          errors={fields.meeting_link.errors}
        />
        <div className="flex flex-wrap gap-3">
          <SubmitButton name="intent" value={mode === 'edit' ? 'update' : 'create'} className="btn-primary" pendingText={mode === 'edit' ? t('event.saving') : t('event.creating')}>
            {mode === 'edit' ? t('event.save') : t('event.create')}
          </SubmitButton>
          {mode === 'edit' ? (
            <Link to={`?semana=${week}`} className="btn-secondary" preventScrollReset>
              {t('event.cancelEdit')}
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  )
}

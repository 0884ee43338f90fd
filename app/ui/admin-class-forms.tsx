import { type FieldMetadata, type SubmissionResult, getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { CANCEL_REASON_MAX, CLASS_SLUG_MAX, DURATION_BOUNDS, SEATS_BOUNDS } from '#app/forms/admin-classes.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { ContentSubmitButtons, LocalizedFields } from '#app/ui/localized-fields.tsx'
import { TextAreaField } from '#app/ui/textarea-field.tsx'

/**
 * The admin's live-class forms (decision 0067): the editor (a new class, or a published class's
 * texts), the schedule (start in the admin's zone, length, seats) and the cancellation (a reason,
 * and a box that says how many people will be told). Each works without JavaScript.
 */

type Choice = { value: string; label: string }
type Localized = { pt: string; en: string; es: string }
type EditorDefaults = {
  title: Localized
  description: Localized
  pillar: string
  teacher_id: string
  date: string
  time: string
  duration_minutes: string
  seats: string
  access: string
}

const section = 'rounded-2xl bg-white p-4 shadow-sm sm:p-6'

function SelectField({ meta, label, choices, placeholder }: { meta: FieldMetadata<string | number | undefined>; label: string; choices: Choice[]; placeholder: string }) {
  return (
    <div>
      <label htmlFor={meta.id} className="block font-medium text-ink">
        {label}
      </label>
      <select
        {...getSelectProps(meta)}
        aria-describedby={meta.errors?.length ? meta.errorId : undefined}
        className="mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 text-base text-ink aria-[invalid]:border-red-700"
      >
        <option value="">{placeholder}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/** The start (a date and a time in the admin's zone), its length and seats: shared by the editor and the schedule form. */
function ScheduleFields({
  fields,
  zone,
}: {
  fields: { date: FieldMetadata<string | undefined>; time: FieldMetadata<string | undefined>; duration_minutes: FieldMetadata<number | undefined>; seats: FieldMetadata<number | undefined> }
  zone: string
}) {
  const { t } = useTranslation('admin-classes')
  return (
    <>
      <fieldset className="rounded-xl border border-gray-300 p-4" aria-describedby={`${fields.date.id}-zone`}>
        <legend className="px-1 font-semibold text-ink">{t('form.start')}</legend>
        <p id={`${fields.date.id}-zone`} className="text-sm text-muted">
          {t('form.zone', { zone })}
        </p>
        <div className="mt-2 grid gap-4 sm:grid-cols-2">
          <Field labelProps={{ children: t('form.date') }} inputProps={getInputProps(fields.date, { type: 'date' })} errors={fields.date.errors} />
          <Field labelProps={{ children: t('form.time') }} inputProps={getInputProps(fields.time, { type: 'time' })} errors={fields.time.errors} />
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: t('form.duration') }}
          hint={t('form.durationHint', DURATION_BOUNDS)}
          inputProps={{ ...getInputProps(fields.duration_minutes, { type: 'number' }), inputMode: 'numeric', min: DURATION_BOUNDS.min, max: DURATION_BOUNDS.max }}
          errors={fields.duration_minutes.errors}
        />
        <Field
          labelProps={{ children: t('form.seats') }}
          hint={t('form.seatsHint', SEATS_BOUNDS)}
          inputProps={{ ...getInputProps(fields.seats, { type: 'number' }), inputMode: 'numeric', min: SEATS_BOUNDS.min, max: SEATS_BOUNDS.max }}
          errors={fields.seats.errors}
        />
      </div>
    </>
  )
}

/** A new class's whole form (its address typed only on the new-class page), saved as a draft or published. */
export function NewClassEditor({
  defaults,
  askSlug,
  name,
  zone,
  pillars,
  teachers,
  lastResult,
}: {
  defaults: EditorDefaults
  askSlug: boolean
  name: string
  zone: string
  pillars: Choice[]
  teachers: Choice[]
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation('admin-classes')
  const validation = useDeferredValidation('adminNewClass')
  const [form, fields] = useForm<FormInput<'adminNewClass'>, FormOutput<'adminNewClass'>>({
    id: 'class-editor',
    lastResult,
    defaultValue: defaults,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="editor-title" className={section}>
      <h2 id="editor-title" className="text-xl font-semibold">
        {t('form.title')}
      </h2>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-5">
        <FormError id={form.errorId} errors={form.errors} />
        {askSlug ? (
          <Field
            labelProps={{ children: t('form.slug') }}
            hint={t('form.slugHint')}
            inputProps={{ ...getInputProps(fields.slug, { type: 'text' }), maxLength: CLASS_SLUG_MAX, autoComplete: 'off', spellCheck: false }}
            errors={fields.slug.errors}
          />
        ) : null}
        <LocalizedFields meta={fields.title} label={t('form.classTitle')} />
        <LocalizedFields meta={fields.description} label={t('form.description')} multiline />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField meta={fields.pillar} label={t('form.pillar')} choices={pillars} placeholder={t('form.choose')} />
          <SelectField meta={fields.teacher_id} label={t('form.teacher')} choices={teachers} placeholder={t('form.choose')} />
        </div>
        <ScheduleFields fields={fields} zone={zone} />
        <SelectField
          meta={fields.access}
          label={t('form.access')}
          choices={[
            { value: 'free', label: t('access.free') },
            { value: 'members', label: t('access.members') },
          ]}
          placeholder={t('form.choose')}
        />
        <p className="text-sm text-muted">{t('form.publishNote')}</p>
        <ContentSubmitButtons name={name} />
      </Form>
    </section>
  )
}

/** A published class's texts, saved as a draft or published. */
export function ClassTextsEditor({ defaults, name, lastResult }: { defaults: Pick<EditorDefaults, 'title' | 'description'>; name: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin-classes')
  const validation = useDeferredValidation('adminClassTexts')
  const [form, fields] = useForm<FormInput<'adminClassTexts'>, FormOutput<'adminClassTexts'>>({
    id: 'class-texts',
    lastResult,
    defaultValue: defaults,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="texts-title" className={section}>
      <h2 id="texts-title" className="text-xl font-semibold">
        {t('form.texts')}
      </h2>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-5">
        <FormError id={form.errorId} errors={form.errors} />
        <LocalizedFields meta={fields.title} label={t('form.classTitle')} />
        <LocalizedFields meta={fields.description} label={t('form.description')} multiline />
        <ContentSubmitButtons name={name} />
      </Form>
    </section>
  )
}

/** The start, length and seats of a published class; the seat holders are told of a new time. */
export function ScheduleForm({ defaults, zone, seatsTaken, lastResult }: { defaults: { date: string; time: string; duration_minutes: string; seats: string }; zone: string; seatsTaken: number; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin-classes')
  const validation = useDeferredValidation('adminClassSchedule')
  const [form, fields] = useForm<FormInput<'adminClassSchedule'>, FormOutput<'adminClassSchedule'>>({
    id: 'class-schedule',
    lastResult,
    defaultValue: defaults,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="schedule-title" className={section}>
      <h2 id="schedule-title" className="text-xl font-semibold">
        {t('schedule.title')}
      </h2>
      <p className="mt-2 text-muted">{t('schedule.lead', { count: seatsTaken })}</p>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-5">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="schedule" />
        <ScheduleFields fields={fields} zone={zone} />
        <SubmitButton className="btn-primary" pendingText={t('saving')}>
          {t('schedule.save')}
        </SubmitButton>
      </Form>
    </section>
  )
}

/** Cancelling: a reason, and a box saying how many people will be told, ticked before the button counts. */
export function CancelForm({ seatsTaken, lastResult }: { seatsTaken: number; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin-classes')
  const validation = useDeferredValidation('adminClassCancel')
  const [form, fields] = useForm<FormInput<'adminClassCancel'>, FormOutput<'adminClassCancel'>>({
    id: 'class-cancel',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <section aria-labelledby="cancel-title" className={section}>
      <h2 id="cancel-title" className="text-xl font-semibold">
        {t('cancel.title')}
      </h2>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-4">
        <FormError id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="cancel" />
        <TextAreaField meta={fields.reason} label={t('cancel.reason')} hint={t('cancel.reasonHint', { max: CANCEL_REASON_MAX })} rows={3} />
        <div>
          <label className="flex min-h-11 items-center gap-3">
            <input
              {...getInputProps(fields.confirm, { type: 'checkbox', value: 'on' })}
              aria-describedby={fields.confirm.errors?.length ? fields.confirm.errorId : undefined}
              className="size-5 shrink-0 accent-brand-700"
            />
            <span>{t('cancel.confirm', { count: seatsTaken })}</span>
          </label>
          <ErrorList id={fields.confirm.errorId} errors={fields.confirm.errors} />
        </div>
        <SubmitButton className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('saving')}>
          {t('cancel.submit')}
        </SubmitButton>
      </Form>
    </section>
  )
}

/** The class's state in words (never by colour alone). */
export function StateBadge({ state }: { state: 'scheduled' | 'started' | 'cancelled' }) {
  const { t } = useTranslation('admin-classes')
  const colour = state === 'cancelled' ? 'bg-red-100 text-red-900' : state === 'started' ? 'bg-gray-200 text-ink' : 'bg-brand-100 text-brand-900'
  return <span className={`rounded-full px-3 py-1 text-sm font-medium ${colour}`}>{t(`state.${state}`)}</span>
}

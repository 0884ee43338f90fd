import { type SubmissionResult, getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { Form, Link } from '@remix-run/react'
import { WEEKDAYS } from '#app/domain/availability.ts'
import { HABIT_NAME_MAX_LENGTH, HABIT_UNIT_MAX_LENGTH, type HabitFormValues } from '#app/forms/habit-forms.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'

type Props = {
  defaultValue: HabitFormValues
  lastResult?: SubmissionResult<string[]>
  pillars: { slug: string; name: string }[]
  weekdayNames: string[]
  submitLabel: string
  pendingLabel: string
  cancelTo: string
}

const controlClass = 'mt-1 block min-h-11 rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700'

/**
 * Create or edit a habit: name, pillar, how often (every day, chosen weekdays or N times a week),
 * an optional target with its unit and an optional reminder. Every choice is on the page at
 * once, so it works the same without JavaScript; what was typed comes back on any failure.
 */
export function HabitForm({ defaultValue, lastResult, pillars, weekdayNames, submitLabel, pendingLabel, cancelTo }: Props) {
  const { t } = useTranslation('habits')
  const validation = useDeferredValidation('habit')
  const [form, fields] = useForm<FormInput<'habit'>, FormOutput<'habit'>>({
    id: 'habit-form',
    defaultValue,
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const frequencies = getCollectionProps(fields.frequency, { type: 'radio', options: ['daily', 'weekdays', 'weekly'] })
  const days = getCollectionProps(fields.weekdays, { type: 'checkbox', options: [...WEEKDAYS] })
  return (
    <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 max-w-2xl space-y-6 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <FormError id={form.errorId} errors={form.errors} />
      <Field
        labelProps={{ children: t('form.name') }}
        hint={t('form.nameHint')}
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: HABIT_NAME_MAX_LENGTH, autoComplete: 'off' }}
        errors={fields.name.errors}
      />
      <div>
        <label htmlFor={fields.pillar.id} className="block font-medium text-ink">
          {t('form.pillar')}
        </label>
        <select {...getSelectProps(fields.pillar)} className={`${controlClass} w-full`}>
          <option value="">{t('form.choosePillar')}</option>
          {pillars.map((pillar) => (
            <option key={pillar.slug} value={pillar.slug}>
              {pillar.name}
            </option>
          ))}
        </select>
        <ErrorList id={fields.pillar.errorId} errors={fields.pillar.errors} />
      </div>

      <fieldset aria-describedby={fields.frequency.errors?.length ? fields.frequency.errorId : undefined}>
        <legend className="font-medium">{t('form.frequency')}</legend>
        <ErrorList id={fields.frequency.errorId} errors={fields.frequency.errors} />
        <div className="mt-2 space-y-3">
          {frequencies.map(({ key, ...props }) => (
            <div key={key} className="rounded-xl border border-gray-200 p-3">
              <label className="flex min-h-11 items-center gap-3">
                <input {...props} className="size-5 accent-brand-700" />
                <span>{t(`form.frequencies.${props.value}`)}</span>
              </label>
              {props.value === 'weekdays' ? (
                <fieldset className="mt-2 pl-8" aria-describedby={fields.weekdays.errors?.length ? fields.weekdays.errorId : undefined}>
                  <legend className="text-sm text-muted">{t('form.weekdays')}</legend>
                  <div className="mt-1 flex flex-wrap gap-x-4">
                    {days.map(({ key, ...day }, index) => (
                      <label key={key} className="flex min-h-11 items-center gap-2">
                        <input {...day} className="size-5 accent-brand-700" />
                        <span>{weekdayNames[index]}</span>
                      </label>
                    ))}
                  </div>
                  <ErrorList id={fields.weekdays.errorId} errors={fields.weekdays.errors} />
                </fieldset>
              ) : null}
              {props.value === 'weekly' ? (
                <div className="mt-2 pl-8">
                  <label htmlFor={fields.times_per_week.id} className="block text-sm text-muted">
                    {t('form.timesPerWeek')}
                  </label>
                  <input {...getInputProps(fields.times_per_week, { type: 'number' })} min={1} max={7} step={1} inputMode="numeric" className={`${controlClass} w-24`} />
                  <ErrorList id={fields.times_per_week.errorId} errors={fields.times_per_week.errors} />
                </div>
              ) : null}
            </div>
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend className="font-medium">{t('form.targetLegend')}</legend>
        <p className="text-sm text-muted">{t('form.targetHint')}</p>
        <div className="mt-2 grid gap-4 sm:grid-cols-2">
          <Field labelProps={{ children: t('form.target') }} inputProps={{ ...getInputProps(fields.target, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }} errors={fields.target.errors} />
          <Field labelProps={{ children: t('form.unit') }} hint={t('form.unitHint')} inputProps={{ ...getInputProps(fields.unit, { type: 'text' }), maxLength: HABIT_UNIT_MAX_LENGTH, autoComplete: 'off' }} errors={fields.unit.errors} />
        </div>
      </fieldset>

      <div>
        <label htmlFor={fields.reminder_time.id} className="block font-medium text-ink">
          {t('form.reminder')}
        </label>
        <p id={`${fields.reminder_time.id}-hint`} className="text-sm text-muted">
          {t('form.reminderHint')}
        </p>
        <input
          {...getInputProps(fields.reminder_time, { type: 'time' })}
          step={300}
          aria-describedby={[`${fields.reminder_time.id}-hint`, fields.reminder_time.errors?.length ? fields.reminder_time.errorId : null].filter(Boolean).join(' ')}
          className={controlClass}
        />
        <ErrorList id={fields.reminder_time.errorId} errors={fields.reminder_time.errors} />
      </div>

      <div className="flex flex-wrap gap-3">
        <SubmitButton className="btn-primary" pendingText={pendingLabel}>
          {submitLabel}
        </SubmitButton>
        <Link to={cancelTo} className="btn-secondary">
          {t('form.cancel')}
        </Link>
      </div>
    </Form>
  )
}

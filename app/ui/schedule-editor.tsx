import { type FieldMetadata, type SubmissionResult, getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { WEEKDAYS } from '#app/domain/availability.ts'
import { type scheduleFormValues } from '#app/forms/schedule-form.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { type ConflictItem, SlotConflicts } from '#app/ui/calendar/conflict-list.tsx'

/** A Google Calendar conflict (issue 13), shown beside the weekday and slot it hits. */
type EditorConflict = ConflictItem & { dayName: string; timeSlot: string }

type Props = {
  defaultValue: ReturnType<typeof scheduleFormValues>
  lastResult?: SubmissionResult<string[]>
  timeZones: { value: string; label: string }[]
  /** With a connected Google Calendar: the conflicts of the next 30 days. */
  conflicts?: EditorConflict[] | null
}

const fieldClass = 'mt-1 block min-h-11 rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700'
const inputClass = `${fieldClass} w-full`
/**
 * As wide as the browser writes the time (app/styles/tailwind.css). With the narrower padding and
 * gaps of a range's row, "01:00 PM – 06:00 PM" stays on one line at 360 px.
 */
const timeClass = 'mt-1 block min-h-11 rounded-lg border border-gray-400 bg-white px-1.5 py-2 text-base text-ink aria-[invalid]:border-red-700'

/**
 * The availability editor: settings, each weekday on or off with its time ranges, and date
 * exceptions. Every button works without JavaScript: "add" and "remove" are conform list intents
 * that the server answers with the list changed and nothing saved; a blank row is simply ignored.
 */
export function ScheduleEditor({ defaultValue, lastResult, timeZones, conflicts }: Props) {
  const { t } = useTranslation('schedule')
  const validation = useDeferredValidation('schedule')
  const [form, fields] = useForm<FormInput<'schedule'>, FormOutput<'schedule'>>({
    id: 'schedule-form',
    defaultValue,
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const days = fields.availability.getFieldset()
  const exceptions = fields.exceptions.getFieldList()

  return (
    <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-8 space-y-8">
      <FormError id={form.errorId} errors={form.errors} />

      <section aria-labelledby="settings-title" className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="settings-title" className="text-xl font-semibold">
          {t('editor.settingsTitle')}
        </h2>
        <div className="mt-4 grid gap-5 sm:grid-cols-2">
          <div>
            <label htmlFor={fields.time_zone.id} className="block font-medium text-ink">
              {t('editor.timeZone')}
            </label>
            <select {...getSelectProps(fields.time_zone)} className={inputClass}>
              {timeZones.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </select>
            <ErrorList id={fields.time_zone.errorId} errors={fields.time_zone.errors} />
          </div>
          <NumberField meta={fields.consultation_minutes} label={t('editor.consultationMinutes')} hint={t('editor.consultationMinutesHint')} min={15} max={240} />
          <NumberField meta={fields.buffer_minutes} label={t('editor.bufferMinutes')} hint={t('editor.bufferMinutesHint')} min={0} max={120} />
          <NumberField meta={fields.minimum_notice_hours} label={t('editor.minimumNoticeHours')} hint={t('editor.minimumNoticeHoursHint')} min={0} max={168} />
          <NumberField meta={fields.horizon_days} label={t('editor.horizonDays')} hint={t('editor.horizonDaysHint')} min={1} max={365} />
        </div>
      </section>

      <section aria-labelledby="week-title" className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="week-title" className="text-xl font-semibold">
          {t('editor.weekTitle')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('editor.weekHint')}</p>
        <div className="mt-4 divide-y divide-gray-200">
          {WEEKDAYS.map((day) => {
            const dayFields = days[day].getFieldset()
            const slots = dayFields.slots.getFieldList()
            const dayName = t(`weekdays.${day}`)
            const dayConflicts = (conflicts ?? []).filter((conflict) => conflict.dayName === day)
            const slotKey = (range: { start: { initialValue?: unknown }; end: { initialValue?: unknown } }) => `${String(range.start.initialValue ?? '')}-${String(range.end.initialValue ?? '')}`
            const shownSlots = new Set(slots.map((slot) => slotKey(slot.getFieldset())))
            return (
              <fieldset key={day} className="py-4">
                <legend className="sr-only">{dayName}</legend>
                <label className="flex min-h-11 items-center gap-3 font-semibold">
                  <input {...getInputProps(dayFields.enabled, { type: 'checkbox' })} className="size-5 accent-brand-700" />
                  {dayName}
                </label>
                <ErrorList id={dayFields.enabled.errorId} errors={dayFields.enabled.errors} />
                <ul className="mt-2 space-y-2">
                  {slots.map((slot, index) => {
                    const range = slot.getFieldset()
                    return (
                      <li key={slot.key} className="flex flex-wrap items-start gap-x-1.5 gap-y-2">
                        <TimeInput meta={range.start} label={t('editor.slotStart', { day: dayName, number: index + 1 })} />
                        <span aria-hidden="true" className="pt-3">
                          –
                        </span>
                        <TimeInput meta={range.end} label={t('editor.slotEnd', { day: dayName, number: index + 1 })} />
                        <button
                          {...form.remove.getButtonProps({ name: dayFields.slots.name, index })}
                          className="btn-secondary min-h-11"
                          aria-label={t('editor.removeSlot', { day: dayName, number: index + 1 })}
                        >
                          {t('editor.remove')}
                        </button>
                        <SlotConflicts conflicts={dayConflicts.filter((conflict) => conflict.timeSlot === slotKey(range))} />
                      </li>
                    )
                  })}
                </ul>
                {/* Conflicts of slots no row has now (a date exception's, or a slot changed since). */}
                <SlotConflicts conflicts={dayConflicts.filter((conflict) => !shownSlots.has(conflict.timeSlot))} />
                <button {...form.insert.getButtonProps({ name: dayFields.slots.name, defaultValue: { start: '', end: '' } })} className="btn-secondary mt-2 min-h-11">
                  {t('editor.addSlot', { day: dayName })}
                </button>
              </fieldset>
            )
          })}
        </div>
      </section>

      <section aria-labelledby="exceptions-title" className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="exceptions-title" className="text-xl font-semibold">
          {t('editor.exceptionsTitle')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('editor.exceptionsHint')}</p>
        <ul className="mt-4 space-y-4">
          {exceptions.map((exception, index) => {
            const row = exception.getFieldset()
            const number = index + 1
            return (
              <li key={exception.key}>
                <fieldset className="rounded-xl border border-gray-200 p-3 sm:p-4">
                  <legend className="px-1 font-medium">{t('editor.exceptionLegend', { number })}</legend>
                  <div className="flex flex-wrap items-start gap-4">
                    <div>
                      <label htmlFor={row.date.id} className="block text-sm font-medium">
                        {t('editor.exceptionDate')}
                      </label>
                      <input {...getInputProps(row.date, { type: 'date' })} className={inputClass} />
                      <ErrorList id={row.date.errorId} errors={row.date.errors} />
                    </div>
                    <fieldset>
                      <legend className="text-sm font-medium">{t('editor.exceptionKind')}</legend>
                      {(['off', 'hours'] as const).map((kind) => (
                        <label key={kind} className="flex min-h-11 items-center gap-2">
                          <input {...getInputProps(row.kind, { type: 'radio', value: kind })} key={kind} className="size-5 accent-brand-700" />
                          {t(`editor.exceptionKinds.${kind}`)}
                        </label>
                      ))}
                    </fieldset>
                    <div className="flex flex-wrap items-start gap-2">
                      <TimeInput meta={row.start} label={t('editor.exceptionStart', { number })} visibleLabel={t('editor.from')} />
                      <TimeInput meta={row.end} label={t('editor.exceptionEnd', { number })} visibleLabel={t('editor.to')} />
                    </div>
                  </div>
                  <button {...form.remove.getButtonProps({ name: fields.exceptions.name, index })} className="btn-secondary mt-3 min-h-11" aria-label={t('editor.removeException', { number })}>
                    {t('editor.remove')}
                  </button>
                </fieldset>
              </li>
            )
          })}
        </ul>
        <button {...form.insert.getButtonProps({ name: fields.exceptions.name, defaultValue: { date: '', kind: 'off', start: '', end: '' } })} className="btn-secondary mt-3 min-h-11">
          {t('editor.addException')}
        </button>
      </section>

      <SubmitButton className="btn-primary" pendingText={t('editor.saving')}>
        {t('editor.save')}
      </SubmitButton>
    </Form>
  )
}

function NumberField({ meta, label, hint, min, max }: { meta: FieldMetadata<string | number | undefined>; label: string; hint: string; min: number; max: number }) {
  return <Field labelProps={{ children: label }} hint={hint} inputProps={{ ...getInputProps(meta, { type: 'number' }), min, max, step: 1, inputMode: 'numeric' }} errors={meta.errors} />
}

function TimeInput({ meta, label, visibleLabel }: { meta: FieldMetadata<string | undefined>; label: string; visibleLabel?: string }) {
  return (
    <div>
      <label htmlFor={meta.id} className={visibleLabel ? 'block text-sm font-medium' : 'sr-only'}>
        {visibleLabel ? <span aria-hidden="true">{visibleLabel}</span> : null}
        <span className={visibleLabel ? 'sr-only' : undefined}>{label}</span>
      </label>
      <input {...getInputProps(meta, { type: 'time' })} step={300} className={timeClass} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

import { getFormProps, getTextareaProps, useForm } from '@conform-to/react'
import { type MouseEvent } from 'react'
import { Form, useLocation, useNavigate } from '@remix-run/react'
import { NOTES_MAX_LENGTH } from '#app/domain/appointments.ts'
import { type BookingReply, type Choice, type PaymentView, type PickerView } from '#app/forms/appointment-forms.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'

/**
 * Booking and rescheduling: the dates with free times as links (`?data=`), the chosen date's times
 * as radio buttons in one form with the notes, then a review step (the time and notes carried in
 * hidden fields) with "confirm" and "back". Works without JavaScript; with it, conform validates
 * in the browser too.
 */
export function BookingFlow({ picker, reply, mode, defaultNotes }: { picker: PickerView; reply: BookingReply | undefined; mode: 'book' | 'reschedule'; defaultNotes: string }) {
  if (reply?.step === 'review') return <ReviewStep review={reply.review} mode={mode} />
  return (
    <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <DateLinks picker={picker} />
      {/* A new answer remounts the form with what it carries (what was typed, the errors). */}
      <PickForm key={reply ? JSON.stringify(reply.result.initialValue ?? null) + String(reply.taken?.length ?? '') : 'first'} picker={picker} reply={reply} defaultNotes={defaultNotes} mode={mode} />
    </div>
  )
}

/**
 * A click on one of the date links, as Remix's `<Link>` would take it (a client-side navigation
 * keeping the scroll), for links that are plain `<a>`s: 60 days of dates are up to 60 links, and a
 * `<Link>` each costs the server's render more than the rest of the picker. Modified clicks, other
 * buttons and links elsewhere are left to the browser.
 */
function useDateLinkClicks() {
  const navigate = useNavigate()
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
    const link = (event.target as Element).closest('a[href]')
    if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link) || link.origin !== window.location.origin) return
    event.preventDefault()
    navigate(`${link.pathname}${link.search}`, { preventScrollReset: true })
  }
}

function DateLinks({ picker }: { picker: PickerView }) {
  const { t } = useTranslation('appointments')
  const onClick = useDateLinkClicks()
  const { pathname } = useLocation()
  return (
    // The links inside are the controls (Enter on a link is a click too); the section only takes their clicks.
    <section aria-labelledby="dates-title" onClick={onClick}>
      <h2 id="dates-title" className="text-xl font-semibold">
        {t('picker.dates')}
      </h2>
      {picker.unavailable ? (
        <p className="mt-3 rounded-xl bg-white p-4 text-muted">{t('picker.unavailable')}</p>
      ) : picker.weeks.length === 0 ? (
        <p className="mt-3 rounded-xl bg-white p-4 text-muted">{t('picker.noDates')}</p>
      ) : (
        <div className="mt-3 space-y-4">
          {picker.weeks.map((week) => (
            <div key={week.weekStart}>
              <h3 className="text-sm font-semibold text-muted">{week.label}</h3>
              <ul className="mt-2 flex flex-wrap gap-2">
                {week.dates.map((day) => (
                  <li key={day.date}>
                    <a
                      href={`${pathname}?data=${day.date}`}
                      aria-current={day.selected ? 'date' : undefined}
                      className={`flex min-h-11 flex-col rounded-lg border px-3 py-1.5 text-sm font-semibold ${
                        day.selected ? 'border-brand-700 bg-brand-700 text-white' : 'border-brand-100 bg-white text-brand-800 hover:bg-brand-50'
                      }`}
                    >
                      {day.label}
                      <span className="font-normal">{t('picker.timesCount', { count: day.count })}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </section>
  )
}

function PickForm({ picker, reply, defaultNotes, mode }: { picker: PickerView; reply: Extract<BookingReply, { step: 'pick' }> | undefined; defaultNotes: string; mode: 'book' | 'reschedule' }) {
  const { t } = useTranslation('appointments')
  const validation = useDeferredValidation('booking')
  const current = picker.selected?.times.find((time) => time.current)
  const [form, fields] = useForm<FormInput<'booking'>>({
    id: 'booking-form',
    lastResult: reply?.result,
    defaultValue: { start_time: current?.value ?? '', notes: defaultNotes },
    onValidate: validation.onValidate,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  const checked = String(fields.start_time.initialValue ?? '')
  const times = picker.selected?.times ?? []
  // The time chosen before (from another date, the nearest offered, or while the times could not be read) stays on offer.
  const extra: Choice | null = reply?.chosen && !times.some((time) => Date.parse(time.value) === Date.parse(reply.chosen!.value)) ? reply.chosen : null
  const timeError = fields.start_time.errors?.length ? fields.start_time.errorId : undefined
  const radio = (choice: { value: string; label: string; current?: boolean }, prefix: string) => (
    <label key={`${prefix}-${choice.value}`} className="flex min-h-11 items-center gap-2 rounded-lg border border-gray-300 bg-white px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
      <input
        type="radio"
        name={fields.start_time.name}
        value={choice.value}
        defaultChecked={checked !== '' && Date.parse(checked) === Date.parse(choice.value)}
        aria-describedby={timeError}
        className="size-5 accent-brand-700"
      />
      <span>
        {choice.label}
        {choice.current ? <span className="ml-1 text-sm text-muted">({t('picker.currentTime')})</span> : null}
      </span>
    </label>
  )
  return (
    <section aria-labelledby="times-title">
      <h2 id="times-title" className="text-xl font-semibold">
        {picker.selected ? t('picker.timesOn', { date: picker.selected.label }) : t('picker.times')}
      </h2>
      {picker.zoneLabel ? <p className="mt-1 text-sm text-muted">{t('picker.zone', { zone: picker.zoneLabel })}</p> : null}
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-3 space-y-5 rounded-2xl bg-white p-5 shadow-sm">
        <FormError id={form.errorId} errors={form.errors} />
        {reply?.taken ? (
          <fieldset>
            <legend className="font-medium">{reply.taken.length ? t('picker.nearest') : t('picker.noNearest')}</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">{reply.taken.map((choice) => radio(choice, 'nearest'))}</div>
          </fieldset>
        ) : null}
        {times.length > 0 || extra ? (
          <fieldset>
            <legend className="font-medium">{reply?.taken ? t('picker.otherTimes') : t('picker.chooseTime')}</legend>
            <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
              {extra ? radio(extra, 'chosen') : null}
              {times.map((time) => radio(time, 'time'))}
            </div>
            <ErrorList id={fields.start_time.errorId} errors={fields.start_time.errors} />
          </fieldset>
        ) : (
          <>
            {picker.unavailable ? null : <p className="text-muted">{t('picker.noTimes')}</p>}
            <ErrorList id={fields.start_time.errorId} errors={fields.start_time.errors} />
          </>
        )}
        <div>
          <label htmlFor={fields.notes.id} className="block font-medium text-ink">
            {t('picker.notes')}
          </label>
          <p id={`${fields.notes.id}-hint`} className="text-sm text-muted">
            {t('picker.notesHint', { max: NOTES_MAX_LENGTH })}
          </p>
          <textarea
            {...getTextareaProps(fields.notes)}
            rows={4}
            aria-describedby={[`${fields.notes.id}-hint`, fields.notes.errors?.length ? fields.notes.errorId : null].filter(Boolean).join(' ')}
            className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
          />
          <ErrorList id={fields.notes.errorId} errors={fields.notes.errors} />
        </div>
        {/* The review step's key, kept through a failure: confirming again is the same booking (decision 0034). */}
        {typeof fields.idempotency_key.initialValue === 'string' ? <input type="hidden" name={fields.idempotency_key.name} value={fields.idempotency_key.initialValue} /> : null}
        {/* How the patient chose to pay, kept through a failure: the review checks it again. */}
        {typeof fields.payment.initialValue === 'string' ? <input type="hidden" name={fields.payment.name} value={fields.payment.initialValue} /> : null}
        <SubmitButton name="intent" value="review" className="btn-primary" pendingText={t('picker.checking')}>
          {mode === 'book' ? t('picker.continue') : t('reschedule.continue')}
        </SubmitButton>
      </Form>
    </section>
  )
}

function ReviewStep({ review, mode }: { review: Extract<BookingReply, { step: 'review' }>['review']; mode: 'book' | 'reschedule' }) {
  const { t } = useTranslation('appointments')
  return (
    <section aria-labelledby="review-title" className="mt-6 max-w-2xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="review-title" className="text-2xl font-semibold">
        {mode === 'book' ? t('review.title') : t('reschedule.reviewTitle')}
      </h2>
      <p className="mt-1 text-muted">{t('review.lead')}</p>
      <dl className="mt-4 space-y-3">
        <div>
          <dt className="text-sm text-muted">{t('review.when')}</dt>
          <dd className="font-medium">{t('review.whenValue', { when: review.when, ends: review.ends })}</dd>
          {review.zoneLabel ? <dd className="text-sm text-muted">{t('picker.zone', { zone: review.zoneLabel })}</dd> : null}
        </div>
        <div>
          <dt className="text-sm text-muted">{t('review.duration')}</dt>
          <dd className="font-medium">{t('minutes', { count: review.minutes })}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted">{t('review.notes')}</dt>
          <dd className="whitespace-pre-line">{review.notes || t('review.noNotes')}</dd>
        </div>
        {review.payment ? (
          <div>
            <dt className="text-sm text-muted">{t('professional.price')}</dt>
            <dd className="font-medium">{review.payment.price}</dd>
          </div>
        ) : null}
      </dl>
      <Form method="post" className="mt-6 flex flex-wrap gap-3">
        {review.payment ? <PaymentChoice payment={review.payment} /> : null}
        <input type="hidden" name="start_time" value={review.start} />
        {/* The end, for the check of the professional's Google Calendar on confirming. */}
        <input type="hidden" name="end_time" value={new Date(Date.parse(review.start) + review.minutes * 60_000).toISOString()} />
        <input type="hidden" name="notes" value={review.notes} />
        {/* Made by the server for this booking: sent again after a lost answer, it is the same booking, never a second. */}
        <input type="hidden" name="idempotency_key" value={review.key} />
        <SubmitButton name="intent" value="confirm" className="btn-primary" pendingText={t('review.confirming')}>
          {mode === 'book' ? t('review.confirm') : t('reschedule.confirm')}
        </SubmitButton>
        <button type="submit" name="intent" value="back" className="btn-secondary" formNoValidate>
          {t('review.back')}
        </button>
      </Form>
    </section>
  )
}

/** How to pay a consultation with a price: a package's credit, PIX or card (radio buttons of the confirm form). */
function PaymentChoice({ payment }: { payment: PaymentView }) {
  const { t } = useTranslation('appointments')
  return (
    <fieldset className="w-full">
      <legend className="font-medium">{t('payment.legend')}</legend>
      <p className="text-sm text-muted">{t('payment.lead')}</p>
      <div className="mt-2 grid gap-2">
        {payment.options.map((option) => (
          <label key={option.value} className="flex min-h-11 items-start gap-3 rounded-lg border border-gray-300 bg-white px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
            <input type="radio" name="payment" value={option.value} defaultChecked={option.value === payment.chosen} aria-describedby={`payment-${option.value}-hint`} className="mt-1 size-5 accent-brand-700" />
            <span>
              <span className="block font-medium">{option.label}</span>
              <span id={`payment-${option.value}-hint`} className="block text-sm text-muted">
                {option.hint}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}

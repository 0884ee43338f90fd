import { randomBytes } from 'node:crypto'
import { type SubmissionResult } from '@conform-to/react'
import { type TFunction } from 'i18next'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from '@remix-run/node'
import {
  type Slot,
  availabilityWindow,
  formatDate,
  formatDateTime,
  formatPrice,
  formatShortDateTime,
  formatTime,
  groupDatesByWeek,
  groupSlotsByDate,
  nearestSlots,
  pickDate,
  shouldLabelTimeZone,
  timeLabels,
  timeZoneLabel,
} from '#app/domain/appointments.ts'
import { type ConsultationPayment, defaultPayment, paymentOptions } from '#app/domain/consultation-payment.ts'
import { isDateInRange } from '#app/domain/date-range.ts'
import { getEnv } from '#app/env.server.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { type Appointment, type Availability, INSTANT_PATTERN } from '#app/provider/appointment-schemas.ts'
import { getAvailability } from '#app/provider/appointments.server.ts'
import { checkCalendarAvailability } from '#app/provider/calendar.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { failureInit, failureText, messageText } from '#app/utils/messages.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { type BookingReply, type Choice, type PaymentView, type PickerView, bookingIntentOf, bookingSchema, startTimeMessage, upcomingLimitMessage } from '#app/forms/appointment-forms.ts'

/**
 * The date and time picker of booking and rescheduling (docs/decisions/0023): the loader's view of
 * the free times, and the action's steps: pick → review → confirm, each answer carrying what was
 * typed, so nothing is lost when the time was taken meanwhile or the provider fails.
 */

/**
 * The professional's free times from now on, as far as the booking page reads them. With `byDate`
 * (the patient's zone and the date asked for), the provider groups them: the dates with their
 * counts and one date's times, a small answer instead of every time of 60 days.
 */
export const fetchAvailability = (auth: SignedInCaller, professionalId: number, byDate?: { timeZone: string; date: string | null }) =>
  getAvailability(auth, professionalId, availabilityWindow(new Date()), byDate ? { timeZone: byDate.timeZone, date: isDateInRange(byDate.date) ? byDate.date : undefined } : {})

/** Adds the appointment's own time (rescheduling: it counts as free) when the provider left it out. */
function withOwnSlot(slots: readonly Slot[], own: Slot | undefined): Slot[] {
  if (!own || slots.some((slot) => Date.parse(slot.start) === Date.parse(own.start))) return [...slots]
  return [...slots, own]
}

/** The dates with free times (and their counts) in the patient's zone, and the chosen date's times. */
function datesAndTimes(availability: Availability, patientZone: string, requestedDate: string | null, own: Slot | undefined) {
  // Grouped by the provider (fetchAvailability's `byDate`); rescheduling reads every time, its own added.
  if (availability.days && !own) return { days: availability.days, date: availability.date ?? null, times: availability.slots }
  const grouped = groupSlotsByDate(withOwnSlot(availability.slots, own), patientZone)
  const date = pickDate(
    grouped.map((day) => day.date),
    requestedDate,
  )
  return { days: grouped.map((day) => ({ date: day.date, count: day.slots.length })), date, times: grouped.find((day) => day.date === date)?.slots ?? [] }
}

/** The picker as the page shows it: dates with free times (by week) in the patient's zone, the chosen date's times. */
export function pickerView({
  availability,
  patientZone,
  language,
  requestedDate,
  own,
  t,
}: {
  availability: Availability | null
  patientZone: string
  language: Language
  requestedDate: string | null
  own?: Slot
  t: TFunction
}): PickerView {
  if (!availability) return { zoneLabel: null, weeks: [], selected: null, unavailable: true }
  const { days, date, times } = datesAndTimes(availability, patientZone, requestedDate, own)
  const counts = new Map(days.map((day) => [day.date, day.count]))
  const ownStart = own ? Date.parse(own.start) : NaN
  const firstTime = times[0]
  return {
    zoneLabel: firstTime && shouldLabelTimeZone(patientZone, availability.time_zone) ? timeZoneLabel(patientZone, language, firstTime.start) : null,
    weeks: groupDatesByWeek(days.map((day) => day.date)).map((week) => ({
      weekStart: week.weekStart,
      label: t('picker.week', { date: formatDate(week.weekStart, language, 'dayMonth') }),
      dates: week.dates.map((day) => ({ date: day, label: formatDate(day, language, 'short'), count: counts.get(day) ?? 0, selected: day === date })),
    })),
    selected:
      date && times.length > 0
        ? {
            date,
            label: formatDate(date, language, 'long'),
            times: timeLabels(times, patientZone, language).map((slot) => ({
              value: slot.start,
              label: slot.label,
              current: Date.parse(slot.start) === ownStart,
            })),
          }
        : null,
    unavailable: false,
  }
}

/** The length assumed for the calendar check when the review did not say (the product's default consultation). */
const DEFAULT_CONSULTATION_MINUTES = 50
const DAY_MS = 24 * 60 * 60 * 1000
/**
 * The calendar check waits at most this long: Google is asked live behind it, and a slow answer
 * counts as a failed check (the booking goes on) rather than a booking lost to a timeout.
 */
const CALENDAR_CHECK_TIMEOUT_MS = 4_000

/** The end of the chosen time: the review's (a hidden field), else the appointment's own length, else the default. */
function chosenEnd(raw: FormDataEntryValue | null, start: string, own: Slot | undefined): string {
  const from = Date.parse(start)
  if (typeof raw === 'string' && INSTANT_PATTERN.test(raw)) {
    const end = Date.parse(raw)
    if (end > from && end - from <= DAY_MS) return new Date(end).toISOString()
  }
  const length = own ? Date.parse(own.end) - Date.parse(own.start) : DEFAULT_CONSULTATION_MINUTES * 60_000
  return new Date(from + (length > 0 && length <= DAY_MS ? length : DEFAULT_CONSULTATION_MINUTES * 60_000)).toISOString()
}

/**
 * The professional's Google Calendar on the chosen time, asked live (decision 0025): busy, free,
 * or not known. docs/product.md §8: a failed check (a throttled one too) counts as free, and the patient is
 * told it could not be made. Rescheduling, the appointment's own event (inside its current time) is
 * not in the way: a patient's answer already leaves it out (it carries no periods); an answer with
 * periods is read here the same way.
 */
async function calendarCheck(
  auth: SignedInCaller,
  request: Request,
  { professionalId, start, end, own }: { professionalId: number; start: string; end: string; own?: Slot },
): Promise<'free' | 'busy' | 'unverified'> {
  // Our own deadline, beside the visitor's, before the fetch wrapper's: a deadline of ours is a
  // failed check, where the wrapper's would mark the provider unreachable and lose the booking.
  const deadline = AbortSignal.timeout(Math.min(CALENDAR_CHECK_TIMEOUT_MS, Math.floor(getEnv().PROVIDER_TIMEOUT_MS / 2)))
  try {
    const answer = await checkCalendarAvailability(auth, { start_time: start, end_time: end, professional_id: professionalId }, { signal: AbortSignal.any([request.signal, deadline]) })
    if (answer.available) return 'free'
    if (!own || answer.conflicts.length === 0) return 'busy'
    const inOwnTime = (conflict: { start: string; end: string }) => Date.parse(conflict.start) >= Date.parse(own.start) && Date.parse(conflict.end) <= Date.parse(own.end)
    return answer.conflicts.every(inOwnTime) ? 'free' : 'busy'
  } catch (error) {
    if (error instanceof ProviderError) return 'unverified'
    if (deadline.aborted && !request.signal.aborted) return 'unverified'
    throw error
  }
}

/**
 * The review's payment for a consultation with a price (decision 0051): the price as the provider
 * has it now, a credit while the patient has one for this professional, PIX and card; the way
 * chosen before stays checked. Null when the consultation is free.
 */
function paymentView(availability: Availability, previous: string | undefined, language: Language, t: TFunction): PaymentView | null {
  const priceCents = availability.professional?.price_cents ?? 0
  const credits = availability.credits_available ?? 0
  const options = paymentOptions({ priceCents, credits })
  const chosen = defaultPayment(options, previous)
  if (!chosen) return null
  return {
    price: formatPrice(priceCents, language, availability.professional?.currency || 'BRL'),
    options: options.map((value) => ({
      value,
      label: value === 'credit' ? t('appointments:payment.credit', { count: credits }) : t(`shop:checkout.methods.${value}.label`),
      hint: t(`appointments:payment.${value}Hint`),
    })),
    chosen,
  }
}

/** Where a card's payment page sends the patient back: the purchase's page (the provider puts its id in). */
export const paymentReturnUrl = () => `${getEnv().APP_PUBLIC_URL}/compras/{PURCHASE_ID}`

/**
 * A booking whose time is held for its payment (decision 0051): a card goes to the payment
 * service's page; PIX, to the purchase's page with its code. Anything else is booked: undefined.
 */
export async function paymentStep(appointment: Appointment): Promise<Response | undefined> {
  const payment = appointment.payment
  if (appointment.status !== 'awaiting_payment' || !payment) return undefined
  if (payment.checkout_url) return redirect(payment.checkout_url, { status: 303 })
  if (payment.purchase_id) return redirectWithToast(`/compras/${payment.purchase_id}`, { type: 'success', message: { key: 'appointments:payment.held' }, durationMs: 10_000 })
  return undefined
}

/** The provider's codes for a payment that could not start (Stripe away, or payments not set up): nothing was booked. */
const PAYMENT_SERVICE_AWAY = ['payment_provider_unavailable', 'payments_off']

/** A new idempotency key: 18 random bytes, URL-safe (24 characters). */
const newIdempotencyKey = () => randomBytes(18).toString('base64url')

/**
 * Whether a failed confirmation may still have been carried out: the provider was not reached in
 * time, or answered something other than a refusal (a server error, an answer we could not read).
 */
function mayHaveGoneThrough(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false
  return error.isNetwork || (error.status ?? 0) >= 500
}

/**
 * The booking form's action, for booking (create) and rescheduling (update): `review` checks the
 * chosen time against the free times again and shows the review; `back` returns to the picker
 * with everything kept; `confirm` asks the professional's Google Calendar about the time, then
 * sends it. A time taken meanwhile (checked here, busy in the calendar, or the provider's 409)
 * offers the nearest free times; a provider failure keeps what was typed.
 *
 * The review step makes an idempotency key (decision 0034) that travels hidden with the form from
 * then on, through failures too: a confirmation that failed without an answer (the booking may
 * have gone through) says so, and sending it again is the same booking at the provider. A time
 * that looks taken when the form carries a key is first looked up as the patient's own booking
 * (`recover`), so they are never told their own booking is someone else's.
 */
export async function bookingAction(
  request: Request,
  {
    auth,
    patientZone,
    target,
    paid = false,
    submit,
    done,
    recover,
    mayHaveGoneThroughKey,
  }: {
    auth: SignedInCaller
    patientZone: string
    /** Whose free times the chosen time must be among (and, rescheduling, the appointment's own time). */
    target: () => Promise<{ professionalId: number; own?: Slot }>
    /** Booking (not rescheduling): a consultation with a price is paid, and the review asks how. */
    paid?: boolean
    submit: (values: { start_time: string; notes: string; idempotency_key: string; payment?: ConsultationPayment }) => Promise<Appointment>
    /**
     * `calendarUnverified`: the calendar check failed, the patient is to be told (docs/product.md §8);
     * `earlier`: it had been done already, by an earlier submission whose answer was lost.
     */
    done: (appointment: Appointment, outcome: { calendarUnverified: boolean; earlier: boolean }) => Promise<Response>
    /** The appointment an earlier submission with this key made, if any (booking; a reschedule's own time is free anyway). */
    recover?: (key: string) => Promise<Appointment | null>
    /** What to add after a failure that may have gone through (a translation key). */
    mayHaveGoneThroughKey: string
  },
) {
  const form = await readFormData(request)
  const intent = bookingIntentOf(form.get('intent'))
  const submission = parseWithZod(form, { schema: bookingSchema })
  const [t, language] = await Promise.all([getFixedT(request, ['appointments', 'common', 'shop']), languageOf(request)])
  if (submission.status !== 'success') {
    return data({ step: 'pick', result: submission.reply(), chosen: null, taken: null } satisfies BookingReply, { status: 400 })
  }
  const values = submission.value
  // Made once, when the review is first shown; from then on it comes back with the form.
  const key = values.idempotency_key ?? newIdempotencyKey()
  const chosen = { value: values.start_time, label: formatDateTime(values.start_time, patientZone, language) }
  const pick = (result: SubmissionResult<string[]>, init: ResponseInit = {}, taken: Choice[] | null = null) =>
    data({ step: 'pick', result: { ...result, initialValue: { ...result.initialValue, idempotency_key: key } }, chosen: taken ? null : chosen, taken } satisfies BookingReply, init)
  const failure = (error: unknown) => pick(submission.reply({ formErrors: [failureText(t, error)] }), failureInit(error))
  /** The patient's own booking with this form's key, when an earlier submission made it: its page. */
  const earlierBooking = async () => {
    if (!values.idempotency_key || !recover) return undefined
    const found = await recover(values.idempotency_key)
    return found ? done(found, { calendarUnverified: false, earlier: true }) : undefined
  }
  const takenReply = (nearest: readonly string[]) => {
    // The taken time is no longer checked: the patient picks one of the others.
    const result = submission.reply({ formErrors: [t('booking.taken')] })
    return pick(
      { ...result, initialValue: { ...result.initialValue, start_time: '' } },
      { status: 409 },
      nearest.filter((value) => INSTANT_PATTERN.test(value)).map((value) => ({ value, label: formatShortDateTime(value, patientZone, language) })),
    )
  }

  if (intent === 'back') return pick(submission.reply())

  if (intent === 'review') {
    let availability: Availability
    let own: Slot | undefined
    try {
      const chosenFrom = await target()
      own = chosenFrom.own
      availability = await fetchAvailability(auth, chosenFrom.professionalId)
    } catch (error) {
      return failure(error)
    }
    const slots = withOwnSlot(availability.slots, own)
    const slot = slots.find((candidate) => Date.parse(candidate.start) === Date.parse(values.start_time))
    if (!slot) {
      try {
        const earlier = await earlierBooking()
        if (earlier) return earlier
      } catch (error) {
        return failure(error)
      }
      return takenReply(nearestSlots(slots, values.start_time).map((candidate) => candidate.start))
    }
    return data({
      step: 'review',
      result: submission.reply(),
      review: {
        start: slot.start,
        notes: values.notes,
        when: formatDateTime(slot.start, patientZone, language),
        ends: formatTime(slot.end, patientZone, language),
        minutes: Math.round((Date.parse(slot.end) - Date.parse(slot.start)) / 60_000),
        zoneLabel: shouldLabelTimeZone(patientZone, availability.time_zone) ? timeZoneLabel(patientZone, language, slot.start) : null,
        key,
        payment: paid ? paymentView(availability, values.payment, language, t) : null,
      },
    } satisfies BookingReply)
  }

  // confirm: the professional's Google Calendar first, live.
  let chosenFrom: { professionalId: number; own?: Slot }
  try {
    chosenFrom = await target()
  } catch (error) {
    return failure(error)
  }
  const check = await calendarCheck(auth, request, {
    professionalId: chosenFrom.professionalId,
    start: values.start_time,
    end: chosenEnd(form.get('end_time'), values.start_time, chosenFrom.own),
    own: chosenFrom.own,
  })
  if (check === 'busy') {
    // Busy with the patient's own booking, made by an earlier submission of this form: that booking.
    try {
      const earlier = await earlierBooking()
      if (earlier) return earlier
    } catch (error) {
      return failure(error)
    }
    // As a time taken meanwhile: the nearest free times (the busy one aside), the notes kept.
    const slots = await fetchAvailability(auth, chosenFrom.professionalId).then(
      (availability) => withOwnSlot(availability.slots, chosenFrom.own).filter((slot) => Date.parse(slot.start) !== Date.parse(values.start_time)),
      (error: unknown) => {
        if (error instanceof ProviderError) return []
        throw error
      },
    )
    return takenReply(nearestSlots(slots, values.start_time).map((slot) => slot.start))
  }

  let appointment: Appointment
  try {
    appointment = await submit({ start_time: values.start_time, notes: values.notes, idempotency_key: key, ...(values.payment && { payment: values.payment }) })
  } catch (error) {
    // The payment service did not answer: nothing was booked (the provider undid it), so the
    // patient may simply try again.
    if (error instanceof ProviderError && PAYMENT_SERVICE_AWAY.includes(error.code ?? '')) return pick(submission.reply({ formErrors: [t('payment.unavailable')] }), failureInit(error))
    // No answer, or none we can read: it may have been done. Said so, with everything kept and
    // the same key, so that confirming again gives that booking back instead of a second one.
    if (mayHaveGoneThrough(error)) return pick(submission.reply({ formErrors: [failureText(t, error), t(mayHaveGoneThroughKey)] }), failureInit(error))
    if (!(error instanceof ProviderError) || error.failure.kind !== 'http') return failure(error)
    const { status, fieldErrors, detail } = error.failure
    // The patient holds as many upcoming appointments as allowed: said, the time and notes kept.
    if (status === 409 && error.code === 'upcoming_limit') return pick(submission.reply({ formErrors: [messageText(t, upcomingLimitMessage(detail))] }), { status: 409 })
    // The package's last credit went meanwhile (another booking): the time and notes kept, PIX or card offered.
    if (status === 409 && error.code === 'no_credit') return pick(submission.reply({ formErrors: [t('payment.noCredit')] }), { status: 409 })
    if (status === 400 && fieldErrors?.payment?.length) return pick(submission.reply({ formErrors: [t('payment.choose')] }), { status: 400 })
    if (status === 409) return takenReply(fieldErrors?.nearest ?? [])
    if (status === 400 && (fieldErrors?.start_time?.length || fieldErrors?.notes?.length)) {
      const errors: Record<string, string[]> = {}
      if (fieldErrors.start_time?.length) errors.start_time = fieldErrors.start_time.map((message) => messageText(t, startTimeMessage(message)))
      if (fieldErrors.notes?.length) errors.notes = ['appointments:validation.notesTooLong']
      return pick(submission.reply({ fieldErrors: errors }), { status: 400 })
    }
    return failure(error)
  }
  // An answer for another time than the one sent: the key's earlier booking, given back.
  return done(appointment, { calendarUnverified: check === 'unverified', earlier: Date.parse(appointment.start_time) !== Date.parse(values.start_time) })
}

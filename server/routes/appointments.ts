import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import {
  freeTimes,
  freeTimesByDate,
  isClear,
  nearestFree,
  startTimeProblem,
  type Booking,
  type BusyInterval,
  type DateException,
  type ScheduleRules,
} from '#server/appointments/free-times.ts'
import { addDays, localDateOf, startOfLocalDay } from '#server/dates.ts'
import {
  bookableProfessionals,
  bookingRulesOf,
  bookingsOf,
  countAppointments,
  deleteAppointment,
  exceptionsOf,
  findAppointmentView,
  findBookableProfessional,
  findAppointmentByKey,
  findBookableProfessionalWithRules,
  findProfile,
  insertAppointment,
  lockBookingsOf,
  listAppointmentViews,
  professionalAppointmentViews,
  saveSchedule,
  updateAppointment,
  updateOpenAppointment,
  upcomingLimitReached,
  type AppointmentPeriod,
  type AppointmentRow,
  type AppointmentScope,
  type AppointmentView,
  type LimitReached,
  type ProfileRow,
} from '#server/appointments/repository.ts'
import { afterCancellations, cancelOpenAppointment } from '#server/appointments/cancellation.ts'
import { recordHealthViews } from '#server/audit/health-views.ts'
import { adminCancelEntry, adminMoveEntry } from '#server/appointments/admin-audit.ts'
import { adminScope, appointmentListFilters } from '#server/appointments/list-filters.ts'
import { recordAudit } from '#server/audit/repository.ts'
import { dispatchDueMessages, logDroppedMail, moveScheduledMessages, queueAppointmentNotice } from '#server/appointments/reminders.ts'
import { parseSchedule } from '#server/appointments/schedule.ts'
import { serializeAppointment, serializeBookableProfessional, serializeSchedule } from '#server/appointments/serializers.ts'
import { authenticate, authenticateWithRole, authenticateWithRoleUsing, roleOf, type Caller } from '#server/auth/authenticate.ts'
import { findSessionUserWithProfessionalContext } from '#server/auth/session-users.ts'
import { mirrorAppointmentDeletion, mirrorAppointmentLater } from '#server/calendar/appointment-events.ts'
import { busyIntervalsOf, calendarBusyTimes } from '#server/calendar/busy-time.ts'
import { isExclusionViolation, isUniqueViolation } from '#server/db/errors.ts'
import { PILLAR_SLUGS, WEEKDAYS, type CancelledBy, type WeeklyAvailability } from '#server/db/schema.ts'
import { idParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { ApiError, apiError, fieldError, notFound, permissionDenied, validationError } from '#server/http/errors.ts'
import type { QueuedMail } from '#server/mail/outbox.ts'
import {
  charField,
  choiceField,
  DATE_FORMAT_MESSAGE,
  dateField,
  dateRangeProblem,
  idempotencyKeyField,
  idField,
  instantField,
  instantRangeProblem,
  integerField,
  isIsoDate,
  isUsableTimeZone,
  parseInstant,
  TIME_ZONE_MESSAGE,
  validate,
} from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'
import { cancellationQuote, serializeCancellationQuote } from '#server/appointments/paid.ts'
import { consultationLineName } from '#server/purchases/consultation-lines.ts'
import { cancelPurchase } from '#server/billing/cancellation.ts'
import { CONSULTATION_HOLD_MS, insertConsultationPurchase, startConsultationPayment } from '#server/billing/checkout.ts'
import { urlField } from '#server/purchases/input.ts'
import { countUsableCredits, findPurchase, useCredit, type PurchaseRow } from '#server/purchases/repository.ts'
import { enforceThrottle } from '#server/routes/throttling.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** The longest window GET /appointments/calendar/availability/ answers for. */
const MAX_AVAILABILITY_DAYS = 62
/** The consultation room opens this long before the start. */
const ROOM_OPENS_BEFORE_MINUTES = 10
/** A patient's cancellation at least this long before the start is refunded in full (docs/product.md §9). */
export const FULL_REFUND_NOTICE_HOURS = 24

const SLOT_TAKEN = 'This time is no longer available.'
const NO_CREDIT = 'You have no consultation credit left for this professional.'
const PAYMENT_REQUIRED = 'This consultation has a price: say how it is paid (credit, pix or card).'
const AWAITING_PAYMENT = 'This appointment is held for its payment: it can change once it is paid.'
/** The `code` of a booking refused because the patient holds as many upcoming appointments as allowed (decision 0034). */
const UPCOMING_LIMIT = 'upcoming_limit'
const CONSTRAINT = 'appointments_no_overlap'
const WINDOW_FORMAT = 'Enter a date as YYYY-MM-DD or a date and time with its offset, e.g. 2026-12-01T12:00:00Z.'

const STATUS_CHOICES = ['confirmed', 'completed', 'no_show'] as const

/** A choice as DRF echoes it, cut short: the value may be megabytes long. */
const invalidChoice = (value: string) => `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}" is not a valid choice.`

const KEY_INDEX = 'appointments_patient_idempotency_key_unique'
// Answers for one patient: never kept by a cache on the way.
const PRIVATE = { 'Cache-Control': 'private, no-store' }

/** How a consultation with a price is paid (decision 0051): a package's credit, or a payment that holds the time. */
const CONSULTATION_PAYMENTS = ['credit', 'pix', 'card'] as const
const createSchema = z.object({
  professional_id: idField(),
  start_time: instantField(),
  notes: charField({ maxLength: 1000, allowBlank: true }).optional(),
  idempotency_key: idempotencyKeyField().optional(),
  payment: choiceField(CONSULTATION_PAYMENTS).optional(),
  success_url: urlField().optional(),
  cancel_url: urlField().optional(),
})
const rescheduleSchema = z.object({
  start_time: instantField(),
  notes: charField({ maxLength: 1000, allowBlank: true }).optional(),
  idempotency_key: idempotencyKeyField().optional(),
})
const cancelSchema = z.object({ reason: charField({ maxLength: 1000, allowBlank: true }).optional() })
const statusSchema = z.object({
  status: z
    .unknown()
    .transform((value, context) => {
      if (typeof value === 'string' && (STATUS_CHOICES as readonly string[]).includes(value)) return value as (typeof STATUS_CHOICES)[number]
      context.addIssue({ code: 'custom', message: value === null ? 'This field may not be null.' : invalidChoice(typeof value === 'string' ? value : JSON.stringify(value) ?? '') })
      return z.NEVER
    })
    .optional(),
  shared_notes: charField({ maxLength: 5000, allowBlank: true }).optional(),
  private_notes: charField({ maxLength: 5000, allowBlank: true }).optional(),
})
const dashboardSchema = z.object({
  start: dateField().optional(),
  days: integerField({ min: 1, max: 31 }).optional(),
})

const rulesOf = (profile: ProfileRow): ScheduleRules => ({
  timeZone: profile.timeZone,
  consultationMinutes: profile.consultationMinutes,
  bufferMinutes: profile.bufferMinutes,
  minimumNoticeHours: profile.minimumNoticeHours,
  horizonDays: profile.horizonDays,
  availability: profile.availability,
})

const CLOSED_WEEK = Object.fromEntries(WEEKDAYS.map((day) => [day, { enabled: false, slots: [] }])) as unknown as WeeklyAvailability

/** Who the caller is to an appointment: its patient, its professional, an admin, or nobody. */
function relationTo(caller: Caller, appointment: AppointmentRow): CancelledBy | undefined {
  if (appointment.patientId === caller.user.id) return 'patient'
  if (appointment.professionalId === caller.user.id) return 'professional'
  if (roleOf(caller.groups) === 'admin') return 'admin'
  return undefined
}

/** Why an appointment can no longer be moved or cancelled, if it cannot. */
function closedReason(appointment: AppointmentRow, now: number): string | undefined {
  if (appointment.status === 'cancelled') return 'This appointment is already cancelled.'
  if (appointment.status === 'completed' || appointment.status === 'no_show') return 'This appointment has already taken place.'
  if (appointment.startTime.getTime() <= now) return 'This appointment has already started.'
  return undefined
}

/** The 409 of a booking past one of the patient's limits: `scope` says which, `limit` its value. */
function upcomingLimit({ limit, max }: LimitReached) {
  const detail = limit === 'professional' ? `You already have ${max} upcoming appointments with this professional.` : `You already have ${max} upcoming appointments.`
  return apiError(409, detail, { code: UPCOMING_LIMIT, scope: limit, limit: max })
}

/** Consultations, booking and schedules (docs/product.md §7 "Appointments", decision 0023). */
export function registerAppointmentRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const photoBase = config.providerPublicUrl
  /**
   * An appointment as `caller` may read it: its professional and admins also get the private notes,
   * and each of its people what cancelling it now would give back (decision 0051).
   */
  const serialize = (view: AppointmentView, caller?: Caller) => {
    const relation = caller && relationTo(caller, view.appointment)
    const quote = relation && !closedReason(view.appointment, clock()) ? cancellationQuote(view, relation, clock()) : null
    return serializeAppointment(view, photoBase, {
      careTeam: caller !== undefined && (caller.user.id === view.appointment.professionalId || roleOf(caller.groups) === 'admin'),
      cancellation: quote && serializeCancellationQuote(quote),
    })
  }
  /**
   * The private notes an answer carries to the appointment's professional or an admin are a read of
   * the patient's health data: one `health.view` per appointment with notes, one insert (decision 0059).
   */
  const recordNotesViews = (caller: Caller, views: AppointmentView[]) =>
    recordHealthViews(
      db,
      caller,
      views
        .filter(({ appointment }) => appointment.privateNotes !== '' && (appointment.professionalId === caller.user.id || roleOf(caller.groups) === 'admin'))
        .map(({ appointment }) => ({ targetType: 'appointment_notes' as const, targetId: appointment.id, patientId: appointment.patientId })),
      clock(),
    )
  const meetingLink = () => `${config.meetingBaseUrl}innera-${randomBytes(18).toString('base64url')}`

  /** What the free-time rules need about one professional, read now. */
  async function bookingContext(professionalId: number, now: number): Promise<{ exceptions: DateException[]; booked: Booking[]; busy: BusyInterval[] }> {
    const { exceptions, booked, events } = await bookingRulesOf(db, professionalId, now)
    return { exceptions, booked, busy: busyIntervalsOf(events) }
  }

  /** The 409 for a taken time, with the free times nearest to it (read again: the table just changed). */
  async function slotTaken(professionalId: number, rules: ScheduleRules, start: number, ignoreAppointmentId?: number) {
    const now = clock()
    const { exceptions, booked, busy } = await bookingContext(professionalId, now)
    const free = freeTimes({ schedule: rules, exceptions, booked, busy, now, ignoreAppointmentId })
    return apiError(409, SLOT_TAKEN, { code: 'slot_taken', nearest: nearestFree(start, free, 3).map((time) => new Date(time).toISOString()) })
  }

  /** Checks a start against the rules and the bookings; answers the field error or the 409. */
  async function checkStart(professionalId: number, rules: ScheduleRules, start: number, ignoreAppointmentId?: number): Promise<void> {
    const now = clock()
    const { exceptions, booked, busy } = await bookingContext(professionalId, now)
    const problem = startTimeProblem(rules, exceptions, now, start)
    if (problem) throw fieldError('start_time', problem)
    if (!isClear(rules, booked, start, ignoreAppointmentId, busy)) throw await slotTaken(professionalId, rules, start, ignoreAppointmentId)
  }

  /**
   * The appointment in the path, for a caller in one of the allowed relations. Someone who is none
   * of its patient, its professional or an admin gets 404, as for a missing one: nobody learns
   * which ids exist. One of its people whose part does not allow the action gets 403.
   */
  async function appointmentFor(c: AppContext, caller: Caller, allowed: CancelledBy[]): Promise<{ view: AppointmentView; relation: CancelledBy }> {
    const view = await findAppointmentView(db, idParam(c, 'id'))
    const relation = view && relationTo(caller, view.appointment)
    if (!view || !relation) throw notFound()
    if (!allowed.includes(relation)) throw permissionDenied()
    return { view, relation }
  }

  const reread = async (id: number) => (await findAppointmentView(db, id))!

  /** After the response: the appointment's due messages (its confirmations) into the outbox. */
  const sendDueMessagesOf = (appointmentId: number) =>
    services.background.run('appointment messages', () => dispatchDueMessages(db, { now: clock(), appPublicUrl: config.appPublicUrl, mail: config.mail, log: services.log, appointmentId }))

  api.endpoint('/appointments/professionals/', {
    GET: async (c) => {
      await authenticate(c, services)
      const pillar = c.req.query('pillar')?.trim() || undefined
      if (pillar !== undefined && !(PILLAR_SLUGS as readonly string[]).includes(pillar)) throw fieldError('pillar', invalidChoice(pillar))
      const professionals = await bookableProfessionals(db, pillar)
      const ids = professionals.map(({ user }) => user.id)
      const now = clock()
      const [exceptions, booked, busy] = await Promise.all([exceptionsOf(db, ids), bookingsOf(db, ids, now), calendarBusyTimes(db, ids, now)])
      return c.json(
        professionals.map(({ user, profile }) => {
          const [next] = freeTimes({ schedule: rulesOf(profile), exceptions: exceptions.get(user.id) ?? [], booked: booked.get(user.id) ?? [], busy: busy.get(user.id), now, limit: 1 })
          return serializeBookableProfessional(user, profile, next, photoBase)
        }),
      )
    },
  })

  api.endpoint('/appointments/calendar/availability/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const { professional_id: professionalId } = validate(z.object({ professional_id: idField() }), { professional_id: c.req.query('professional_id') })
      const now = clock()
      // A patient also learns how many consultations with them their packages still hold (decision 0051).
      const [found, credits] = await Promise.all([
        findBookableProfessionalWithRules(db, professionalId, now),
        roleOf(caller.groups) === 'paciente' ? countUsableCredits(db, caller.user.id, professionalId) : null,
      ])
      if (!found) throw notFound()
      const rules = rulesOf(found.profile)

      // A date is a whole local day in the professional's time zone; an instant is itself.
      const errors: Record<string, string[]> = {}
      const bound = (name: 'start' | 'end') => {
        const raw = c.req.query(name)?.trim()
        if (!raw) return undefined
        // Within the years 2000-2100 first: far outside them a zone's wall clock cannot be read.
        if (isIsoDate(raw)) {
          const problem = dateRangeProblem(raw)
          if (!problem) return startOfLocalDay(name === 'start' ? raw : addDays(raw, 1), rules.timeZone)
          errors[name] = [problem]
          return undefined
        }
        const instant = raw.length <= 64 ? parseInstant(raw) : undefined
        const problem = instant === undefined ? WINDOW_FORMAT : instantRangeProblem(instant)
        if (problem) errors[name] = [problem]
        return problem ? undefined : instant
      }
      const start = bound('start') ?? now
      const end = bound('end') ?? start + MAX_AVAILABILITY_DAYS * DAY
      if (Object.keys(errors).length === 0 && end <= start) errors.end = ['The end must be after the start.']
      if (Object.keys(errors).length === 0 && end - start > MAX_AVAILABILITY_DAYS * DAY) errors.end = [`The window can span at most ${MAX_AVAILABILITY_DAYS} days.`]
      // In a zone (the patient's, for their booking page): the dates with their counts, and one date's times.
      const zone = c.req.query('time_zone')?.trim()
      if (zone !== undefined && !isUsableTimeZone(zone)) errors.time_zone = [TIME_ZONE_MESSAGE]
      const wanted = c.req.query('date')?.trim()
      const dateProblem = wanted === undefined ? undefined : isIsoDate(wanted) ? dateRangeProblem(wanted) : DATE_FORMAT_MESSAGE
      if (dateProblem) errors.date = [dateProblem]
      if (wanted !== undefined && !zone) errors.date = ['A date needs its time_zone.']
      if (Object.keys(errors).length > 0) throw validationError(errors)

      const { exceptions, booked, events } = found.rules
      const busy = busyIntervalsOf(events)
      const free = freeTimes({ schedule: rules, exceptions, booked, busy, now, window: { start, end } })
      const length = rules.consultationMinutes * MINUTE
      // The professional comes along (their card on the booking page), so the page needs one call.
      // A window from now on (the booking page's) already starts with their next free time.
      const [next] = start <= now && free.length > 0 ? free : freeTimes({ schedule: rules, exceptions, booked, busy, now, limit: 1 })
      const byDate = zone ? freeTimesByDate(free, zone, wanted) : undefined
      return c.json({
        professional_id: professionalId,
        professional: serializeBookableProfessional(found.user, found.profile, next, photoBase),
        time_zone: rules.timeZone,
        consultation_minutes: rules.consultationMinutes,
        ...(credits !== null && { credits_available: credits }),
        ...(byDate ? { days: byDate.days, date: byDate.date } : {}),
        slots: (byDate?.times ?? free).map((time) => ({ start: new Date(time).toISOString(), end: new Date(time + length).toISOString() })),
      })
    },
  })

  api.endpoint('/appointments/create/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente')
      const { user } = caller
      const input = validate(createSchema, await readFields(c.req.raw))
      const key = input.idempotency_key
      // The same key is the same booking (decision 0034): its appointment again, whatever became of
      // the first answer (a client that gave up, a lost connection), and never a 409 against oneself.
      const bookedWithKey = () => (key === undefined ? Promise.resolve(undefined) : findAppointmentByKey(db, user.id, key))
      const replay = async (row: AppointmentRow) => c.json(serialize(await reread(row.id), caller), 200, PRIVATE)
      const earlier = await bookedWithKey()
      if (earlier) return replay(earlier)
      await enforceThrottle(services, 'bookingPerUser', String(user.id))
      try {
        return await book(c, caller, input)
      } catch (error) {
        // A refusal (the time now taken, a limit reached) may be the first request with this key
        // committing meanwhile: then that is the answer.
        const meanwhile = error instanceof ApiError || isUniqueViolation(error, KEY_INDEX) ? await bookedWithKey() : undefined
        if (meanwhile) return replay(meanwhile)
        throw error
      }
    },
  })

  async function book(c: AppContext, caller: Caller, input: z.output<typeof createSchema>) {
    const patientId = caller.user.id
    const found = await findBookableProfessional(db, input.professional_id)
    if (!found) throw fieldError('professional_id', `Invalid pk "${input.professional_id}" - object does not exist.`)
    const price = found.profile.priceCents
    const payment = price > 0 ? paymentOf(input) : undefined
    const limits = config.booking
    // Said before the time is checked (a patient at the limit needs no other time); decided below, under the patient's lock.
    const reached = await upcomingLimitReached(db, { patientId, professionalId: found.user.id, now: new Date(clock()), limits })
    if (reached) throw upcomingLimit(reached)
    const rules = rulesOf(found.profile)
    await checkStart(found.user.id, rules, input.start_time)

    const end = input.start_time + rules.consultationMinutes * MINUTE
    const now = clock()
    const holdExpiresAt = now + CONSULTATION_HOLD_MS
    // The purchase a held time is paid with, written with the booking: its payment starts once committed.
    let heldWith: PurchaseRow | undefined
    let outcome: Awaited<ReturnType<typeof insertAppointment>>
    try {
      outcome = await insertAppointment(
        db,
        {
          professionalId: found.user.id,
          patientId,
          startTime: new Date(input.start_time),
          endTime: new Date(end),
          blockedUntil: new Date(end + rules.bufferMinutes * MINUTE),
          notes: input.notes ?? '',
          meetingLink: meetingLink(),
          idempotencyKey: input.idempotency_key ?? null,
          createdAt: new Date(now),
          updatedAt: new Date(now),
          ...(payment && { priceCents: price }),
          ...(payment && payment.method !== 'credit' && { status: 'awaiting_payment', holdExpiresAt: new Date(holdExpiresAt) }),
        },
        new Date(now),
        limits,
        payment &&
          (async (tx) => {
            if (payment.method === 'credit') {
              const credit = await useCredit(tx, patientId, found.user.id, new Date(now))
              if (!credit) throw apiError(409, NO_CREDIT, { code: 'no_credit' })
              return { creditId: credit.id, paymentReference: `credit:${credit.id}` }
            }
            // Stored as the patient reads it at booking (Stripe's page shows it); each reader's line is composed when read (decision 0077).
            const name = consultationLineName({ professional: `${found.user.firstName} ${found.user.lastName}`.trim(), startsAt: new Date(input.start_time), timeZone: rules.timeZone }, caller.user.timeZone)
            heldWith = await insertConsultationPurchase(tx, patientId, { method: payment.method, priceCents: price, name, professionalId: found.user.id }, now)
            return { purchaseId: heldWith.id, paymentReference: `purchase:${heldWith.id}` }
          }),
      )
    } catch (error) {
      // Someone else took it between the check and the insert (another request or process).
      if (isExclusionViolation(error, CONSTRAINT)) throw await slotTaken(found.user.id, rules, input.start_time)
      throw error
    }
    if ('existing' in outcome) return c.json(serialize(await reread(outcome.existing.id), caller), 200, PRIVATE)
    if (!('created' in outcome)) throw upcomingLimit(outcome)
    const { created } = outcome
    if (created.status === 'awaiting_payment' && heldWith && payment) {
      try {
        await startConsultationPayment(services, heldWith, { id: patientId, email: caller.user.email }, { successUrl: payment.successUrl, cancelUrl: payment.cancelUrl, expiresAt: holdExpiresAt })
      } catch (error) {
        // Nothing to pay was shown, and the failed purchase released the time: the booking is
        // undone, so that the same key may book it again once the payment service is back.
        await deleteAppointment(db, created.id)
        throw error
      }
      return c.json(serialize(await reread(created.id), caller), 201, PRIVATE)
    }
    // The confirmations go out now rather than at the next tick (which would send them anyway).
    sendDueMessagesOf(created.id)
    mirrorAppointmentLater(services, created.id)
    return c.json(serialize(await reread(created.id), caller), 201, PRIVATE)
  }

  /**
   * How the booking of a consultation with a price is paid (decision 0051), and for a card where
   * Stripe's page goes back to. A consultation with a price is never booked unpaid.
   */
  function paymentOf(input: z.output<typeof createSchema>) {
    const method = input.payment
    if (method === undefined) throw fieldError('payment', PAYMENT_REQUIRED)
    if (method !== 'card') return { method, successUrl: null, cancelUrl: null }
    const errors: Record<string, string[]> = {}
    if (!input.success_url) errors.success_url = ['This field is required for a card payment.']
    if (!input.cancel_url) errors.cancel_url = ['This field is required for a card payment.']
    if (Object.keys(errors).length > 0) throw validationError(errors)
    return { method, successUrl: input.success_url!, cancelUrl: input.cancel_url! }
  }

  // What became of a booking whose answer was lost: the patient's appointment with that key, or 404.
  api.endpoint('/appointments/by-idempotency-key/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const { key } = validate(z.object({ key: idempotencyKeyField() }), { key: c.req.query('key') })
      const row = await findAppointmentByKey(db, user.id, key)
      if (!row) throw notFound()
      return c.json(serialize(await reread(row.id)), 200, PRIVATE)
    },
  })

  api.endpoint('/appointments/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const when = c.req.query('when')?.trim() || undefined
      if (when !== undefined && when !== 'upcoming' && when !== 'past') throw fieldError('when', invalidChoice(when))
      const role = roleOf(caller.groups)
      // `patient`: a professional's (or an admin's) appointments with one patient.
      const patientQuery = c.req.query('patient')?.trim() || undefined
      const patientId = patientQuery !== undefined && role !== 'paciente' ? validate(z.object({ patient: idField() }), { patient: patientQuery }).patient : undefined
      // `professional` (admins: one professional's schedule, for support), `from`, `to` and `status` (decision 0061).
      const { professionalId, filters } = appointmentListFilters((name) => c.req.query(name), caller.user.timeZone)
      const scope: AppointmentScope =
        role === 'admin'
          ? adminScope(professionalId, patientId)
          : role === 'profissional'
            ? { professionalId: caller.user.id, ...(patientId !== undefined && { patientId }) }
            : { patientId: caller.user.id }
      const now = new Date(clock())
      const period = when as AppointmentPeriod
      const page = paginate(c, await countAppointments(db, scope, period, now, filters))
      const views = await listAppointmentViews(db, scope, period, now, page, filters)
      await recordNotesViews(caller, views)
      return c.json(page.envelope(views.map((view) => serialize(view, caller))))
    },
  })

  api.endpoint('/appointments/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const { view } = await appointmentFor(c, caller, ['patient', 'professional', 'admin'])
      await recordNotesViews(caller, [view])
      return c.json(serialize(view, caller))
    },
  })

  const reschedule = async (c: AppContext) => {
    const caller = await authenticate(c, services)
    const { view, relation } = await appointmentFor(c, caller, ['patient', 'admin'])
    const { appointment } = view
    const input = validate(rescheduleSchema, await readFields(c.req.raw))
    const key = input.idempotency_key
    // This reschedule already moved it (its answer was lost): the appointment as it is, nothing moved again.
    if (key !== undefined && appointment.rescheduleKey === key) return c.json(serialize(view, caller), 200, PRIVATE)
    await enforceThrottle(services, 'reschedulePerUser', String(caller.user.id))
    const closed = closedReason(appointment, clock())
    if (closed) throw apiError(400, closed)
    if (appointment.status === 'awaiting_payment') throw apiError(400, AWAITING_PAYMENT)
    const found = await findBookableProfessional(db, appointment.professionalId)
    if (!found) throw apiError(400, 'This professional is not taking appointments.')
    const rules = rulesOf(found.profile)
    await checkStart(appointment.professionalId, rules, input.start_time, appointment.id)

    const end = input.start_time + rules.consultationMinutes * MINUTE
    let updated: AppointmentRow | undefined
    let notices: QueuedMail[] = []
    try {
      const now = new Date(clock())
      const newStart = new Date(input.start_time)
      updated = await db.transaction(async (tx) => {
        await lockBookingsOf(tx, appointment.professionalId)
        const row = await updateOpenAppointment(tx, appointment.id, now, {
          startTime: newStart,
          endTime: new Date(end),
          blockedUntil: new Date(end + rules.bufferMinutes * MINUTE),
          status: 'scheduled',
          ...(input.notes !== undefined && { notes: input.notes }),
          ...(key !== undefined && { rescheduleKey: key }),
        })
        // Moved: the reminders follow, and both people hear of it (in this transaction: once).
        if (row && row.startTime.getTime() !== appointment.startTime.getTime()) {
          await moveScheduledMessages(tx, appointment.id, newStart, now)
          notices = await queueAppointmentNotice(tx, {
            kind: 'moved',
            appointmentId: appointment.id,
            previousStart: appointment.startTime,
            now,
            appPublicUrl: config.appPublicUrl,
            causedBy: caller.user.id,
            mail: config.mail,
          })
          if (relation === 'admin') await recordAudit(tx, adminMoveEntry(caller, appointment, row, now.getTime()))
        }
        return row
      })
    } catch (error) {
      if (isExclusionViolation(error, CONSTRAINT)) throw await slotTaken(appointment.professionalId, rules, input.start_time, appointment.id)
      throw error
    }
    if (!updated) {
      const current = await reread(appointment.id)
      // The same reschedule, sent twice at once: the other one moved it.
      if (key !== undefined && current.appointment.rescheduleKey === key) return c.json(serialize(current, caller), 200, PRIVATE)
      // Cancelled (or started) while we looked: say so, as if it had happened before.
      throw apiError(400, closedReason(current.appointment, clock()) ?? SLOT_TAKEN)
    }
    logDroppedMail(services.log, notices)
    mirrorAppointmentLater(services, appointment.id)
    return c.json(serialize(await reread(appointment.id), caller), 200, PRIVATE)
  }

  api.endpoint('/appointments/:id{[0-9]+}/update/', { PATCH: reschedule, PUT: reschedule })

  api.endpoint('/appointments/:id{[0-9]+}/cancel/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const { view, relation } = await appointmentFor(c, caller, ['patient', 'professional', 'admin'])
      const { appointment } = view
      const { reason } = validate(cancelSchema, await readFields(c.req.raw))
      await enforceThrottle(services, 'cancelPerUser', String(caller.user.id))
      const now = clock()
      const closed = closedReason(appointment, now)
      if (closed) throw apiError(400, closed)
      // Held for a payment not made: the payment is cancelled at Stripe, which releases the time.
      if (appointment.status === 'awaiting_payment') {
        const purchase = (await findPurchase(db, appointment.purchaseId!))!
        await cancelPurchase(services, purchase, relation === 'admin' ? (tx, { at }) => recordAudit(tx, adminCancelEntry(caller, appointment, { reason: reason ?? '', refund: null, at })) : undefined)
        return c.json(serialize(await reread(appointment.id), caller))
      }
      // The terms (docs/product.md §9, decisions 0044 and 0051) decide the refund; both people are
      // told and what it cost comes back, in one transaction (server/appointments/cancellation.ts).
      const cancelled = await db.transaction(async (tx) => {
        const done = await cancelOpenAppointment(tx, view, { by: relation, reason: reason ?? '', causedBy: caller.user.id, now }, { appPublicUrl: config.appPublicUrl, mail: config.mail })
        if (done && relation === 'admin') await recordAudit(tx, adminCancelEntry(caller, appointment, { reason: reason ?? '', refund: done.row.refund, at: now }))
        return done
      })
      if (!cancelled) throw apiError(400, closedReason((await reread(appointment.id)).appointment, now) ?? 'This appointment is already cancelled.')
      await afterCancellations(services, [cancelled])
      return c.json(serialize(await reread(appointment.id), caller))
    },
  })

  api.endpoint('/appointments/:id{[0-9]+}/delete/', {
    DELETE: async (c) => {
      await authenticateWithRole(c, services, 'admin')
      await mirrorAppointmentDeletion(services, idParam(c, 'id'))
      if (!(await deleteAppointment(db, idParam(c, 'id')))) throw notFound()
      return c.body(null, 204)
    },
  })

  api.endpoint('/appointments/:id{[0-9]+}/status/', {
    PATCH: async (c) => {
      const caller = await authenticate(c, services)
      const { view } = await appointmentFor(c, caller, ['professional', 'admin'])
      const { appointment } = view
      const input = validate(statusSchema, await readFields(c.req.raw))
      const now = clock()
      if (input.status !== undefined) {
        const started = appointment.startTime.getTime() <= now
        if (appointment.status === 'cancelled') throw fieldError('status', 'A cancelled appointment cannot change status.')
        if (appointment.status === 'awaiting_payment') throw fieldError('status', AWAITING_PAYMENT)
        if (input.status === 'confirmed' && started) throw fieldError('status', 'An appointment can be confirmed only before it starts.')
        if (input.status !== 'confirmed' && !started) throw fieldError('status', 'An appointment can be marked completed or no-show only after it starts.')
      }
      await updateAppointment(
        db,
        appointment.id,
        {
          ...(input.status !== undefined && { status: input.status }),
          ...(input.shared_notes !== undefined && { sharedNotes: input.shared_notes }),
          ...(input.private_notes !== undefined && { privateNotes: input.private_notes }),
        },
        new Date(now),
      )
      return c.json(serialize(await reread(appointment.id), caller))
    },
  })

  api.endpoint('/appointments/:id{[0-9]+}/consultation/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const { view } = await appointmentFor(c, caller, ['patient', 'professional', 'admin'])
      const { appointment } = view
      const opensAt = appointment.startTime.getTime() - ROOM_OPENS_BEFORE_MINUTES * MINUTE
      const closesAt = appointment.endTime.getTime()
      const now = clock()
      const isOpen = (appointment.status === 'scheduled' || appointment.status === 'confirmed') && now >= opensAt && now < closesAt
      return c.json({
        appointment_id: appointment.id,
        status: appointment.status,
        opens_at: new Date(opensAt).toISOString(),
        closes_at: new Date(closesAt).toISOString(),
        is_open: isOpen,
        meeting_link: isOpen ? appointment.meetingLink : null,
        shared_notes: appointment.sharedNotes,
      })
    },
  })

  api.endpoint('/appointments/dashboard/', {
    GET: async (c) => {
      // The schedule's zone and the calendar's state come with the session lookup: one read per visit less.
      const caller = await authenticateWithRoleUsing(c, services, findSessionUserWithProfessionalContext, 'profissional')
      const { user, professional: context } = caller
      const query = validate(dashboardSchema, { start: c.req.query('start')?.trim() || undefined, days: c.req.query('days')?.trim() || undefined })
      const timeZone = context.timeZone ?? user.timeZone
      const start = query.start ?? localDateOf(clock(), timeZone)
      const days = query.days ?? 7
      const { views, truncated } = await professionalAppointmentViews(
        db,
        user.id,
        new Date(startOfLocalDay(start, timeZone)),
        new Date(startOfLocalDay(addDays(start, days), timeZone)),
      )
      await recordNotesViews(caller, views)
      const agenda = {
        time_zone: timeZone,
        start,
        end: addDays(start, days - 1),
        appointments: views.map((view) => serialize(view, caller)),
        // At most 500 (a pile of cancelled bookings cannot make the read or the page grow): true when some were left out.
        truncated,
        // The calendar's state comes along, so the professional's home needs no second call to know it.
        calendar: context.calendar,
      }
      return c.json(agenda, 200, { 'Cache-Control': PRIVATE_NO_STORE })
    },
  })

  const currentSchedule = async (userId: number, fallbackTimeZone: string) => {
    const [profile, exceptions] = await Promise.all([findProfile(db, userId), exceptionsOf(db, [userId])])
    // Before the first save: a closed week with the contract's defaults.
    const rules: ScheduleRules = profile
      ? rulesOf(profile)
      : { timeZone: fallbackTimeZone, consultationMinutes: 50, bufferMinutes: 0, minimumNoticeHours: 12, horizonDays: 60, availability: CLOSED_WEEK }
    return serializeSchedule(rules, exceptions.get(userId) ?? [])
  }

  api.endpoint('/appointments/current-schedule/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'profissional')
      return c.json(await currentSchedule(user.id, user.timeZone))
    },
  })

  api.endpoint('/appointments/update-schedule/', {
    PUT: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'profissional')
      const schedule = parseSchedule(await readFields(c.req.raw))
      await saveSchedule(db, user.id, schedule, new Date(clock()))
      return c.json(await currentSchedule(user.id, user.timeZone))
    },
  })
}

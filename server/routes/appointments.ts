import { z } from 'zod'
import { freeTimes, freeTimesByDate, MAX_AVAILABILITY_DAYS } from '#server/appointments/free-times.ts'
import { addDays, localDateOf, startOfLocalDay } from '#server/dates.ts'
import { bookableProfessionals, bookingsOf, countAppointments, deleteAppointment, exceptionsOf, findAppointmentView, findAppointmentByKey, findBookableProfessionalWithRules, findProfile, listAppointmentViews, professionalAppointmentViews, saveSchedule, updateAppointment, type AppointmentPeriod, type AppointmentRow, type AppointmentScope, type AppointmentView } from '#server/appointments/repository.ts'
import { AWAITING_PAYMENT, closedReason, relationTo } from '#server/appointments/access.ts'
import { bookAppointment, CONSULTATION_PAYMENTS } from '#server/booking/book.ts'
import { cancelAppointment } from '#server/booking/cancel.ts'
import { rescheduleAppointment } from '#server/booking/reschedule.ts'
import { recordHealthViews } from '#server/audit/health-views.ts'
import { adminScope, appointmentListFilters } from '#server/appointments/list-filters.ts'
import { defaultRules, parseSchedule, rulesOf } from '#server/appointments/schedule.ts'
import { serializeAppointment, serializeBookableProfessional, serializeSchedule } from '#server/appointments/serializers.ts'
import { authenticate, authenticateWithRole, authenticateWithRoleUsing, roleOf, type Caller } from '#server/auth/authenticate.ts'
import { findSessionUserWithProfessionalContext } from '#server/auth/session-users.ts'
import { mirrorAppointmentDeletion } from '#server/calendar/appointment-events.ts'
import { busyIntervalsOf, calendarBusyTimes } from '#server/calendar/busy-time.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { PILLAR_SLUGS, type CancelledBy } from '#server/db/schema.ts'
import { idParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { ApiError, fieldError, notFound, permissionDenied, validationError } from '#server/http/errors.ts'
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
import { urlField } from '#server/purchases/input.ts'
import { countUsableCredits } from '#server/purchases/repository.ts'
import { enforceThrottle } from '#server/routes/throttling.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** The consultation room opens this long before the start. */
export const ROOM_OPENS_BEFORE_MINUTES = 10

const WINDOW_FORMAT = 'Enter a date as YYYY-MM-DD or a date and time with its offset, e.g. 2026-12-01T12:00:00Z.'

const STATUS_CHOICES = ['confirmed', 'completed', 'no_show'] as const

/** A choice as DRF echoes it, cut short: the value may be megabytes long. */
const invalidChoice = (value: string) => `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}" is not a valid choice.`

const KEY_INDEX = 'appointments_patient_idempotency_key_unique'
// Answers for one patient: never kept by a cache on the way.
const PRIVATE = { 'Cache-Control': 'private, no-store' }

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

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const professionalIdQuery = z.object({ professional_id: idField() })
const keyQuery = z.object({ key: idempotencyKeyField() })
const patientFilterQuery = z.object({ patient: idField() })

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
      const { professional_id: professionalId } = validate(professionalIdQuery, { professional_id: c.req.query('professional_id') })
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
        const { appointmentId, created } = await bookAppointment(services, caller, input)
        return c.json(serialize(await reread(appointmentId), caller), created ? 201 : 200, PRIVATE)
      } catch (error) {
        // A refusal (the time now taken, a limit reached) may be the first request with this key
        // committing meanwhile: then that is the answer.
        const meanwhile = error instanceof ApiError || isUniqueViolation(error, KEY_INDEX) ? await bookedWithKey() : undefined
        if (meanwhile) return replay(meanwhile)
        throw error
      }
    },
  })

  // What became of a booking whose answer was lost: the patient's appointment with that key, or 404.
  api.endpoint('/appointments/by-idempotency-key/', {
    GET: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const { key } = validate(keyQuery, { key: c.req.query('key') })
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
      const patientId = patientQuery !== undefined && role !== 'paciente' ? validate(patientFilterQuery, { patient: patientQuery }).patient : undefined
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
    return c.json(serialize(await rescheduleAppointment(services, caller, { view, relation }, input), caller), 200, PRIVATE)
  }

  api.endpoint('/appointments/:id{[0-9]+}/update/', { PATCH: reschedule, PUT: reschedule })

  api.endpoint('/appointments/:id{[0-9]+}/cancel/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const { view, relation } = await appointmentFor(c, caller, ['patient', 'professional', 'admin'])
      const { appointment } = view
      const { reason } = validate(cancelSchema, await readFields(c.req.raw))
      await enforceThrottle(services, 'cancelPerUser', String(caller.user.id))
      await cancelAppointment(services, caller, { view, relation }, reason ?? '')
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
    const rules = profile ? rulesOf(profile) : defaultRules(fallbackTimeZone)
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

import { randomBytes } from 'node:crypto'
import { deleteAppointment, findBookableProfessional, insertAppointment, upcomingLimitReached, type LimitReached } from '#server/appointments/repository.ts'
import { dispatchDueMessages } from '#server/appointments/reminders.ts'
import { rulesOf } from '#server/appointments/schedule.ts'
import { checkStart, NO_OVERLAP_CONSTRAINT, slotTaken } from '#server/appointments/start-checks.ts'
import type { Caller } from '#server/auth/authenticate.ts'
import { CONSULTATION_HOLD_MS, insertConsultationPurchase, startConsultationPayment } from '#server/billing/checkout.ts'
import { mirrorAppointmentLater } from '#server/calendar/appointment-events.ts'
import { isExclusionViolation } from '#server/db/errors.ts'
import { reopenConversationOf } from '#server/messages/repository.ts'
import { apiError, fieldError, validationError } from '#server/http/errors.ts'
import { consultationLineName } from '#server/purchases/consultation-lines.ts'
import { useCredit, type PurchaseRow } from '#server/purchases/repository.ts'
import type { Services } from '#server/services.ts'

const MINUTE = 60_000

export const NO_CREDIT = 'You have no consultation credit left for this professional.'
const PAYMENT_REQUIRED = 'This consultation has a price: say how it is paid (credit, pix or card).'
/** The `code` of a booking refused because the patient holds as many upcoming appointments as allowed (decision 0034). */
export const UPCOMING_LIMIT = 'upcoming_limit'
/** How a consultation with a price is paid (decision 0051): a package's credit, or a payment that holds the time. */
export const CONSULTATION_PAYMENTS = ['credit', 'pix', 'card'] as const

/** A patient's booking as POST /appointments/create/ validated it. */
export type BookingInput = {
  professional_id: number
  start_time: number
  notes?: string
  idempotency_key?: string
  payment?: (typeof CONSULTATION_PAYMENTS)[number]
  success_url?: string
  cancel_url?: string
}

/** The 409 of a booking past one of the patient's limits: `scope` says which, `limit` its value. */
function upcomingLimit({ limit, max }: LimitReached) {
  const detail = limit === 'professional' ? `You already have ${max} upcoming appointments with this professional.` : `You already have ${max} upcoming appointments.`
  return apiError(409, detail, { code: UPCOMING_LIMIT, scope: limit, limit: max })
}

/**
 * How the booking of a consultation with a price is paid (decision 0051), and for a card where
 * Stripe's page goes back to. A consultation with a price is never booked unpaid.
 */
function paymentOf(input: BookingInput) {
  const method = input.payment
  if (method === undefined) throw fieldError('payment', PAYMENT_REQUIRED)
  if (method !== 'card') return { method, successUrl: null, cancelUrl: null }
  const errors: Record<string, string[]> = {}
  if (!input.success_url) errors.success_url = ['This field is required for a card payment.']
  if (!input.cancel_url) errors.cancel_url = ['This field is required for a card payment.']
  if (Object.keys(errors).length > 0) throw validationError(errors)
  return { method, successUrl: input.success_url!, cancelUrl: input.cancel_url! }
}

/** After the response: the appointment's due messages (its confirmations) into the outbox. */
export const sendDueMessagesOf = (services: Services, appointmentId: number) =>
  services.background.run('appointment messages', () =>
    dispatchDueMessages(services.db, { now: services.clock(), appPublicUrl: services.config.appPublicUrl, mail: services.config.mail, log: services.log, appointmentId }),
  )

/**
 * Books a consultation for the calling patient (docs/product.md §7): the time checked against the
 * professional's rules and bookings, the patient's limits decided under their lock, the overlap
 * refused by the database, and a consultation with a price paid by a credit or held for its
 * payment. Answers the appointment's id, and whether it is new (false: the same idempotency key
 * booked it already).
 */
export async function bookAppointment(services: Services, caller: Caller, input: BookingInput): Promise<{ appointmentId: number; created: boolean }> {
  const { db, clock, config } = services
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
  await checkStart(services, found.user.id, rules, input.start_time)

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
        meetingLink: `${config.meetingBaseUrl}innera-${randomBytes(18).toString('base64url')}`,
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
    if (isExclusionViolation(error, NO_OVERLAP_CONSTRAINT)) throw await slotTaken(services, found.user.id, rules, input.start_time)
    throw error
  }
  if ('existing' in outcome) return { appointmentId: outcome.existing.id, created: false }
  if (!('created' in outcome)) throw upcomingLimit(outcome)
  const { created } = outcome
  // A new appointment reopens the pair's conversation if the professional had closed it (decision 0085).
  await reopenConversationOf(db, patientId, found.user.id)
  if (created.status === 'awaiting_payment' && heldWith && payment) {
    try {
      await startConsultationPayment(services, heldWith, { id: patientId, email: caller.user.email }, { successUrl: payment.successUrl, cancelUrl: payment.cancelUrl, expiresAt: holdExpiresAt })
    } catch (error) {
      // Nothing to pay was shown, and the failed purchase released the time: the booking is
      // undone, so that the same key may book it again once the payment service is back.
      await deleteAppointment(db, created.id)
      throw error
    }
    return { appointmentId: created.id, created: true }
  }
  // The confirmations go out now rather than at the next tick (which would send them anyway).
  sendDueMessagesOf(services, created.id)
  mirrorAppointmentLater(services, created.id)
  return { appointmentId: created.id, created: true }
}

import { type SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { CONSULTATION_NOTES_MAX_LENGTH, NOTES_MAX_LENGTH, REASON_MAX_LENGTH } from '#app/domain/appointment-limits.ts'
import { CONSULTATION_PAYMENTS, type ConsultationPayment } from '#app/domain/consultation-payment.ts'
import { INSTANT_PATTERN } from '#app/provider/appointment-schemas.ts'
import { type Message } from '#app/provider/errors.ts'

/**
 * The booking and cancellation forms' schemas, shared by the browser (conform's client
 * validation) and the server (the actions). Messages are translation keys.
 */

const bookingIntents = ['review', 'confirm', 'back'] as const
type BookingIntent = (typeof bookingIntents)[number]

/**
 * The key the review step makes for one booking or reschedule (decision 0034): sent with the
 * confirmation, and kept through a failure, so that sending it again is the same booking at the
 * provider, never a second one. Random and URL-safe; anything else is no key.
 */
const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/

/** Pick a time and write notes; the same fields travel hidden through the review step. */
export const bookingSchema = z.object({
  start_time: z
    .string({ error: 'appointments:validation.chooseTime' })
    .trim()
    .max(40, { error: 'appointments:validation.chooseTime', abort: true })
    .regex(INSTANT_PATTERN, { error: 'appointments:validation.chooseTime', abort: true })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: 'appointments:validation.chooseTime' }),
  notes: z.string().trim().max(NOTES_MAX_LENGTH, { error: 'appointments:validation.notesTooLong' }).optional().default(''),
  // Hidden: made by the server, so a key that is not one is dropped rather than shown as an error.
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional().catch(undefined),
  // The review's choice for a consultation with a price (kept hidden through a failure); the
  // provider refuses a priced booking without one, so anything else is no choice.
  payment: z.enum(CONSULTATION_PAYMENTS).optional().catch(undefined),
})

export const cancelSchema = z.object({
  reason: z.string().trim().max(REASON_MAX_LENGTH, { error: 'appointments:validation.reasonTooLong' }).optional().default(''),
})

/** What the professional may set (docs/product.md §7 `/appointments/{id}/status/`): each is a button of one form. */
const statusChanges = ['confirmed', 'completed', 'no_show'] as const
export const statusSchema = z.object({
  status: z.enum(statusChanges, { error: 'appointments:manage.statusInvalid' }),
})

/** The consultation notes: the professional's own, and those shared with the patient. */
export const consultationNotesSchema = z.object({
  private_notes: z.string().trim().max(CONSULTATION_NOTES_MAX_LENGTH, { error: 'appointments:validation.consultationNotesTooLong' }).optional().default(''),
  shared_notes: z.string().trim().max(CONSULTATION_NOTES_MAX_LENGTH, { error: 'appointments:validation.consultationNotesTooLong' }).optional().default(''),
})

/** The provider's refusals of a status change (English), as our messages. */
export function statusMessage(providerMessage: string): Message {
  if (/confirmed only before/i.test(providerMessage)) return { key: 'appointments:manage.confirmAfterStart' }
  if (/only after it starts/i.test(providerMessage)) return { key: 'appointments:manage.completeBeforeStart' }
  if (/cancelled appointment/i.test(providerMessage)) return { key: 'appointments:manage.cancelledNoStatus' }
  return { key: 'appointments:manage.statusInvalid' }
}

/** The button that sent the booking form (a submission without one is the first step: review). */
export function bookingIntentOf(value: FormDataEntryValue | null): BookingIntent {
  return (bookingIntents as readonly string[]).includes(String(value)) ? (value as BookingIntent) : 'review'
}

/**
 * The provider speaks English (decision 0023's messages on `start_time`); each becomes one of ours,
 * with the number it names.
 */
export function startTimeMessage(providerMessage: string): Message {
  const notice = /minimum notice of (\d+) hours?/i.exec(providerMessage)
  if (notice) return { key: 'appointments:errors.notice', values: { count: Number(notice[1]) } }
  const horizon = /horizon of (\d+) days?/i.exec(providerMessage)
  if (horizon) return { key: 'appointments:errors.horizon', values: { count: Number(horizon[1]) } }
  if (/in the past/i.test(providerMessage)) return { key: 'appointments:errors.past' }
  if (/outside the professional/i.test(providerMessage)) return { key: 'appointments:errors.outside' }
  return { key: 'appointments:errors.startTime' }
}

/**
 * The provider's refusal of a booking past the patient's limits (decision 0034: `code`
 * upcoming_limit, the number in its English detail), as our message.
 */
export function upcomingLimitMessage(providerDetail: string | undefined): Message {
  const match = /(\d+) upcoming appointments?( with this professional)?/i.exec(providerDetail ?? '')
  if (!match) return { key: 'appointments:booking.limitUnknown' }
  return { key: match[2] ? 'appointments:booking.limitProfessional' : 'appointments:booking.limitTotal', values: { count: Number(match[1]) } }
}

/** What the booking page's picker shows (built on the server: booking.server.ts). */
type PickerTime = { value: string; label: string; current: boolean }
export type PickerView = {
  /** The patient's zone, named when it is not the professional's (times are in it either way). */
  zoneLabel: string | null
  weeks: { weekStart: string; label: string; dates: { date: string; label: string; count: number; selected: boolean }[] }[]
  selected: { date: string; label: string; times: PickerTime[] } | null
  /** The free times could not be read (the provider failed while a submission was answered). */
  unavailable: boolean
}

/** The booking form's answers: the picker again (with what was typed), or the review. */
export type Choice = { value: string; label: string }
export type BookingReply =
  | { step: 'pick'; result: SubmissionResult<string[]>; chosen: Choice | null; taken: Choice[] | null }
  | {
      step: 'review'
      result: SubmissionResult<string[]>
      /** `key`: the idempotency key the confirmation sends (hidden). */
      review: { start: string; notes: string; when: string; ends: string; minutes: number; zoneLabel: string | null; key: string; payment: PaymentView | null }
    }

/** The review's payment: the price, and the ways to pay it with the one checked (a consultation with a price). */
export type PaymentView = {
  price: string
  options: { value: ConsultationPayment; label: string; hint: string }[]
  chosen: ConsultationPayment
}


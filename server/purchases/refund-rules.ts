import { addDays, saoPauloDate, startOfLocalDay } from '#server/dates.ts'
import { addBusinessDays } from '#server/purchases/business-days.ts'

/**
 * The terms' refund rules (docs/product.md §9, decision 0044) as pure functions over explicit
 * instants (milliseconds since the epoch): no clock, no I/O. quoteRefund says what cancelling a
 * purchase does, before the buyer confirms it, and the same answer is what the provider then
 * does. Amounts are integer cents (BRL), never floats. Words are i18n keys (`refunds.*`).
 *
 * - Withdrawal (Código de Defesa do Consumidor, art. 49): any purchase is refunded in full until
 *   the end of the 7th calendar day after the payment's date in São Paulo (withdrawalEndsAt).
 * - Consultations: refunded in full (or the package credit returns) when the patient cancels 24
 *   hours or more before the start, or the professional or an admin cancels; later, nothing,
 *   unless the payment is still within its withdrawal days.
 * - Packages: the unused credits, pro rata, rounded down to the cent. Subscriptions: in full
 *   within 7 days of subscribing, access ending at once; later, nothing, access until the
 *   period's end.
 * - The money arrives by card within 2 billing cycles; by PIX within 3 and by bank slip within
 *   10 business days (business-days.ts) after the São Paulo date of the refund.
 */

const HOUR = 60 * 60 * 1000
/** The business time zone: the terms' days are São Paulo's dates. */
export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo'
/** Calendar days after the payment's date during which any purchase is refunded in full. */
export const WITHDRAWAL_DAYS = 7
/** A patient's cancellation at least this long before the start is refunded in full (as app/domain/appointments.ts). */
export const FULL_REFUND_NOTICE_MS = 24 * HOUR
export const CARD_REFUND_BILLING_CYCLES = 2
export const PIX_REFUND_BUSINESS_DAYS = 3
export const BANK_SLIP_REFUND_BUSINESS_DAYS = 10
/** The largest amount, as app/domain/money.ts's MAX_CENTS (R$ 10 million). */
export const MAX_AMOUNT_CENTS = 1_000_000_000
/** Credits a package holds at most: far more than any package, and amount × credits stays exact. */
const MAX_PACKAGE_CREDITS = 1000

type PaymentMethod = 'card' | 'pix' | 'bank_slip'
export type Canceller = 'patient' | 'professional' | 'admin'

/** A payment in money: how, when (an instant) and how much (integer cents). */
export type Payment = { method: PaymentMethod; paidAt: number; amountCents: number }
/** A consultation booked with one credit of a package paid at `packagePaidAt`. */
export type PackageCredit = { method: 'package_credit'; packagePaidAt: number }

/** What is being cancelled, with what its rule needs. `at` (quoteRefund's) is when the buyer confirms. */
export type Cancellation =
  | { kind: 'course' | 'program' | 'digital_material'; payment: Payment }
  | { kind: 'consultation_package'; payment: Payment; credits: number; creditsUsed: number }
  | { kind: 'subscription'; payment: Payment; subscribedAt: number; periodEndsAt: number }
  | { kind: 'consultation'; payment: Payment | PackageCredit; startsAt: number; cancelledBy: Canceller }

/** Why the refund is what it is (i18n keys: they say why; the amount, credit and deadline say what). */
export type RefundReason =
  | 'refunds.reason.withdrawal'
  | 'refunds.reason.withdrawalExpired'
  | 'refunds.reason.consultationNotice'
  | 'refunds.reason.consultationLate'
  | 'refunds.reason.cancelledByProfessional'
  | 'refunds.reason.cancelledByAdmin'
  | 'refunds.reason.unusedCredits'
  | 'refunds.reason.packageUsedUp'
  | 'refunds.reason.subscriptionWithdrawal'
  | 'refunds.reason.subscriptionPeriodEnd'

/** By when the money arrives: a card in billing cycles (no date: the card's issuer decides), PIX and bank slip by a São Paulo date. */
export type RefundDeadline =
  | { method: 'card'; key: 'refunds.deadline.card'; billingCycles: number }
  | { method: 'pix'; key: 'refunds.deadline.pix'; businessDays: number; date: string }
  | { method: 'bank_slip'; key: 'refunds.deadline.bankSlip'; businessDays: number; date: string }

export type RefundQuote = {
  /** Integer cents given back, 0 to what was paid. */
  refundCents: number
  reason: RefundReason
  /** When the money arrives at the latest; null when no money is given back. */
  deadline: RefundDeadline | null
  /** A consultation paid with a package credit: whether the credit goes back to the package. */
  creditReturned: boolean
  /**
   * When what the purchase gives ends because of this cancellation: `at` (a refunded course,
   * program, material or subscription; a package's unused credits), a subscription's period end;
   * null when nothing ends (a consultation: its time is simply freed; a purchase past its 7 days:
   * nothing to cancel).
   */
  accessEndsAt: number | null
}

/** The first instant after a payment's withdrawal days: midnight in São Paulo at the start of the 8th day after the payment's date. */
export function withdrawalEndsAt(paidAt: number): number {
  checkInstant(paidAt, 'paidAt')
  return startOfLocalDay(addDays(saoPauloDate(paidAt), WITHDRAWAL_DAYS + 1), BUSINESS_TIME_ZONE)
}

/** Whether an instant is within a payment's withdrawal days: from the payment to the end of the 7th São Paulo day after its date. */
export function isWithinWithdrawal(paidAt: number, at: number): boolean {
  checkInstant(at, 'at')
  return paidAt <= at && at < withdrawalEndsAt(paidAt)
}

/** Whether a patient's cancellation at `at` is early enough for a full refund: 24 hours or more before the start, to the millisecond. */
export function isEarlyCancellation(startsAt: number, at: number): boolean {
  checkInstant(startsAt, 'startsAt')
  checkInstant(at, 'at')
  return startsAt - at >= FULL_REFUND_NOTICE_MS
}

/** By when a refund started at `at` arrives, by the method it is paid back to. */
export function refundDeadline<Method extends PaymentMethod>(method: Method, at: number): Extract<RefundDeadline, { method: Method }>
export function refundDeadline(method: PaymentMethod, at: number): RefundDeadline {
  checkInstant(at, 'at')
  switch (method) {
    case 'card':
      return { method, key: 'refunds.deadline.card', billingCycles: CARD_REFUND_BILLING_CYCLES }
    case 'pix':
      return { method, key: 'refunds.deadline.pix', businessDays: PIX_REFUND_BUSINESS_DAYS, date: addBusinessDays(saoPauloDate(at), PIX_REFUND_BUSINESS_DAYS) }
    case 'bank_slip':
      return { method, key: 'refunds.deadline.bankSlip', businessDays: BANK_SLIP_REFUND_BUSINESS_DAYS, date: addBusinessDays(saoPauloDate(at), BANK_SLIP_REFUND_BUSINESS_DAYS) }
    default:
      throw new RangeError(`Not a payment method: ${String(method)}`)
  }
}

/**
 * What cancelling does at `at`: the refund in cents, why, by when it arrives, and what ends.
 * A RangeError for a cancellation that cannot be (an amount that is not whole cents, more credits
 * used than held, a cancellation before its payment): the caller's data is wrong, not the buyer's.
 */
export function quoteRefund(cancellation: Cancellation, at: number): RefundQuote {
  checkInstant(at, 'at')
  switch (cancellation.kind) {
    case 'course':
    case 'program':
    case 'digital_material': {
      const payment = checkPayment(cancellation.payment, at)
      return isWithinWithdrawal(payment.paidAt, at)
        ? moneyQuote(payment, payment.amountCents, 'refunds.reason.withdrawal', at, { accessEndsAt: at })
        : moneyQuote(payment, 0, 'refunds.reason.withdrawalExpired', at)
    }
    case 'consultation_package': {
      const payment = checkPayment(cancellation.payment, at)
      const { credits, creditsUsed } = cancellation
      if (!Number.isSafeInteger(credits) || credits < 1 || credits > MAX_PACKAGE_CREDITS) throw new RangeError(`A package holds 1 to ${MAX_PACKAGE_CREDITS} credits: ${credits}`)
      if (!Number.isSafeInteger(creditsUsed) || creditsUsed < 0 || creditsUsed > credits) throw new RangeError(`Credits used must be 0 to ${credits}: ${creditsUsed}`)
      const unused = credits - creditsUsed
      if (unused === 0) return moneyQuote(payment, 0, 'refunds.reason.packageUsedUp', at)
      // Exact in integers (at most 10^9 × 1000 < 2^53), rounded down to the cent.
      const share = Math.floor((payment.amountCents * unused) / credits)
      const reason = creditsUsed === 0 && isWithinWithdrawal(payment.paidAt, at) ? 'refunds.reason.withdrawal' : 'refunds.reason.unusedCredits'
      return moneyQuote(payment, share, reason, at, { accessEndsAt: at })
    }
    case 'subscription': {
      const payment = checkPayment(cancellation.payment, at)
      const { subscribedAt, periodEndsAt } = cancellation
      checkInstant(subscribedAt, 'subscribedAt')
      checkInstant(periodEndsAt, 'periodEndsAt')
      if (subscribedAt > payment.paidAt || periodEndsAt <= payment.paidAt) throw new RangeError('A subscription is paid from its start, for a period ending after the payment')
      // The 7 days run from subscribing, not from each renewal: a renewal is no new contract.
      return isWithinWithdrawal(subscribedAt, at)
        ? moneyQuote(payment, payment.amountCents, 'refunds.reason.subscriptionWithdrawal', at, { accessEndsAt: at })
        : moneyQuote(payment, 0, 'refunds.reason.subscriptionPeriodEnd', at, { accessEndsAt: Math.max(periodEndsAt, at) })
    }
    case 'consultation':
      return quoteConsultation(cancellation, at)
    default:
      throw new RangeError(`Not a kind of cancellation: ${String((cancellation as { kind: unknown }).kind)}`)
  }
}

/**
 * A consultation: full when the professional or an admin cancels, or the patient cancels 24 h or
 * more ahead; otherwise full still while its payment (the package's, for a credit) is within its
 * withdrawal days and the consultation has not started; otherwise nothing.
 */
function quoteConsultation(cancellation: Extract<Cancellation, { kind: 'consultation' }>, at: number): RefundQuote {
  const { payment, startsAt, cancelledBy } = cancellation
  checkInstant(startsAt, 'startsAt')
  const paidAt = payment.method === 'package_credit' ? payment.packagePaidAt : checkPayment(payment, at).paidAt
  checkInstant(paidAt, 'paidAt')
  if (paidAt > at) throw new RangeError('A cancellation cannot come before its payment')
  const { reason, full } = consultationOutcome(cancelledBy, startsAt, paidAt, at)
  if (payment.method === 'package_credit') return { refundCents: 0, reason, deadline: null, creditReturned: full, accessEndsAt: null }
  return moneyQuote(payment, full ? payment.amountCents : 0, reason, at)
}

function consultationOutcome(cancelledBy: Canceller, startsAt: number, paidAt: number, at: number): { reason: RefundReason; full: boolean } {
  switch (cancelledBy) {
    case 'professional':
      return { reason: 'refunds.reason.cancelledByProfessional', full: true }
    case 'admin':
      return { reason: 'refunds.reason.cancelledByAdmin', full: true }
    case 'patient':
      if (isEarlyCancellation(startsAt, at)) return { reason: 'refunds.reason.consultationNotice', full: true }
      // Withdrawal covers a service not yet given: never a consultation that has started.
      if (at < startsAt && isWithinWithdrawal(paidAt, at)) return { reason: 'refunds.reason.withdrawal', full: true }
      return { reason: 'refunds.reason.consultationLate', full: false }
    default:
      throw new RangeError(`Not a canceller: ${String(cancelledBy)}`)
  }
}

function moneyQuote(payment: Payment, refundCents: number, reason: RefundReason, at: number, { accessEndsAt = null }: { accessEndsAt?: number | null } = {}): RefundQuote {
  return { refundCents, reason, deadline: refundCents > 0 ? refundDeadline(payment.method, at) : null, creditReturned: false, accessEndsAt }
}

/** The payment when it is one, made no later than `at`; else a RangeError. */
function checkPayment(payment: Payment, at: number): Payment {
  if (payment.method !== 'card' && payment.method !== 'pix' && payment.method !== 'bank_slip') throw new RangeError(`Not a payment method: ${String(payment.method)}`)
  checkInstant(payment.paidAt, 'paidAt')
  const amount = payment.amountCents
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_AMOUNT_CENTS || Object.is(amount, -0)) throw new RangeError(`Not an amount in cents (0-${MAX_AMOUNT_CENTS}): ${amount}`)
  if (payment.paidAt > at) throw new RangeError('A cancellation cannot come before its payment')
  return payment
}

/** Instants are whole milliseconds since the epoch. */
function checkInstant(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} is not an instant in milliseconds: ${value}`)
}

import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  BANK_SLIP_REFUND_BUSINESS_DAYS,
  CARD_REFUND_BILLING_CYCLES,
  type Canceller,
  type Cancellation,
  FULL_REFUND_NOTICE_MS,
  MAX_AMOUNT_CENTS,
  PIX_REFUND_BUSINESS_DAYS,
  type PackageCredit,
  type Payment,
  WITHDRAWAL_DAYS,
  isEarlyCancellation,
  isWithinWithdrawal,
  quoteRefund,
  refundDeadline,
  withdrawalEndsAt,
} from '#server/purchases/refund-rules.ts'

/** Instants written as São Paulo wall times (UTC-3 all year since 2019). */
const sp = (wall: string) => Date.parse(`${wall}-03:00`)
const MS = 1
const HOUR = 60 * 60 * 1000
const card = (paidAt: number, amountCents = 10_000): Payment => ({ method: 'card', paidAt, amountCents })
const pix = (paidAt: number, amountCents = 10_000): Payment => ({ method: 'pix', paidAt, amountCents })

afterEach(() => {
  vi.useRealTimers()
})

describe('the terms’ numbers (docs/product.md §9)', () => {
  it('7 calendar days, 24 hours, 2 billing cycles, 3 and 10 business days', () => {
    expect(WITHDRAWAL_DAYS).toBe(7)
    expect(FULL_REFUND_NOTICE_MS).toBe(24 * HOUR)
    expect(CARD_REFUND_BILLING_CYCLES).toBe(2)
    expect(PIX_REFUND_BUSINESS_DAYS).toBe(3)
    expect(BANK_SLIP_REFUND_BUSINESS_DAYS).toBe(10)
  })
})

describe('withdrawal: 7 calendar days in São Paulo, the 7th included', () => {
  it('ends at midnight in São Paulo at the start of the 8th day after the payment’s date', () => {
    const paidAt = sp('2026-03-10T14:00:00')
    expect(withdrawalEndsAt(paidAt)).toBe(sp('2026-03-18T00:00:00'))
    expect(isWithinWithdrawal(paidAt, paidAt)).toBe(true)
    expect(isWithinWithdrawal(paidAt, sp('2026-03-17T23:59:59.999'))).toBe(true)
    expect(isWithinWithdrawal(paidAt, sp('2026-03-18T00:00:00'))).toBe(false)
    expect(isWithinWithdrawal(paidAt, paidAt - MS)).toBe(false)
  })

  it('counts São Paulo’s dates, not UTC’s: a payment at 23:30 and one at 00:30 an hour later, on one UTC date, close a day apart', () => {
    const lateEvening = sp('2026-02-28T23:30:00') // 2026-03-01T02:30Z
    const pastMidnight = sp('2026-03-01T00:30:00') // 2026-03-01T03:30Z
    expect(new Date(lateEvening).toISOString().slice(0, 10)).toBe(new Date(pastMidnight).toISOString().slice(0, 10))
    expect(withdrawalEndsAt(lateEvening)).toBe(Date.parse('2026-03-08T03:00:00Z'))
    expect(isWithinWithdrawal(lateEvening, Date.parse('2026-03-08T02:59:59.999Z'))).toBe(true)
    expect(isWithinWithdrawal(lateEvening, Date.parse('2026-03-08T03:00:00.000Z'))).toBe(false)
    expect(withdrawalEndsAt(pastMidnight)).toBe(sp('2026-03-09T00:00:00'))
  })

  it('a payment at midnight sharp belongs to its new day', () => {
    expect(withdrawalEndsAt(sp('2026-03-01T00:00:00'))).toBe(sp('2026-03-09T00:00:00'))
    expect(withdrawalEndsAt(sp('2026-02-28T23:59:59.999'))).toBe(sp('2026-03-08T00:00:00'))
  })

  it('reads no clock: the same answers whatever the time is', () => {
    vi.useFakeTimers()
    const paidAt = sp('2026-03-10T14:00:00')
    for (const now of ['2026-03-10T17:00:00Z', '2031-01-01T00:00:00Z']) {
      vi.setSystemTime(new Date(now))
      expect(withdrawalEndsAt(paidAt)).toBe(sp('2026-03-18T00:00:00'))
      expect(quoteRefund({ kind: 'course', payment: card(paidAt) }, sp('2026-03-12T10:00:00')).refundCents).toBe(10_000)
    }
  })
})

describe('the 24-hour notice, to the millisecond', () => {
  it('24 hours or more before the start is early; a millisecond less is not', () => {
    const startsAt = sp('2026-03-20T10:00:00')
    expect(isEarlyCancellation(startsAt, startsAt - 24 * HOUR)).toBe(true)
    expect(isEarlyCancellation(startsAt, startsAt - 24 * HOUR - MS)).toBe(true)
    expect(isEarlyCancellation(startsAt, startsAt - 24 * HOUR + MS)).toBe(false)
    expect(isEarlyCancellation(startsAt, startsAt)).toBe(false)
  })
})

describe('refundDeadline', () => {
  it('card: up to 2 billing cycles, no date', () => {
    expect(refundDeadline('card', sp('2026-04-02T10:00:00'))).toEqual({ method: 'card', key: 'refunds.deadline.card', billingCycles: 2 })
  })

  it('PIX started on Thursday 2026-04-02: Good Friday and the weekend skipped, Wednesday 8 April', () => {
    expect(refundDeadline('pix', sp('2026-04-02T10:00:00'))).toEqual({ method: 'pix', key: 'refunds.deadline.pix', businessDays: 3, date: '2026-04-08' })
  })

  it('PIX across Tiradentes (Tuesday 2026-04-21): from Friday the 17th, Thursday the 23rd', () => {
    expect(refundDeadline('pix', sp('2026-04-17T10:00:00')).date).toBe('2026-04-23') // 20, 22, 23
  })

  it('counts from the São Paulo date: Thursday 23:30 there is Friday in UTC', () => {
    const thursdayNight = sp('2026-04-16T23:30:00')
    expect(new Date(thursdayNight).toISOString().slice(0, 10)).toBe('2026-04-17')
    expect(refundDeadline('pix', thursdayNight).date).toBe('2026-04-22') // 17, 20, 22
    expect(refundDeadline('pix', sp('2026-04-17T00:00:00')).date).toBe('2026-04-23')
  })

  it('bank slip: 10 business days, across Tiradentes and Labour Day', () => {
    expect(refundDeadline('bank_slip', sp('2026-04-17T10:00:00'))).toEqual({ method: 'bank_slip', key: 'refunds.deadline.bankSlip', businessDays: 10, date: '2026-05-05' })
  })

  it('refuses what is not a method or an instant', () => {
    expect(() => refundDeadline('boleto' as 'pix', sp('2026-04-17T10:00:00'))).toThrow(RangeError)
    expect(() => refundDeadline('pix', NaN)).toThrow(RangeError)
  })
})

describe('quoteRefund: courses, programs, digital materials', () => {
  const paidAt = sp('2026-03-10T14:00:00')

  it('in full until the end of the 7th day, access ending at once', () => {
    for (const kind of ['course', 'program', 'digital_material'] as const) {
      const at = sp('2026-03-17T23:59:59.999')
      expect(quoteRefund({ kind, payment: pix(paidAt, 29_900) }, at)).toEqual({
        refundCents: 29_900,
        reason: 'refunds.reason.withdrawal',
        deadline: { method: 'pix', key: 'refunds.deadline.pix', businessDays: 3, date: '2026-03-20' },
        creditReturned: false,
        accessEndsAt: at,
      })
    }
  })

  it('nothing from the 8th day on, and nothing ends', () => {
    for (const kind of ['course', 'program', 'digital_material'] as const) {
      expect(quoteRefund({ kind, payment: card(paidAt, 29_900) }, sp('2026-03-18T00:00:00'))).toEqual({
        refundCents: 0,
        reason: 'refunds.reason.withdrawalExpired',
        deadline: null,
        creditReturned: false,
        accessEndsAt: null,
      })
    }
  })
})

describe('quoteRefund: consultations', () => {
  const startsAt = sp('2026-03-20T10:00:00')
  const paidLongAgo = card(sp('2026-03-01T09:00:00'), 25_000) // its withdrawal days ended on 2026-03-09
  const consultation = (payment: Payment | PackageCredit, cancelledBy: Canceller = 'patient'): Cancellation => ({ kind: 'consultation', payment, startsAt, cancelledBy })

  it('the patient, 24 hours ahead to the millisecond: in full', () => {
    expect(quoteRefund(consultation(paidLongAgo), startsAt - 24 * HOUR)).toEqual({
      refundCents: 25_000,
      reason: 'refunds.reason.consultationNotice',
      deadline: { method: 'card', key: 'refunds.deadline.card', billingCycles: 2 },
      creditReturned: false,
      accessEndsAt: null,
    })
  })

  it('the patient, a millisecond later: nothing', () => {
    expect(quoteRefund(consultation(paidLongAgo), startsAt - 24 * HOUR + MS)).toEqual({
      refundCents: 0,
      reason: 'refunds.reason.consultationLate',
      deadline: null,
      creditReturned: false,
      accessEndsAt: null,
    })
  })

  it('the patient, late but within the payment’s 7 days: in full by the withdrawal right, until the start', () => {
    const paidRecently = pix(sp('2026-03-18T20:00:00'), 25_000)
    expect(quoteRefund(consultation(paidRecently), startsAt - 2 * HOUR)).toMatchObject({ refundCents: 25_000, reason: 'refunds.reason.withdrawal', deadline: { date: '2026-03-25' } }) // Friday 20: Monday 23, Tuesday 24, Wednesday 25
    expect(quoteRefund(consultation(paidRecently), startsAt - MS)).toMatchObject({ refundCents: 25_000, reason: 'refunds.reason.withdrawal' })
    expect(quoteRefund(consultation(paidRecently), startsAt)).toMatchObject({ refundCents: 0, reason: 'refunds.reason.consultationLate' })
  })

  it('the professional or an admin: always in full, however late', () => {
    for (const at of [startsAt - 25 * HOUR, startsAt - MS, startsAt + HOUR]) {
      expect(quoteRefund(consultation(paidLongAgo, 'professional'), at)).toMatchObject({ refundCents: 25_000, reason: 'refunds.reason.cancelledByProfessional' })
      expect(quoteRefund(consultation(paidLongAgo, 'admin'), at)).toMatchObject({ refundCents: 25_000, reason: 'refunds.reason.cancelledByAdmin' })
    }
  })

  it('paid with a package credit: the credit returns instead of money, by the same rules', () => {
    const credit = { method: 'package_credit', packagePaidAt: sp('2026-03-01T09:00:00') } as const
    expect(quoteRefund(consultation(credit), startsAt - 24 * HOUR)).toEqual({
      refundCents: 0,
      reason: 'refunds.reason.consultationNotice',
      deadline: null,
      creditReturned: true,
      accessEndsAt: null,
    })
    expect(quoteRefund(consultation(credit), startsAt - 24 * HOUR + MS)).toMatchObject({ creditReturned: false, reason: 'refunds.reason.consultationLate' })
    expect(quoteRefund(consultation(credit, 'professional'), startsAt - MS)).toMatchObject({ creditReturned: true, reason: 'refunds.reason.cancelledByProfessional' })
    const recentPackage = { method: 'package_credit', packagePaidAt: sp('2026-03-15T09:00:00') } as const
    expect(quoteRefund(consultation(recentPackage), startsAt - HOUR)).toMatchObject({ refundCents: 0, creditReturned: true, reason: 'refunds.reason.withdrawal' })
  })
})

describe('quoteRefund: consultation packages', () => {
  const paidAt = sp('2026-03-01T09:00:00')
  const pack = (amountCents: number, credits: number, creditsUsed: number) => ({ kind: 'consultation_package', payment: card(paidAt, amountCents), credits, creditsUsed }) as const

  it('untouched within 7 days: in full by the withdrawal right, the credits ending', () => {
    const at = sp('2026-03-05T12:00:00')
    expect(quoteRefund(pack(120_000, 10, 0), at)).toEqual({
      refundCents: 120_000,
      reason: 'refunds.reason.withdrawal',
      deadline: { method: 'card', key: 'refunds.deadline.card', billingCycles: 2 },
      creditReturned: false,
      accessEndsAt: at,
    })
  })

  it('partly used, at any time: the unused credits pro rata', () => {
    expect(quoteRefund(pack(120_000, 10, 3), sp('2026-03-05T12:00:00'))).toMatchObject({ refundCents: 84_000, reason: 'refunds.reason.unusedCredits' })
    expect(quoteRefund(pack(120_000, 10, 3), sp('2026-06-05T12:00:00'))).toMatchObject({ refundCents: 84_000, reason: 'refunds.reason.unusedCredits' })
    expect(quoteRefund(pack(120_000, 10, 0), sp('2026-06-05T12:00:00'))).toMatchObject({ refundCents: 120_000, reason: 'refunds.reason.unusedCredits' })
  })

  it('rounds down to the cent', () => {
    expect(quoteRefund(pack(10_000, 3, 1), sp('2026-06-05T12:00:00')).refundCents).toBe(6_666) // 6666.67
    expect(quoteRefund(pack(10_000, 3, 2), sp('2026-06-05T12:00:00')).refundCents).toBe(3_333) // 3333.33
    expect(quoteRefund(pack(1, 2, 1), sp('2026-06-05T12:00:00'))).toMatchObject({ refundCents: 0, deadline: null }) // half a cent
    expect(quoteRefund(pack(999_999_999, 7, 4), sp('2026-06-05T12:00:00')).refundCents).toBe(428_571_428) // 428571428.14
    expect(quoteRefund(pack(MAX_AMOUNT_CENTS, 1000, 1), sp('2026-06-05T12:00:00')).refundCents).toBe(999_000_000)
  })

  it('used up: nothing, and nothing left to end', () => {
    expect(quoteRefund(pack(120_000, 10, 10), sp('2026-03-02T12:00:00'))).toEqual({
      refundCents: 0,
      reason: 'refunds.reason.packageUsedUp',
      deadline: null,
      creditReturned: false,
      accessEndsAt: null,
    })
  })
})

describe('quoteRefund: subscriptions', () => {
  const subscribedAt = sp('2026-03-01T09:00:00')
  const periodEndsAt = sp('2026-04-01T09:00:00')
  const subscription = { kind: 'subscription', payment: pix(subscribedAt, 4_990), subscribedAt, periodEndsAt } as const

  it('within its first 7 days: in full, access ending at once', () => {
    const at = sp('2026-03-08T23:59:59.999')
    expect(quoteRefund(subscription, at)).toEqual({
      refundCents: 4_990,
      reason: 'refunds.reason.subscriptionWithdrawal',
      deadline: { method: 'pix', key: 'refunds.deadline.pix', businessDays: 3, date: '2026-03-11' },
      creditReturned: false,
      accessEndsAt: at,
    })
  })

  it('later: nothing, access until the period’s end', () => {
    expect(quoteRefund(subscription, sp('2026-03-09T00:00:00'))).toEqual({
      refundCents: 0,
      reason: 'refunds.reason.subscriptionPeriodEnd',
      deadline: null,
      creditReturned: false,
      accessEndsAt: periodEndsAt,
    })
  })

  it('a renewal opens no new 7 days', () => {
    const renewal = { ...subscription, payment: pix(periodEndsAt, 4_990), periodEndsAt: sp('2026-05-01T09:00:00') }
    expect(quoteRefund(renewal, sp('2026-04-02T09:00:00'))).toMatchObject({ refundCents: 0, reason: 'refunds.reason.subscriptionPeriodEnd', accessEndsAt: sp('2026-05-01T09:00:00') })
  })
})

describe('quoteRefund refuses what cannot be', () => {
  const paidAt = sp('2026-03-01T09:00:00')
  const at = sp('2026-03-02T09:00:00')

  it('amounts that are not whole cents within bounds', () => {
    for (const amountCents of [12.5, -1, -0, MAX_AMOUNT_CENTS + 1, NaN]) expect(() => quoteRefund({ kind: 'course', payment: card(paidAt, amountCents) }, at)).toThrow(RangeError)
  })

  it('credits out of bounds, more used than held', () => {
    for (const [credits, creditsUsed] of [[0, 0], [1001, 0], [2.5, 0], [10, 11], [10, -1], [10, 1.5]]) {
      expect(() => quoteRefund({ kind: 'consultation_package', payment: card(paidAt), credits: credits!, creditsUsed: creditsUsed! }, at)).toThrow(RangeError)
    }
  })

  it('a cancellation before its payment, instants that are not instants, unknown methods, cancellers and kinds', () => {
    expect(() => quoteRefund({ kind: 'course', payment: card(at) }, paidAt)).toThrow(RangeError)
    expect(() => quoteRefund({ kind: 'course', payment: card(paidAt) }, NaN)).toThrow(RangeError)
    expect(() => quoteRefund({ kind: 'course', payment: card(paidAt + 0.5) }, at)).toThrow(RangeError)
    expect(() => quoteRefund({ kind: 'course', payment: { method: 'cash' as 'card', paidAt, amountCents: 100 } }, at)).toThrow(RangeError)
    expect(() => quoteRefund({ kind: 'consultation', payment: card(paidAt), startsAt: at + HOUR, cancelledBy: 'robot' as 'admin' }, at)).toThrow(RangeError)
    expect(() => quoteRefund({ kind: 'consultation', payment: { method: 'package_credit', packagePaidAt: at + 1 }, startsAt: at + HOUR, cancelledBy: 'patient' }, at)).toThrow(RangeError)
    expect(() => quoteRefund({ kind: 'gift_card' } as unknown as Cancellation, at)).toThrow(RangeError)
  })

  it('a subscription paid before it started, or for a period already over at its payment', () => {
    expect(() => quoteRefund({ kind: 'subscription', payment: card(paidAt), subscribedAt: paidAt + 1, periodEndsAt: at + HOUR }, at)).toThrow(RangeError)
    expect(() => quoteRefund({ kind: 'subscription', payment: card(paidAt), subscribedAt: paidAt, periodEndsAt: paidAt }, at)).toThrow(RangeError)
  })
})

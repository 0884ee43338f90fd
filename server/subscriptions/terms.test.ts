import { describe, expect, it } from 'vitest'
import { hasAccess, newPriceFrom, nextPeriodCents, paidPeriod, periodEnd, planTerm, priceNoticeOf, reminderDueAt } from '#server/subscriptions/terms.ts'

const at = (iso: string) => Date.parse(iso)
const monthly = planTerm({ planInterval: 'monthly', trialDays: 0, weeks: null })

describe('a plan’s terms', () => {
  it('monthly and yearly renew; the trial plan is its days and the program plan its weeks, once', () => {
    expect(monthly).toEqual({ renews: true, trialDays: 0, unit: 'month', count: 1 })
    expect(planTerm({ planInterval: 'yearly', trialDays: 14, weeks: null })).toEqual({ renews: true, trialDays: 14, unit: 'year', count: 1 })
    expect(planTerm({ planInterval: 'trial', trialDays: 7, weeks: null })).toEqual({ renews: false, trialDays: 0, unit: 'day', count: 7 })
    expect(planTerm({ planInterval: 'program', trialDays: 0, weeks: 12 })).toEqual({ renews: false, trialDays: 0, unit: 'day', count: 84 })
  })

  it('a month keeps the start’s day, clamped to a shorter month; a year to 28 February after a 29th', () => {
    expect(periodEnd(at('2026-01-15T13:00:00Z'), monthly)).toBe(at('2026-02-15T13:00:00Z'))
    expect(periodEnd(at('2026-01-31T13:00:00Z'), monthly)).toBe(at('2026-02-28T13:00:00Z'))
    expect(periodEnd(at('2027-12-31T23:59:00Z'), monthly)).toBe(at('2028-01-31T23:59:00Z'))
    expect(periodEnd(at('2028-02-29T10:00:00Z'), { unit: 'year', count: 1 })).toBe(at('2029-02-28T10:00:00Z'))
    expect(periodEnd(at('2026-03-01T00:00:00Z'), { unit: 'day', count: 7 })).toBe(at('2026-03-08T00:00:00Z'))
  })

  it('a PIX payment buys the period after the running one, or from now when it has ended', () => {
    const end = at('2026-04-10T12:00:00Z')
    expect(paidPeriod(at('2026-04-05T09:00:00Z'), end, monthly)).toEqual({ start: end, end: at('2026-05-10T12:00:00Z') })
    expect(paidPeriod(at('2026-04-12T09:00:00Z'), end, monthly)).toEqual({ start: at('2026-04-12T09:00:00Z'), end: at('2026-05-12T09:00:00Z') })
    expect(paidPeriod(at('2026-04-12T09:00:00Z'), null, monthly).start).toBe(at('2026-04-12T09:00:00Z'))
  })

  it('reminds a PIX subscriber 7 days before the end', () => {
    expect(reminderDueAt(at('2026-04-10T12:00:00Z'))).toBe(at('2026-04-03T12:00:00Z'))
  })

  it('a new price reaches a subscriber at the first renewal 30 days or more after the notice', () => {
    const end = at('2026-04-10T12:00:00Z')
    // Told 20 days before the renewal: that renewal is too soon, the next one it is.
    expect(newPriceFrom(at('2026-03-21T12:00:00Z'), end, monthly)).toBe(at('2026-05-10T12:00:00Z'))
    // Told exactly 30 days before: that renewal.
    expect(newPriceFrom(at('2026-03-11T12:00:00Z'), end, monthly)).toBe(end)
    expect(newPriceFrom(at('2026-03-21T12:00:00Z'), end, { renews: true, trialDays: 0, unit: 'year', count: 1 })).toBe(at('2027-04-10T12:00:00Z'))
  })

  it('tells a higher price 30 days ahead, a lower one for the next renewal, and withdraws a change the plan undid', () => {
    const end = at('2026-04-10T12:00:00Z')
    const paying = { priceCents: 8990, nextPriceCents: null, nextPriceFrom: null, currentPeriodEnd: end }
    const now = at('2026-03-21T12:00:00Z')
    expect(priceNoticeOf(paying, 8990, monthly, now)).toEqual({ kind: 'none' })
    expect(priceNoticeOf(paying, 9990, monthly, now)).toEqual({ kind: 'notice', cents: 9990, from: at('2026-05-10T12:00:00Z') })
    expect(priceNoticeOf(paying, 7990, monthly, now)).toEqual({ kind: 'notice', cents: 7990, from: end })
    const told = { ...paying, nextPriceCents: 9990, nextPriceFrom: at('2026-05-10T12:00:00Z') }
    expect(priceNoticeOf(told, 9990, monthly, now)).toEqual({ kind: 'none' })
    expect(priceNoticeOf(told, 8990, monthly, now)).toEqual({ kind: 'withdrawn' })
    // Changed again: counted from the new notice.
    expect(priceNoticeOf(told, 10_990, monthly, at('2026-04-01T12:00:00Z'))).toEqual({ kind: 'notice', cents: 10_990, from: at('2026-05-10T12:00:00Z') })
    expect(priceNoticeOf(told, 10_990, monthly, at('2026-04-12T12:00:00Z'))).toEqual({ kind: 'notice', cents: 10_990, from: at('2026-06-10T12:00:00Z') })
  })

  it('the next period costs the new price only when it starts on or after the new price’s date', () => {
    const end = at('2026-04-10T12:00:00Z')
    const told = { priceCents: 8990, nextPriceCents: 9990, nextPriceFrom: at('2026-05-10T12:00:00Z'), currentPeriodEnd: end }
    expect(nextPeriodCents(told)).toBe(8990)
    expect(nextPeriodCents({ ...told, currentPeriodEnd: at('2026-05-10T12:00:00Z') })).toBe(9990)
    expect(nextPeriodCents({ ...told, nextPriceCents: null, nextPriceFrom: null })).toBe(8990)
  })

  it('gives access while trialing, active or past due, until the period’s end', () => {
    const end = at('2026-04-10T12:00:00Z')
    expect(hasAccess({ status: 'active', currentPeriodEnd: end }, end - 1)).toBe(true)
    expect(hasAccess({ status: 'past_due', currentPeriodEnd: end }, end - 1)).toBe(true)
    expect(hasAccess({ status: 'active', currentPeriodEnd: end }, end)).toBe(false)
    expect(hasAccess({ status: 'ended', currentPeriodEnd: end }, end - 1)).toBe(false)
    expect(hasAccess({ status: 'incomplete', currentPeriodEnd: null }, end)).toBe(false)
  })
})

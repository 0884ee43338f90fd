import type { PlanInterval } from '#server/db/schema.ts'

/**
 * A plan's terms (docs/product.md §9, decision 0052), pure: how long a period lasts, whether it
 * renews, when a PIX subscriber is reminded, when a new price reaches a subscriber, whether a
 * subscriber has access. What cancelling gives back is quoteRefund's (server/purchases/refund-rules.ts).
 */

const DAY_MS = 24 * 60 * 60 * 1000

/** A card renewal that failed is tried again every 3 days (twice); still unpaid after 7 days, the subscription ends. */
export const RENEWAL_RETRY_MS = 3 * DAY_MS
export const RENEWAL_GRACE_MS = 7 * DAY_MS
export const RENEWAL_RETRIES = 2

/** A period: calendar months or years (the start's day kept, clamped to the month's end), or days. */
export type PlanTerm = { renews: boolean; trialDays: number; unit: 'month' | 'year' | 'day'; count: number }

type Plan = { planInterval: PlanInterval; trialDays: number; weeks: number | null }

/**
 * Monthly and yearly plans renew (with the plan's trial first, where it has one); the trial plan
 * is its days, paid once; the program plan its weeks, paid once. Neither of the last two renews.
 */
export function planTerm(plan: Plan): PlanTerm {
  switch (plan.planInterval) {
    case 'monthly':
      return { renews: true, trialDays: plan.trialDays, unit: 'month', count: 1 }
    case 'yearly':
      return { renews: true, trialDays: plan.trialDays, unit: 'year', count: 1 }
    case 'trial':
      return { renews: false, trialDays: 0, unit: 'day', count: plan.trialDays }
    case 'program':
      return { renews: false, trialDays: 0, unit: 'day', count: (plan.weeks ?? 12) * 7 }
  }
}

/**
 * The end of the period that starts at `start` (ms): months and years keep the start's day of the
 * month and time (UTC, as Stripe's billing anchor), clamped to a shorter month's last day.
 */
export function periodEnd(start: number, term: Pick<PlanTerm, 'unit' | 'count'>): number {
  if (term.unit === 'day') return start + term.count * DAY_MS
  const from = new Date(start)
  const months = term.count * (term.unit === 'year' ? 12 : 1)
  const target = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, 1, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay))
  return target.getTime()
}

/**
 * The period a PIX payment buys: from the current period's end when it is still running (paying
 * early loses nothing), else from the payment.
 */
export function paidPeriod(paidAt: number, currentEnd: number | null, term: PlanTerm): { start: number; end: number } {
  const start = currentEnd !== null && currentEnd > paidAt ? currentEnd : paidAt
  return { start, end: periodEnd(start, term) }
}

/** A PIX subscriber is reminded this long before the period ends (docs/product.md §9). */
export const PIX_REMINDER_BEFORE_MS = 7 * DAY_MS
/** A new price reaches a subscriber only this long after they were told (docs/product.md §9). */
const PRICE_NOTICE_MS = 30 * DAY_MS

/** When the PIX reminder for a period ending at `end` is due. */
export const reminderDueAt = (end: number) => end - PIX_REMINDER_BEFORE_MS

/**
 * The first renewal at which a price change told at `noticeAt` may apply: the first period
 * boundary (from `periodEnd` on) at least 30 days after the notice.
 */
export function newPriceFrom(noticeAt: number, currentPeriodEnd: number, term: PlanTerm): number {
  let boundary = currentPeriodEnd
  for (let guard = 0; boundary < noticeAt + PRICE_NOTICE_MS && guard < 400; guard++) boundary = periodEnd(boundary, term)
  return boundary
}

/** The price fields of a subscription that decide what its next period costs. */
type SubscriptionPrice = { priceCents: number; nextPriceCents: number | null; nextPriceFrom: number | null; currentPeriodEnd: number }

/** What the next period costs: the new price when its date is the period's end or earlier. */
export function nextPeriodCents(subscription: SubscriptionPrice): number {
  const { nextPriceCents, nextPriceFrom, currentPeriodEnd } = subscription
  return nextPriceCents !== null && nextPriceFrom !== null && nextPriceFrom <= currentPeriodEnd ? nextPriceCents : subscription.priceCents
}

/**
 * What a plan's price (`planCents`) means for one subscriber, told at `now` (decision 0053):
 * nothing when they pay it or were already told of it; `withdrawn` when the plan is back to what
 * they pay (the change told is off); otherwise a notice: a higher price from the first renewal
 * at least 30 days away, a lower one from the next renewal (no notice is owed for paying less).
 */
type PriceNotice = { kind: 'none' } | { kind: 'withdrawn' } | { kind: 'notice'; cents: number; from: number }

export function priceNoticeOf(subscription: SubscriptionPrice, planCents: number, term: PlanTerm, now: number): PriceNotice {
  if (planCents === (subscription.nextPriceCents ?? subscription.priceCents)) return { kind: 'none' }
  if (planCents === subscription.priceCents) return { kind: 'withdrawn' }
  const from = planCents < subscription.priceCents ? subscription.currentPeriodEnd : newPriceFrom(now, subscription.currentPeriodEnd, term)
  return { kind: 'notice', cents: planCents, from }
}

type SubscriptionState = { status: string; currentPeriodEnd: number | null }

/** Access while trialing, active or past due (a renewal being retried), until the period ends. */
export function hasAccess(subscription: SubscriptionState, now: number): boolean {
  return ['trialing', 'active', 'past_due'].includes(subscription.status) && subscription.currentPeriodEnd !== null && now < subscription.currentPeriodEnd
}

/**
 * What a plan's page offers a patient who may already have one (docs/product.md §2, issue 42,
 * decisions 0072 and 0078). Every plan opens the same things (courses, live classes, habit
 * tools), so while one is live another gives nothing more: the page says which plan the patient
 * has and does not offer the form. Switching between a monthly and a yearly plan is done at the
 * current period's end: the paid period is used in full, nothing is prorated or charged twice.
 * Pure; no I/O.
 */
const LIVE_STATUSES = ['incomplete', 'trialing', 'active', 'past_due'] as const

type PlanOfUser = { productId: number; status: string; renews: boolean; cancelAtPeriodEnd: boolean }

type PlanChoice =
  /** No plan live: the form is offered. */
  | { kind: 'open' }
  /** This very plan is live (or its first payment is open). */
  | { kind: 'same' }
  /**
   * Another plan is live. `switchAt`: how this one can follow it: `period_end` (it renews: cancel
   * it at the period's end first), `ends` (it ends on its own, or is already set to end).
   */
  | { kind: 'nothing_more'; switchAt: 'period_end' | 'ends'; awaitingPayment: boolean }

export function planChoice(productId: number, plans: readonly PlanOfUser[]): PlanChoice {
  const live = plans.find((plan) => (LIVE_STATUSES as readonly string[]).includes(plan.status))
  if (!live) return { kind: 'open' }
  if (live.productId === productId) return { kind: 'same' }
  return { kind: 'nothing_more', switchAt: live.renews && !live.cancelAtPeriodEnd ? 'period_end' : 'ends', awaitingPayment: live.status === 'incomplete' }
}

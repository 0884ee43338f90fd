import type { PurchaseRow } from '#server/purchases/repository.ts'
import type { RefundQuote } from '#server/purchases/refund-rules.ts'
import { serializeDeadline } from '#server/purchases/serializers.ts'
import type { ProductRow } from '#server/products/repository.ts'
import { cardUpdatable } from '#server/subscriptions/card.ts'
import type { SubscriptionRow } from '#server/subscriptions/repository.ts'
import { hasAccess, planTerm, reminderDueAt, RENEWAL_GRACE_MS } from '#server/subscriptions/terms.ts'

const iso = (value: Date | null) => (value ? value.toISOString() : null)

/**
 * A subscription as its subscriber reads it (decision 0052): the plan, the status and the period,
 * whether it has access now, what it costs and a price change told, its payments, the way to pay
 * while one is open, and what cancelling now would do.
 */
export function serializeSubscription(
  subscription: SubscriptionRow,
  { plan, payments, quote, now }: { plan: ProductRow; payments: PurchaseRow[]; quote: RefundQuote | null; now: number },
) {
  const term = planTerm({ planInterval: plan.planInterval!, trialDays: plan.trialDays ?? 0, weeks: plan.weeks })
  const open = payments.find((payment) => payment.status === 'pending')
  const end = subscription.currentPeriodEnd
  return {
    id: subscription.id,
    status: subscription.status,
    method: subscription.method,
    plan: { id: plan.id, slug: plan.slug, name: plan.name, plan_interval: plan.planInterval, renews: term.renews, trial_days: term.trialDays },
    price_cents: subscription.priceCents,
    next_price: subscription.nextPriceCents !== null ? { price_cents: subscription.nextPriceCents, from: iso(subscription.nextPriceFrom) } : null,
    current_period_start: iso(subscription.currentPeriodStart),
    current_period_end: iso(end),
    has_access: hasAccess({ status: subscription.status, currentPeriodEnd: end?.getTime() ?? null }, now),
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    // PIX: when the next period is to be paid (its reminder), while the subscription renews.
    pay_next_from: subscription.method === 'pix' && term.renews && end && !subscription.cancelAtPeriodEnd && subscription.status !== 'ended' ? new Date(reminderDueAt(end.getTime())).toISOString() : null,
    checkout_url: subscription.status === 'incomplete' ? subscription.checkoutUrl : null,
    // A renewing plan by card: the subscriber may save a new card (decision 0055), last done then.
    card_updatable: cardUpdatable(subscription),
    card_updated_at: iso(subscription.cardUpdatedAt),
    // A refused renewal: unpaid until then, the subscription ends.
    renewal_deadline: subscription.status === 'past_due' && subscription.pastDueSince ? new Date(subscription.pastDueSince.getTime() + RENEWAL_GRACE_MS).toISOString() : null,
    open_payment_id: open?.id ?? null,
    // A card's page for that payment (a plan paid once by card), while it is open.
    open_payment_checkout_url: open?.checkoutUrl ?? null,
    payments: payments.map((payment) => ({
      id: payment.id,
      status: payment.status,
      method: payment.method,
      total_cents: payment.totalCents,
      period_start: iso(payment.periodStart),
      period_end: iso(payment.periodEnd),
      paid_at: iso(payment.paidAt),
    })),
    cancellation: quote && {
      refund_cents: quote.refundCents,
      reason: quote.reason,
      withdrawal: quote.refundCents > 0,
      access_ends_at: quote.accessEndsAt !== null ? new Date(quote.accessEndsAt).toISOString() : null,
      deadline: serializeDeadline(quote.deadline),
    },
    ended_at: iso(subscription.endedAt),
    ended_reason: subscription.endedReason,
    created_at: subscription.createdAt.toISOString(),
  }
}

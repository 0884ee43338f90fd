import { eq } from 'drizzle-orm'
import type { Writer } from '#server/db/client.ts'
import { products, purchases } from '#server/db/schema.ts'
import type { ProductRow } from '#server/products/repository.ts'
import { endSubscription, lockSubscription, updateSubscription } from '#server/subscriptions/repository.ts'
import { paidPeriod, planTerm, type PlanTerm } from '#server/subscriptions/terms.ts'

/**
 * What a subscription period's purchase does to its subscription (decision 0052), inside the
 * purchase's own transaction: the purchases' applySignal and recordTransition call these (as they
 * call the held consultations' holds.ts), so a period is granted exactly when its payment is
 * recorded, once, and a subscription never paid ends with its payment. No import of the purchases'
 * modules here: they import this one.
 */

export const termOf = (plan: Pick<ProductRow, 'planInterval' | 'trialDays' | 'weeks'>): PlanTerm => planTerm({ planInterval: plan.planInterval!, trialDays: plan.trialDays ?? 0, weeks: plan.weeks })

type PeriodPurchase = { id: number; subscriptionId: number | null }

/**
 * A period's purchase was paid: the subscription runs for the period it bought, from the end of
 * the running one (a PIX renewal paid early) or from now; a price told to the subscriber becomes
 * theirs from its date. `late`: the subscription is over meanwhile, and the caller refunds.
 */
export async function startPaidPeriod(tx: Writer, purchase: PeriodPurchase, now: number): Promise<{ late: boolean }> {
  if (purchase.subscriptionId === null) return { late: false }
  const subscription = await lockSubscription(tx, purchase.subscriptionId)
  if (!subscription || subscription.status === 'ended') return { late: true }
  const [plan] = await tx.select().from(products).where(eq(products.id, subscription.productId))
  const fresh = subscription.status === 'incomplete'
  const period = paidPeriod(now, fresh ? null : (subscription.currentPeriodEnd?.getTime() ?? null), termOf(plan!))
  await tx.update(purchases).set({ periodStart: new Date(period.start), periodEnd: new Date(period.end) }).where(eq(purchases.id, purchase.id))
  const priceNow = subscription.nextPriceCents !== null && subscription.nextPriceFrom !== null && subscription.nextPriceFrom.getTime() <= period.start
  await updateSubscription(
    tx,
    subscription.id,
    {
      status: 'active',
      currentPeriodStart: fresh || !subscription.currentPeriodStart ? new Date(period.start) : subscription.currentPeriodStart,
      currentPeriodEnd: new Date(period.end),
      firstPaidAt: subscription.firstPaidAt ?? new Date(now),
      ...(priceNow && { priceCents: subscription.nextPriceCents!, nextPriceCents: null, nextPriceFrom: null }),
    },
    now,
  )
  return { late: false }
}

/**
 * A period's purchase ended unpaid (failed, expired, cancelled): a subscription never paid ends
 * with it; a renewal's code simply lapses (another may be asked for while the period runs).
 */
export async function periodPurchaseEnded(tx: Writer, purchase: PeriodPurchase, now: number): Promise<void> {
  if (purchase.subscriptionId === null) return
  const subscription = await lockSubscription(tx, purchase.subscriptionId)
  if (subscription?.status === 'incomplete') await endSubscription(tx, subscription, 'not_paid', now)
}

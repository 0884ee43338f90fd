import type Stripe from 'stripe'
import { errorFields } from '#server/log.ts'
import type { Services } from '#server/services.ts'
import { movePurchase } from '#server/billing/transitions.ts'
import { closeReplaced, readSignals, applyAll } from '#server/billing/stripe-news.ts'
import { replacedToClose } from '#server/purchases/replacements.ts'
import { sendRefunds } from '#server/purchases/refunds.ts'
import { lockPurchase, pendingRefunds, purchasesToCheck, updatePurchase, type PurchaseRow } from '#server/purchases/repository.ts'

/** A pending purchase made at Stripe is asked about again after this long without news (a lost webhook, a crash). */
const RECONCILE_AFTER_MS = 5 * 60_000
/** How often the tick runs; and how long a refund waits before its retry. */
export const PURCHASES_TICK_MS = 60_000
/** A PIX code past its expiry by this long, still pending, is expired by us (Stripe's own event normally comes first). */
const EXPIRY_GRACE_MS = 60_000
const PER_TICK = 20

type PurchasesReport = { checked: number; expired: number; refunds: number; failed: number; closed: number }

/**
 * The purchases' periodic work (jobs.ts), safe in several processes at once: pending purchases
 * made at Stripe and not heard of for RECONCILE_AFTER_MS, or past their expiry, are asked about
 * and what Stripe says is applied (the crash and lost-webhook cases, exactly once like any
 * signal); those still pending past their expiry are canceled at Stripe and expired; refunds
 * Stripe has not taken yet are sent again.
 */
export async function purchasesTick(services: Services): Promise<PurchasesReport | undefined> {
  const { db, clock, log, stripe } = services
  if (!stripe) return undefined
  const report: PurchasesReport = { checked: 0, expired: 0, refunds: 0, failed: 0, closed: 0 }
  const now = clock()
  for (const purchase of await purchasesToCheck(db, { now, checkedBefore: now - RECONCILE_AFTER_MS, limit: PER_TICK })) {
    try {
      const signals = await readSignals(stripe, purchase)
      const after = (await applyAll(services, purchase.id, signals, 'reconcile', { checkedAt: new Date(now) })) ?? purchase
      report.checked += 1
      if (after.status === 'pending' && isPastExpiry(after, now)) {
        await expireAtStripe(stripe, after)
        const expired = await db.transaction(async (tx) => {
          const locked = await lockPurchase(tx, after.id)
          return locked?.status === 'pending' ? movePurchase(tx, locked, 'expired', { source: 'expiry', now: clock(), changes: { pixData: null, checkoutUrl: null } }) : undefined
        })
        if (expired) report.expired += 1
      }
    } catch (error) {
      report.failed += 1
      log({ level: 'warn', msg: 'purchase reconciliation failed', purchase_id: purchase.id, ...errorFields(error) })
      await updatePurchase(db, purchase.id, { checkedAt: new Date(now) }, clock())
    }
  }
  const due = await pendingRefunds(db, now - PURCHASES_TICK_MS, PER_TICK)
  await sendRefunds(services, due)
  report.refunds = due.length
  // Purchases cancelled for another one (decision 0076) whose way to pay Stripe had not closed yet.
  for (const replaced of await replacedToClose(db, now - PURCHASES_TICK_MS, PER_TICK)) if (await closeReplaced(services, replaced)) report.closed += 1
  return report
}

function isPastExpiry(purchase: PurchaseRow, now: number): boolean {
  if (purchase.method === 'pix') return purchase.pixExpiresAt !== null && purchase.pixExpiresAt.getTime() + EXPIRY_GRACE_MS <= now
  return purchase.checkoutExpiresAt !== null && purchase.checkoutExpiresAt.getTime() <= now
}

/** Ends the way to pay at Stripe (Stripe does it too at the expiry; this is for when it has not). */
async function expireAtStripe(stripe: Stripe, purchase: PurchaseRow): Promise<void> {
  if (purchase.stripeCheckoutSessionId) {
    const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId)
    if (session.status === 'open') await stripe.checkout.sessions.expire(session.id)
  }
  if (purchase.stripePaymentIntentId) {
    const paymentIntent = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId)
    if (!['succeeded', 'canceled'].includes(paymentIntent.status)) await stripe.paymentIntents.cancel(paymentIntent.id, { cancellation_reason: 'abandoned' })
  }
}

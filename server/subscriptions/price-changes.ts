import type Stripe from 'stripe'
import { eq } from 'drizzle-orm'
import { products } from '#server/db/schema.ts'
import type { ProductRow } from '#server/products/repository.ts'
import { stripeOf } from '#server/stripe/client.ts'
import type { Services } from '#server/services.ts'
import { queueSubscriptionMail } from '#server/subscriptions/messages.ts'
import { termOf } from '#server/subscriptions/periods.ts'
import { dueForPriceNotice, dueForStripePrice, lockSubscription, updateSubscription, type SubscriptionRow } from '#server/subscriptions/repository.ts'
import { nextPeriodCents, priceNoticeOf, type PlanTerm } from '#server/subscriptions/terms.ts'

/**
 * A plan's new price reaching its subscribers (docs/product.md §9, decision 0053). The plan's price
 * changes at once for new subscribers (the admin's `PATCH /products/{id}/`); each live subscriber
 * is then told by the periodic tick, which compares what they pay (or were told they will pay)
 * with the plan's price under the subscription's lock: the notice, its date and its e-mail are
 * written together, once, also with several provider processes. A card's Stripe Price is changed
 * during the period before the new price applies, so Stripe's renewal charges it.
 */

const BATCH = 100

/** The subscription's price fields as terms.ts reads them. */
const priceOf = (subscription: SubscriptionRow) => ({
  priceCents: subscription.priceCents,
  nextPriceCents: subscription.nextPriceCents,
  nextPriceFrom: subscription.nextPriceFrom?.getTime() ?? null,
  currentPeriodEnd: subscription.currentPeriodEnd!.getTime(),
})

/** Tells each subscriber whose plan's price changed (or changed back); how many were told. */
export async function noticePriceChanges(services: Services, now: number): Promise<number> {
  const { db, config } = services
  let told = 0
  for (const due of await dueForPriceNotice(db, { limit: BATCH })) {
    const sent = await db.transaction(async (tx) => {
      const locked = await lockSubscription(tx, due.id)
      if (!locked?.currentPeriodEnd || !['trialing', 'active', 'past_due'].includes(locked.status) || locked.cancelAtPeriodEnd) return false
      const [plan] = await tx.select().from(products).where(eq(products.id, locked.productId))
      const notice = priceNoticeOf(priceOf(locked), plan!.priceCents, termOf(plan!), now)
      if (notice.kind === 'none') return false
      if (notice.kind === 'withdrawn') {
        const cleared = await updateSubscription(tx, locked.id, { nextPriceCents: null, nextPriceFrom: null }, now)
        await queueSubscriptionMail(tx, cleared, 'price_change_withdrawn', config.appPublicUrl)
        return true
      }
      const told = await updateSubscription(tx, locked.id, { nextPriceCents: notice.cents, nextPriceFrom: new Date(notice.from) }, now)
      await queueSubscriptionMail(tx, told, 'price_change', config.appPublicUrl)
      return true
    })
    if (sent) told += 1
  }
  return told
}

/** Stripe's recurring Price for this plan at this amount: found by its lookup key, else made. */
export async function recurringPrice(stripe: Stripe, plan: ProductRow, term: PlanTerm, cents: number): Promise<string> {
  const lookupKey = `innera_${plan.slug}_${cents}`
  const found = await stripe.prices.list({ lookup_keys: [lookupKey], limit: 1 })
  if (found.data[0]) return found.data[0].id
  const price = await stripe.prices.create(
    { currency: 'brl', unit_amount: cents, recurring: { interval: term.unit === 'year' ? 'year' : 'month' }, product_data: { name: plan.name.pt }, lookup_key: lookupKey },
    { idempotencyKey: `innera-price-${lookupKey}` },
  )
  return price.id
}

/**
 * Sets at Stripe the Price each card subscription's next renewal charges, where it differs (a new
 * price whose date is the period's end, or a withdrawn one), with no proration. Setting the same
 * Price twice changes nothing, so two processes doing it at once is harmless; the amount set is
 * recorded under the lock only if it is still the one due. Stripe away: the next tick tries again.
 */
export async function setStripePrices(services: Services): Promise<number> {
  const { db, clock } = services
  let set = 0
  for (const due of await dueForStripePrice(db, { limit: BATCH })) {
    try {
      const cents = nextPeriodCents(priceOf(due))
      const [plan] = await db.select().from(products).where(eq(products.id, due.productId))
      const stripe = stripeOf(services)
      const remote = await stripe.subscriptions.retrieve(due.stripeSubscriptionId!)
      const item = remote.items.data[0]
      if (!item || ['canceled', 'incomplete_expired'].includes(remote.status)) continue
      const price = await recurringPrice(stripe, plan!, termOf(plan!), cents)
      if (item.price.id !== price) await stripe.subscriptions.update(remote.id, { items: [{ id: item.id, price }], proration_behavior: 'none' })
      const recorded = await db.transaction(async (tx) => {
        const locked = await lockSubscription(tx, due.id)
        if (!locked?.currentPeriodEnd || nextPeriodCents(priceOf(locked)) !== cents) return false
        await updateSubscription(tx, locked.id, { stripePriceCents: cents }, clock())
        return true
      })
      if (recorded) set += 1
    } catch (error) {
      services.log({ level: 'warn', msg: 'subscription price not set at Stripe', subscription_id: due.id, error: error instanceof Error ? error.name : 'unknown' })
    }
  }
  return set
}

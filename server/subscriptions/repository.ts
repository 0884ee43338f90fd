import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import type { Database, Writer } from '#server/db/client.ts'
import { LIVE_SUBSCRIPTION_STATUSES, products, purchases, subscriptions, type SubscriptionEndReason } from '#server/db/schema.ts'

/** A subscription's rows (decision 0052): reads, the locked read and the writes of its service. */

export type SubscriptionRow = typeof subscriptions.$inferSelect
type Reader = Pick<Database, 'select'>

export async function findSubscription(db: Reader, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id))
  return row
}

export async function findSubscriptionByKey(db: Reader, userId: number, key: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.idempotencyKey, key)))
  return row
}

/** Our subscription for a Stripe Subscription (or, before Stripe named it, ours by id from its metadata). */
export async function findSubscriptionByStripe(db: Reader, ref: { stripeSubscriptionId?: string; subscriptionId?: number }): Promise<SubscriptionRow | undefined> {
  const conditions = [
    ...(ref.stripeSubscriptionId ? [eq(subscriptions.stripeSubscriptionId, ref.stripeSubscriptionId)] : []),
    ...(ref.subscriptionId !== undefined ? [eq(subscriptions.id, ref.subscriptionId)] : []),
  ]
  if (conditions.length === 0) return undefined
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(or(...conditions))
    .limit(1)
  return row
}

/** The user's live subscription (not over), if any: the plan at a time a user may have (decision 0072), the same plan's first. */
export async function liveSubscriptionOf(db: Reader, userId: number, productId: number): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE_SUBSCRIPTION_STATUSES])))
    .orderBy(sql`${subscriptions.productId} = ${productId} desc`, desc(subscriptions.id))
    .limit(1)
  return row
}

/** The row, locked until the transaction ends: every change of a subscription is made under it. */
export async function lockSubscription(tx: Writer, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update')
  return row
}

export async function insertSubscription(tx: Writer, values: Pick<typeof subscriptions.$inferInsert, 'userId' | 'productId' | 'method' | 'priceCents' | 'idempotencyKey'>, now: number): Promise<SubscriptionRow> {
  const [row] = await tx
    .insert(subscriptions)
    .values({ ...values, status: 'incomplete', createdAt: new Date(now), updatedAt: new Date(now) })
    .returning()
  return row!
}

export async function updateSubscription(tx: Writer, id: number, changes: Partial<typeof subscriptions.$inferInsert>, now: number): Promise<SubscriptionRow> {
  const [row] = await tx
    .update(subscriptions)
    .set({ ...changes, updatedAt: new Date(now) })
    .where(eq(subscriptions.id, id))
    .returning()
  return row!
}

/** Over: its access ends now (or at the end the caller names) and it holds no place any more. */
export function endSubscription(tx: Writer, subscription: Pick<SubscriptionRow, 'id'>, reason: SubscriptionEndReason, now: number, changes: Partial<typeof subscriptions.$inferInsert> = {}) {
  return updateSubscription(tx, subscription.id, { ...changes, status: 'ended', endedAt: new Date(now), endedReason: reason, checkoutUrl: null }, now)
}

export async function countSubscriptionsOf(db: Reader, userId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(subscriptions).where(eq(subscriptions.userId, userId))
  return row?.value ?? 0
}

export async function subscriptionsPageOf(db: Reader, userId: number, { limit, offset }: { limit: number; offset: number }): Promise<SubscriptionRow[]> {
  return db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt), desc(subscriptions.id)).limit(limit).offset(offset)
}

/** A subscription's payments (its purchases), newest first. */
export async function paymentsOf(db: Reader, subscriptionId: number) {
  return db.select().from(purchases).where(eq(purchases.subscriptionId, subscriptionId)).orderBy(desc(purchases.createdAt), desc(purchases.id))
}

/** PIX subscriptions that renew, are not being cancelled, and whose reminder for this period is due and not yet sent. */
export async function dueForReminder(db: Reader, { remindBefore, now, limit }: { remindBefore: number; now: number; limit: number }): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        inArray(subscriptions.status, ['trialing', 'active']),
        eq(subscriptions.method, 'pix'),
        eq(subscriptions.cancelAtPeriodEnd, false),
        isNotNull(subscriptions.currentPeriodEnd),
        lte(subscriptions.currentPeriodEnd, new Date(now + remindBefore)),
        gt(subscriptions.currentPeriodEnd, new Date(now)),
        or(isNull(subscriptions.remindedFor), sql`${subscriptions.remindedFor} <> ${subscriptions.currentPeriodEnd}`),
      ),
    )
    .orderBy(asc(subscriptions.currentPeriodEnd), asc(subscriptions.id))
    .limit(limit)
}

/** Live subscriptions whose period is over (the tick ends those Stripe does not renew). */
export async function periodOver(db: Reader, { now, limit }: { now: number; limit: number }): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(and(inArray(subscriptions.status, ['trialing', 'active', 'past_due']), lte(subscriptions.currentPeriodEnd, new Date(now))))
    .orderBy(asc(subscriptions.currentPeriodEnd), asc(subscriptions.id))
    .limit(limit)
}

/** Card subscriptions whose renewal failed and is still unpaid. */
export async function pastDue(db: Reader, { limit }: { limit: number }): Promise<SubscriptionRow[]> {
  return db.select().from(subscriptions).where(eq(subscriptions.status, 'past_due')).orderBy(asc(subscriptions.pastDueSince), asc(subscriptions.id)).limit(limit)
}

/**
 * Subscribers whose plan's price is not what they pay or were told they will pay (decision 0053):
 * live, renewing, not ending with their period (a resumed one is told when it resumes).
 */
export async function dueForPriceNotice(db: Reader, { limit }: { limit: number }): Promise<SubscriptionRow[]> {
  const rows = await db
    .select({ subscription: subscriptions })
    .from(subscriptions)
    .innerJoin(products, eq(products.id, subscriptions.productId))
    .where(
      and(
        inArray(subscriptions.status, ['trialing', 'active', 'past_due']),
        eq(subscriptions.cancelAtPeriodEnd, false),
        isNotNull(subscriptions.currentPeriodEnd),
        inArray(products.planInterval, ['monthly', 'yearly']),
        sql`${products.priceCents} <> coalesce(${subscriptions.nextPriceCents}, ${subscriptions.priceCents})`,
      ),
    )
    .orderBy(asc(subscriptions.id))
    .limit(limit)
  return rows.map((row) => row.subscription)
}

/** What the next period costs, in SQL (terms.ts's nextPeriodCents). */
const nextPeriodCentsSql = sql`case when ${subscriptions.nextPriceCents} is not null and ${subscriptions.nextPriceFrom} <= ${subscriptions.currentPeriodEnd} then ${subscriptions.nextPriceCents} else ${subscriptions.priceCents} end`

/** Card subscriptions renewed by Stripe whose Price at Stripe is not what their next period costs. */
export async function dueForStripePrice(db: Reader, { limit }: { limit: number }): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        inArray(subscriptions.status, ['trialing', 'active', 'past_due']),
        isNotNull(subscriptions.stripeSubscriptionId),
        isNotNull(subscriptions.currentPeriodEnd),
        sql`${nextPeriodCentsSql} <> coalesce(${subscriptions.stripePriceCents}, ${subscriptions.priceCents})`,
      ),
    )
    .orderBy(asc(subscriptions.id))
    .limit(limit)
}

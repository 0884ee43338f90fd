import { and, desc, eq, notInArray } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { notificationSettings, pushSubscriptions } from '#server/db/schema.ts'

/** A user's browsers at most: subscribing on one more drops the oldest (a browser long gone, most likely). */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect
export type NewPushSubscription = { endpoint: string; p256dh: string; auth: string }

/**
 * Keeps a browser's subscription for the user and turns their push channel on, in one
 * transaction. The endpoint's unique index decides: a browser already subscribed (by this user or,
 * on a shared computer, by another) becomes this user's with its new keys. Past
 * PUSH_SUBSCRIPTIONS_PER_USER the user's oldest are deleted. `created`: a new endpoint.
 */
export async function saveSubscription(db: Database, userId: number, subscription: NewPushSubscription, now: Date): Promise<{ row: PushSubscriptionRow; created: boolean }> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint))
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ userId, ...subscription, createdAt: now })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, p256dh: subscription.p256dh, auth: subscription.auth, createdAt: now } })
      .returning()
    const kept = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
      .limit(PUSH_SUBSCRIPTIONS_PER_USER)
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, kept)))
    await tx
      .insert(notificationSettings)
      .values({ userId, push: true, updatedAt: now })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: { push: true, updatedAt: now } })
    return { row: row!, created: existing === undefined }
  })
}

/** Deletes the user's subscription of that endpoint; false when they have none there (another's is not theirs to end). */
export async function deleteOwnSubscription(db: Database, userId: number, endpoint: string): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id })
  return rows.length > 0
}

/** A subscription the push service said is gone (404, 410), by id: a browser that subscribed again since keeps its new row. */
export async function deleteSubscription(db: Database, id: number, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.endpoint, endpoint)))
}

/** The user's subscriptions, the newest first. */
export function subscriptionsOf(db: Database, userId: number): Promise<PushSubscriptionRow[]> {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id)).limit(PUSH_SUBSCRIPTIONS_PER_USER)
}

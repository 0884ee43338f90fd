import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { removeFromAccountCart } from '#server/carts/repository.ts'
import {
  consultationCredits,
  purchaseGrants,
  purchaseItems,
  purchaseRefunds,
  purchases,
  purchaseTransitions,
  stripeWebhookEvents,
  type GrantKind,
  type ProductType,
  type PurchaseRefundReason,
  type PurchaseStatus,
  type TransitionSource,
} from '#server/db/schema.ts'

/**
 * The purchases' queries (decision 0048). Writes that belong together take a Writer: the
 * transaction they are part of.
 */

export type PurchaseRow = typeof purchases.$inferSelect
export type PurchaseItemRow = typeof purchaseItems.$inferSelect
export type TransitionRow = typeof purchaseTransitions.$inferSelect
export type RefundRow = typeof purchaseRefunds.$inferSelect
export type CreditRow = typeof consultationCredits.$inferSelect
export type GrantRow = typeof purchaseGrants.$inferSelect
export type NewPurchaseItem = Omit<typeof purchaseItems.$inferInsert, 'id' | 'purchaseId'>
/** A transaction, or the database for a single statement. */
export type Writer = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>
type Reader = Pick<Database, 'select'>

/** What each product type grants when paid (docs/product.md §9: courses and programs at once, materials within 24 hours, packages as credits). */
export const GRANT_KIND_OF: Readonly<Record<Exclude<ProductType, 'subscription'>, GrantKind>> = {
  course: 'course',
  digital_material: 'material',
  program: 'program',
  consultation_package: 'consultation_credits',
}

export async function findPurchase(db: Reader, id: number): Promise<PurchaseRow | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.id, id))
  return row
}

export async function findPurchaseByKey(db: Reader, userId: number, key: string): Promise<PurchaseRow | undefined> {
  const [row] = await db
    .select()
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.idempotencyKey, key)))
  return row
}

/** The purchase a Stripe object names: by its metadata's purchase id, else by the PaymentIntent or Checkout Session it keeps. */
export async function findPurchaseByRef(db: Reader, ref: { purchaseId?: number; paymentIntentId?: string; sessionId?: string }): Promise<PurchaseRow | undefined> {
  if (ref.purchaseId !== undefined) return findPurchase(db, ref.purchaseId)
  const conditions = [
    ref.paymentIntentId ? eq(purchases.stripePaymentIntentId, ref.paymentIntentId) : undefined,
    ref.sessionId ? eq(purchases.stripeCheckoutSessionId, ref.sessionId) : undefined,
  ].filter((condition) => condition !== undefined)
  if (conditions.length === 0) return undefined
  const [row] = await db
    .select()
    .from(purchases)
    .where(or(...conditions))
    .limit(1)
  return row
}

/** The purchase locked until the transaction ends: its changes happen one at a time, across processes. */
export async function lockPurchase(tx: Writer, id: number): Promise<PurchaseRow | undefined> {
  const [row] = await tx.select().from(purchases).where(eq(purchases.id, id)).for('update')
  return row
}

export async function countPurchasesOf(db: Reader, userId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(purchases).where(eq(purchases.userId, userId))
  return Number(row?.total ?? 0)
}

/** A page of a user's purchases, newest first. */
export async function purchasesPageOf(db: Reader, userId: number, { limit, offset }: { limit: number; offset: number }): Promise<PurchaseRow[]> {
  return db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(desc(purchases.createdAt), desc(purchases.id)).limit(limit).offset(offset)
}

export async function itemsOf(db: Reader, purchaseIds: number[]): Promise<PurchaseItemRow[]> {
  if (purchaseIds.length === 0) return []
  return db.select().from(purchaseItems).where(inArray(purchaseItems.purchaseId, purchaseIds)).orderBy(asc(purchaseItems.id))
}

export async function transitionsOf(db: Reader, purchaseId: number): Promise<TransitionRow[]> {
  return db.select().from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, purchaseId)).orderBy(asc(purchaseTransitions.id))
}

export async function refundsOf(db: Reader, purchaseId: number): Promise<RefundRow[]> {
  return db.select().from(purchaseRefunds).where(eq(purchaseRefunds.purchaseId, purchaseId)).orderBy(asc(purchaseRefunds.id))
}

export async function creditsOf(db: Reader, purchaseId: number): Promise<CreditRow[]> {
  return db.select().from(consultationCredits).where(eq(consultationCredits.purchaseId, purchaseId))
}

export async function grantsOf(db: Reader, purchaseId: number): Promise<GrantRow[]> {
  return db.select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, purchaseId)).orderBy(asc(purchaseGrants.id))
}

/** Writes a status change and its record. */
export async function recordTransition(
  tx: Writer,
  purchase: Pick<PurchaseRow, 'id' | 'status'>,
  to: PurchaseStatus,
  { source, eventId = null, now, changes = {} }: { source: TransitionSource; eventId?: string | null; now: number; changes?: Partial<typeof purchases.$inferInsert> },
): Promise<PurchaseRow> {
  const [row] = await tx
    .update(purchases)
    .set({ ...changes, status: to, updatedAt: new Date(now) })
    .where(eq(purchases.id, purchase.id))
    .returning()
  await tx.insert(purchaseTransitions).values({ purchaseId: purchase.id, fromStatus: purchase.status, toStatus: to, at: new Date(now), source, stripeEventId: eventId })
  return row!
}

export async function updatePurchase(tx: Writer, id: number, changes: Partial<typeof purchases.$inferInsert>, now: number): Promise<PurchaseRow> {
  const [row] = await tx
    .update(purchases)
    .set({ ...changes, updatedAt: new Date(now) })
    .where(eq(purchases.id, id))
    .returning()
  return row!
}

/** A new pending purchase with its items and its first transition, all or nothing. */
export async function insertPurchase(
  db: Database,
  values: Pick<typeof purchases.$inferInsert, 'userId' | 'method' | 'totalCents' | 'idempotencyKey'>,
  items: NewPurchaseItem[],
  now: number,
): Promise<PurchaseRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(purchases)
      .values({ ...values, status: 'pending', createdAt: new Date(now), updatedAt: new Date(now) })
      .returning()
    await tx.insert(purchaseItems).values(items.map((item) => ({ ...item, purchaseId: row!.id })))
    await tx.insert(purchaseTransitions).values({ purchaseId: row!.id, fromStatus: null, toStatus: 'pending', at: new Date(now), source: 'create' })
    return row!
  })
}

/** Records a Stripe event as processed; false when it already was (by this or another process). */
export async function claimWebhookEvent(tx: Writer, eventId: string, type: string, now: number): Promise<boolean> {
  const inserted = await tx
    .insert(stripeWebhookEvents)
    .values({ eventId, type: type.slice(0, 100), receivedAt: new Date(now) })
    .onConflictDoNothing()
    .returning({ eventId: stripeWebhookEvents.eventId })
  return inserted.length > 0
}

/**
 * What a paid purchase gives, once: a grant per product (the unique index makes a second one a
 * no-op) and a package's credits, with the package's professional or any (null).
 */
export async function makeGrants(tx: Writer, purchase: PurchaseRow, items: PurchaseItemRow[], now: number): Promise<void> {
  const at = new Date(now)
  if (items.length === 0) return
  // What is paid for leaves the account's cart (decision 0047); the browser's copy follows on the purchase's page.
  await removeFromAccountCart(tx, purchase.userId, items.map((item) => item.productId), at)
  await tx
    .insert(purchaseGrants)
    .values(items.map((item) => ({ userId: purchase.userId, productId: item.productId, purchaseId: purchase.id, kind: GRANT_KIND_OF[item.productType], availableAt: at, createdAt: at })))
    .onConflictDoNothing()
  const packages = items.filter((item) => item.productType === 'consultation_package')
  if (packages.length === 0) return
  await tx
    .insert(consultationCredits)
    .values(
      packages.map((item) => ({
        userId: purchase.userId,
        purchaseId: purchase.id,
        productId: item.productId,
        professionalId: item.professionalId,
        total: (item.consultations ?? 1) * item.quantity,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .onConflictDoNothing()
}

/**
 * Ends a purchase's grants (all, or those of `productIds`) and the unused credits of its packages
 * (decision 0044: the unused credits end at once; used ones stay used).
 */
export async function revokeGrants(tx: Writer, purchaseId: number, now: number, productIds?: number[]): Promise<void> {
  const at = new Date(now)
  const which = productIds ? inArray(purchaseGrants.productId, productIds) : undefined
  if (productIds && productIds.length === 0) return
  await tx
    .update(purchaseGrants)
    .set({ revokedAt: at })
    .where(and(eq(purchaseGrants.purchaseId, purchaseId), isNull(purchaseGrants.revokedAt), which))
  await tx
    .update(consultationCredits)
    .set({ total: sql`${consultationCredits.used}`, updatedAt: at })
    .where(and(eq(consultationCredits.purchaseId, purchaseId), productIds ? inArray(consultationCredits.productId, productIds) : undefined))
}

/** A refund to ask Stripe for, once per payment and reason; undefined when it was already written. */
export async function insertRefund(
  tx: Writer,
  values: { purchaseId: number; paymentIntentId: string; amountCents: number; reason: PurchaseRefundReason },
  now: number,
): Promise<RefundRow | undefined> {
  const [row] = await tx
    .insert(purchaseRefunds)
    .values({ ...values, createdAt: new Date(now), updatedAt: new Date(now) })
    .onConflictDoNothing()
    .returning()
  return row
}

export async function updateRefund(db: Writer, id: number, changes: Partial<typeof purchaseRefunds.$inferInsert>, now: number): Promise<void> {
  await db
    .update(purchaseRefunds)
    .set({ ...changes, updatedAt: new Date(now) })
    .where(eq(purchaseRefunds.id, id))
}

/** Refunds still to send that nobody touched since `before` (the tick's retries). */
export async function pendingRefunds(db: Reader, before: number, limit: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(purchaseRefunds)
    .where(and(eq(purchaseRefunds.status, 'pending'), lte(purchaseRefunds.updatedAt, new Date(before))))
    .orderBy(asc(purchaseRefunds.updatedAt), asc(purchaseRefunds.id))
    .limit(limit)
}

/**
 * Pending purchases to ask Stripe about: past their PIX code's or Checkout Session's expiry, or
 * made at Stripe and not checked since `checkedBefore` (a webhook lost, a crash before it was
 * applied). Oldest check first, so every one gets its turn.
 */
export async function purchasesToCheck(db: Reader, { now, checkedBefore, limit }: { now: number; checkedBefore: number; limit: number }): Promise<PurchaseRow[]> {
  const stale = new Date(checkedBefore)
  return db
    .select()
    .from(purchases)
    .where(
      and(
        eq(purchases.status, 'pending'),
        or(isNotNull(purchases.stripePaymentIntentId), isNotNull(purchases.stripeCheckoutSessionId)),
        or(
          lt(purchases.pixExpiresAt, new Date(now)),
          lt(purchases.checkoutExpiresAt, new Date(now)),
          and(lte(purchases.createdAt, stale), or(isNull(purchases.checkedAt), lte(purchases.checkedAt, stale))),
        ),
      ),
    )
    .orderBy(sql`${purchases.checkedAt} asc nulls first`, asc(purchases.id))
    .limit(limit)
}

/** A user's products in force (granted, not revoked). */
const ownedBy = (userId: number) => and(eq(purchaseGrants.userId, userId), isNull(purchaseGrants.revokedAt))

export async function countOwnedGrants(db: Reader, userId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(purchaseGrants).where(ownedBy(userId))
  return Number(row?.total ?? 0)
}

/** A page of a user's grants in force, newest first. */
export async function ownedGrantsPage(db: Reader, userId: number, { limit, offset }: { limit: number; offset: number }): Promise<GrantRow[]> {
  return db.select().from(purchaseGrants).where(ownedBy(userId)).orderBy(desc(purchaseGrants.availableAt), desc(purchaseGrants.id)).limit(limit).offset(offset)
}

export async function creditsOfPurchases(db: Reader, purchaseIds: number[]): Promise<CreditRow[]> {
  if (purchaseIds.length === 0) return []
  return db.select().from(consultationCredits).where(inArray(consultationCredits.purchaseId, purchaseIds))
}

import { and, asc, eq, inArray, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm'
import type { Database, Writer } from '#server/db/client.ts'
import { purchaseItems, purchases, type PurchaseStatus, type TransitionSource } from '#server/db/schema.ts'
import { claimHolders, ONE_TIME_TYPES } from '#server/purchases/claims.ts'
import { lockPurchase, recordTransition, type PurchaseItemRow, type PurchaseRow } from '#server/purchases/repository.ts'

/**
 * A buyer's other checkouts of what they now own (decision 0076). Once a purchase is paid and
 * holds the claims of its courses, digital materials and programs (decision 0072), every other
 * purchase of the buyer not final yet (pending, failed or expired) that has one of them is
 * cancelled, in the paying transaction, naming the purchase that holds the product now
 * (`replaced_by_purchase_id`, transition source `replaced`): a failed card purchase whose Checkout
 * page is still open at Stripe, a PIX code left open in another tab, can no longer be paid here.
 * Its Checkout Session is expired and its PaymentIntent cancelled at Stripe once that transaction
 * has committed (billing/stripe-news.ts: closeReplaced, retried by the tick); a payment that reaches it all
 * the same is refunded in full as `superseded` (statuses.ts).
 */

/** Statuses a purchase may still leave for a payment, a new PIX code or a cancel: not final. */
const OPEN_STATUSES = ['pending', 'failed', 'expired'] as const satisfies readonly PurchaseStatus[]
/** Statuses whose page may say the product is the buyer's through another purchase. */
const UNPAID_ENDED: readonly PurchaseStatus[] = ['failed', 'expired', 'cancelled']

type Reader = Pick<Database, 'select'>

/** What the paying transaction cancelled, and the candidates another transaction held locked (left to finishReplacements). */
export type Replacements = { cancelled: PurchaseRow[]; busy: number[] }

/** The buyer's other purchases not final with a line of one of these products, oldest first. */
async function openPurchasesWith(db: Reader, holder: Pick<PurchaseRow, 'id' | 'userId'>, productIds: readonly number[]): Promise<number[]> {
  const rows = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(
      and(
        eq(purchases.userId, holder.userId),
        ne(purchases.id, holder.id),
        inArray(purchases.status, [...OPEN_STATUSES]),
        sql`exists (select 1 from ${purchaseItems} where ${purchaseItems.purchaseId} = ${purchases.id} and ${inArray(purchaseItems.productId, [...productIds])})`,
      ),
    )
    .orderBy(asc(purchases.id))
  return rows.map((row) => row.id)
}

type Moved = { source: TransitionSource; eventId?: string | null; now: number }

/** Cancels a purchase (locked by the caller, not final) for `holderId`, which holds its product now. */
function cancelFor(tx: Writer, purchase: PurchaseRow, holderId: number, { eventId = null, now }: Omit<Moved, 'source'>): Promise<PurchaseRow> {
  const atStripe = purchase.stripeCheckoutSessionId !== null || purchase.stripePaymentIntentId !== null
  return recordTransition(tx, purchase, 'cancelled', {
    source: 'replaced',
    eventId,
    now,
    // Nothing was started at Stripe (it was away at the create): nothing to close there.
    changes: { replacedByPurchaseId: holderId, pixData: null, checkoutUrl: null, stripeClosedAt: atStripe ? null : new Date(now) },
  })
}

/**
 * In the transaction that paid `holder` and took the claims of `productIds`: the buyer's other
 * purchases not final with one of them, cancelled. Those another transaction holds locked at this
 * moment are skipped rather than waited for (that transaction may be waiting for these claims:
 * two payments of one product at once would deadlock) and answered as `busy`, for
 * finishReplacements once this one has committed.
 */
export async function cancelReplaced(tx: Writer, holder: PurchaseRow, productIds: readonly number[], { eventId = null, now }: Omit<Moved, 'source'>): Promise<Replacements> {
  if (productIds.length === 0) return { cancelled: [], busy: [] }
  const candidates = await openPurchasesWith(tx, holder, productIds)
  if (candidates.length === 0) return { cancelled: [], busy: [] }
  const locked = await tx.select().from(purchases).where(inArray(purchases.id, candidates)).orderBy(asc(purchases.id)).for('update', { skipLocked: true })
  const cancelled: PurchaseRow[] = []
  for (const row of locked) {
    // Read again once locked: it may have moved since the look above.
    if ((OPEN_STATUSES as readonly PurchaseStatus[]).includes(row.status)) cancelled.push(await cancelFor(tx, row, holder.id, { eventId, now }))
  }
  const busy = candidates.filter((id) => !locked.some((row) => row.id === id))
  return { cancelled, busy }
}

/** The one-time products of a purchase's lines. */
const oneTimeProducts = (items: readonly PurchaseItemRow[]) =>
  items.flatMap((item) => ((ONE_TIME_TYPES as readonly string[]).includes(item.productType) && item.productId !== null ? [item.productId] : []))

/**
 * A purchase not final whose product the buyer has through another paid purchase, cancelled for
 * it, in the caller's transaction (the purchase locked until it ends, waiting for another
 * transaction that holds it); undefined when it is final by now or nothing it has is owned so.
 */
export async function replaceIfOwned(tx: Writer, purchaseId: number, now: number): Promise<PurchaseRow | undefined> {
  const purchase = await lockPurchase(tx, purchaseId)
  if (!purchase || !(OPEN_STATUSES as readonly PurchaseStatus[]).includes(purchase.status)) return undefined
  const items = await tx.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, purchase.id))
  const holder = (await claimHolders(tx, purchase.userId, oneTimeProducts(items))).find((row) => row.status === 'paid' && row.purchaseId !== purchase.id)
  return holder ? cancelFor(tx, purchase, holder.purchaseId, { now }) : undefined
}

/**
 * For the purchase's page and the lists (docs/product.md §3): the buyer's paid purchase that holds
 * a course, material or program of each purchase that ended unpaid (failed, expired, cancelled),
 * by purchase id; the one it was cancelled for while that one still holds it. One statement for
 * any number of purchases of one buyer; none when no such purchase has such a product.
 */
export async function replacingPurchases(db: Reader, rows: readonly PurchaseRow[], items: readonly PurchaseItemRow[]): Promise<Map<number, number>> {
  const found = new Map<number, number>()
  const ended = rows.filter((row) => UNPAID_ENDED.includes(row.status))
  const productsOf = new Map(ended.map((row) => [row.id, oneTimeProducts(items.filter((item) => item.purchaseId === row.id))]))
  for (const userId of new Set(ended.map((row) => row.userId))) {
    const wanted = [...new Set(ended.filter((row) => row.userId === userId).flatMap((row) => productsOf.get(row.id)!))]
    if (wanted.length === 0) continue
    const holders = (await claimHolders(db, userId, wanted)).filter((holder) => holder.status === 'paid')
    for (const row of ended.filter((candidate) => candidate.userId === userId)) {
      const mine = holders.filter((holder) => holder.purchaseId !== row.id && productsOf.get(row.id)!.includes(holder.productId))
      const holder = mine.find((candidate) => candidate.purchaseId === row.replacedByPurchaseId) ?? mine[0]
      if (holder) found.set(row.id, holder.purchaseId)
    }
  }
  return found
}

/** Cancelled for another purchase, not yet closed at Stripe, untouched since `before` (the tick's retries), oldest first. */
export async function replacedToClose(db: Reader, before: number, limit: number): Promise<PurchaseRow[]> {
  return db
    .select()
    .from(purchases)
    .where(and(isNotNull(purchases.replacedByPurchaseId), isNull(purchases.stripeClosedAt), lte(purchases.updatedAt, new Date(before))))
    .orderBy(asc(purchases.updatedAt), asc(purchases.id))
    .limit(limit)
}

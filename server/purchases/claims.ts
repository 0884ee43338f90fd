import { and, eq, inArray, sql } from 'drizzle-orm'
import { rowsOf, type Database, type Writer } from '#server/db/client.ts'
import { purchaseClaims, purchaseItems, purchases, type PurchaseStatus } from '#server/db/schema.ts'
import type { Outcome } from '#server/purchases/statuses.ts'

/**
 * A course, digital material or program is bought once (issue 41, decision 0072): per buyer and
 * product, one purchase at most holds its claim (`purchase_claims`, the primary key decides,
 * between processes too): a pending one, or a paid one while the product's access is in force.
 * Claims are taken with the purchase (insertPurchaseIn), again when a failed or expired purchase
 * goes back to pending or is paid after all, and released when it fails, expires or is cancelled
 * (recordTransition) or the product's access ends (revokeGrants).
 */

/** The product types a buyer has for good once bought (refuseOwned's before this rule). */
export const ONE_TIME_TYPES = ['course', 'digital_material', 'program'] as const

/** Some products of a purchase are held by other purchases of the buyer: nothing was written. */
export class ProductsClaimed extends Error {
  readonly productIds: number[]
  constructor(productIds: number[]) {
    super(`products held by another purchase: ${productIds.join(', ')}`)
    this.name = 'ProductsClaimed'
    this.productIds = productIds
  }
}

const oneTimeTypes = sql.join(
  ONE_TIME_TYPES.map((type) => sql`${type}`),
  sql`, `,
)

/**
 * Takes the claims of the purchase's one-time products, in the caller's transaction, and answers
 * those another purchase holds (none: the purchase holds them all now). One statement: a product
 * free is claimed, one the purchase holds already stays so; one held by another purchase is left
 * to it, its row locked until the transaction ends, so it cannot be released meanwhile and what
 * was answered stays true. A claim being taken by another transaction is waited for. Products in
 * id order, so two purchases claiming the same ones never wait on each other in a circle.
 */
export async function claimProducts(tx: Writer, purchase: { id: number; userId: number }, now: number): Promise<number[]> {
  return (await takeClaims(tx, purchase, now)).refused
}

/**
 * claimProducts, answering also the one-time products the purchase holds now (`held`): a payment
 * that took them cancels the buyer's other checkouts of them (replacements.ts, decision 0076).
 */
export async function takeClaims(tx: Writer, purchase: { id: number; userId: number }, now: number): Promise<{ held: number[]; refused: number[] }> {
  const c = purchaseClaims
  const i = purchaseItems
  const rows = await rowsOf<{ product_id: number; held: boolean }>(
    tx.execute(sql`with wanted as (
        select ${i.productId} as product_id from ${i}
        where ${i.purchaseId} = ${purchase.id} and ${i.productType} in (${oneTimeTypes}) and ${i.productId} is not null
      ),
      held as (
        insert into ${c} (user_id, product_id, purchase_id, claimed_at)
        select ${purchase.userId}::integer, product_id, ${purchase.id}::integer, ${new Date(now).toISOString()}::timestamptz from wanted order by product_id
        on conflict (user_id, product_id) do update set claimed_at = ${c.claimedAt} where ${c.purchaseId} = excluded.purchase_id
        returning product_id
      )
      select product_id, product_id in (select product_id from held) as held from wanted order by product_id`),
  )
  const of = (held: boolean) => rows.filter((row) => row.held === held).map((row) => Number(row.product_id))
  return { held: of(true), refused: of(false) }
}

/**
 * What a payment does to a purchase that could not take its claims (applySignal): nothing granted,
 * the money back in full (`superseded`), the purchase refunded, and the claims it took of the
 * products still free given up again. The buyer never pays twice and keeps both.
 */
export async function supersededPayment(tx: Writer, purchase: { id: number; totalCents: number }, payment: { paymentIntentId: string; amountCents: number }): Promise<Outcome> {
  await releaseClaims(tx, purchase.id)
  const { paymentIntentId, amountCents } = payment
  return { to: 'refunded', paymentIntentId, refund: { paymentIntentId, amountCents, reason: 'superseded' }, refundedCents: Math.min(amountCents, purchase.totalCents) }
}

/** Gives up the purchase's claims (all, or those of `productIds`): the products may be bought again. */
export async function releaseClaims(tx: Writer, purchaseId: number, productIds?: readonly number[]): Promise<void> {
  if (productIds && productIds.length === 0) return
  await tx.delete(purchaseClaims).where(and(eq(purchaseClaims.purchaseId, purchaseId), productIds ? inArray(purchaseClaims.productId, [...productIds]) : undefined))
}

export type ClaimHolder = { productId: number; purchaseId: number; status: PurchaseStatus }

/** Which purchases of the buyer hold these products now, and in which status. */
export async function claimHolders(db: Pick<Database, 'select'>, userId: number, productIds: readonly number[]): Promise<ClaimHolder[]> {
  if (productIds.length === 0) return []
  return db
    .select({ productId: purchaseClaims.productId, purchaseId: purchaseClaims.purchaseId, status: purchases.status })
    .from(purchaseClaims)
    .innerJoin(purchases, eq(purchases.id, purchaseClaims.purchaseId))
    .where(and(eq(purchaseClaims.userId, userId), inArray(purchaseClaims.productId, [...productIds])))
    .orderBy(purchaseClaims.productId)
}

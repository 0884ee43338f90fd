import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, isNull, lt, lte, or, sql, type Column, type SQL } from 'drizzle-orm'
import { type Database, rowsOf, type Writer } from '#server/db/client.ts'
import { removeFromAccountCart } from '#server/carts/repository.ts'
import {
  appointments,
  carts,
  consultationCredits,
  purchaseClaims,
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
import { claimProducts, ONE_TIME_TYPES, ProductsClaimed, releaseClaims } from '#server/purchases/claims.ts'

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
/** A line of a product of the catalogue (every line but a consultation's). */
type CatalogueItem = PurchaseItemRow & { productId: number; productType: Exclude<ProductType, 'subscription'> }
/** The lines of products of the catalogue: a consultation's line is no product (decision 0051), a subscription's period grants nothing of its own (decision 0052). */
export const catalogueItems = (items: PurchaseItemRow[]): CatalogueItem[] =>
  items.filter((item): item is CatalogueItem => item.productId !== null && item.productType !== 'consultation' && item.productType !== 'subscription')
export type { Writer }
type Reader = Pick<Database, 'select'>

/** What each product type grants when paid (docs/product.md §9: courses and programs at once, materials within 24 hours, packages as credits). */
const GRANT_KIND_OF: Readonly<Record<Exclude<ProductType, 'subscription'>, GrantKind>> = {
  course: 'course',
  digital_material: 'material',
  program: 'program',
  consultation_package: 'consultation_credits',
}

/**
 * A row of `purchases` as a raw statement returns it (column names, the driver's values) made a
 * PurchaseRow, as drizzle's own selects map it.
 */
const PURCHASE_COLUMNS = getTableColumns(purchases) as Record<string, Column>
function purchaseOf(raw: Record<string, unknown>): PurchaseRow {
  const row: Record<string, unknown> = {}
  for (const [key, column] of Object.entries(PURCHASE_COLUMNS)) {
    const value = raw[column.name]
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
  }
  return row as PurchaseRow
}

/** A column's bare name, for the column lists of raw inserts and updates (drizzle's column chunks are qualified). */
const name = (column: Column) => sql.identifier(column.name)

/** An update's `column = value, …` for a raw statement, each value mapped by its column as drizzle's update().set() maps it. */
function assignments(changes: Partial<typeof purchases.$inferInsert>): SQL {
  const set = Object.entries(changes).filter(([, value]) => value !== undefined)
  return sql.join(
    set.map(([key, value]) => sql`${name(PURCHASE_COLUMNS[key]!)} = ${sql.param(value, PURCHASE_COLUMNS[key])}`),
    sql`, `,
  )
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

/**
 * Records a Stripe event as processed and, when it is new, finds the purchase it names and locks
 * it, in one statement (the webhook's first; decision 0048): `claimed` is false when the event
 * already was processed (by this or another process: a concurrent one waits on the primary key
 * until the first commits), and then nothing is locked. The purchase is found by the metadata's
 * purchase id, else by the PaymentIntent or Checkout Session it keeps; found in the statement's
 * snapshot and locked by its id, so a change that commits meanwhile (a PIX code renewed) is read
 * locked, as a find then a lock would read it.
 */
export async function claimEventAndLock(
  tx: Writer,
  event: { id: string; type: string; now: number },
  ref: { purchaseId?: number; paymentIntentId?: string; sessionId?: string } | undefined,
): Promise<{ claimed: boolean; purchase: PurchaseRow | undefined }> {
  const claim = sql`insert into ${stripeWebhookEvents} (${name(stripeWebhookEvents.eventId)}, ${name(stripeWebhookEvents.type)}, ${name(stripeWebhookEvents.receivedAt)})
    values (${event.id}, ${event.type.slice(0, 100)}, ${new Date(event.now).toISOString()}::timestamptz) on conflict do nothing returning 1`
  const id = purchaseIdOfRef(ref)
  if (!id) {
    const [row] = await rowsOf(tx.execute(sql`with claimed as (${claim}) select exists (select 1 from claimed) as claimed`))
    return { claimed: row?.claimed === true, purchase: undefined }
  }
  const [row] = await rowsOf(
    tx.execute(sql`with claimed as (${claim}),
      locked as (select * from ${purchases} where ${purchases.id} = ${id} and exists (select 1 from claimed) for update)
      select exists (select 1 from claimed) as claimed, locked.* from (select 1) as one left join locked on true`),
  )
  return { claimed: row?.claimed === true, purchase: row && row.id !== null ? purchaseOf(row) : undefined }
}

/** The id of the purchase a Stripe object names, as an expression: its metadata's, else the one keeping its PaymentIntent or Checkout Session. */
function purchaseIdOfRef(ref: { purchaseId?: number; paymentIntentId?: string; sessionId?: string } | undefined): SQL | undefined {
  if (!ref) return undefined
  if (ref.purchaseId !== undefined) return sql`${ref.purchaseId}::integer`
  const conditions = [
    ref.paymentIntentId ? eq(purchases.stripePaymentIntentId, ref.paymentIntentId) : undefined,
    ref.sessionId ? eq(purchases.stripeCheckoutSessionId, ref.sessionId) : undefined,
  ].filter((condition) => condition !== undefined)
  if (conditions.length === 0) return undefined
  return sql`(select ${purchases.id} from ${purchases} where ${or(...conditions)} limit 1)`
}

/** The purchase locked until the transaction ends: its changes happen one at a time, across processes. */
export async function lockPurchase(tx: Writer, id: number): Promise<PurchaseRow | undefined> {
  const [row] = await tx.select().from(purchases).where(eq(purchases.id, id)).for('update')
  return row
}

/** Which of a user's purchases a list shows: those of a product (a line of it), those in a status. */
type PurchaseFilter = { productId?: number; status?: PurchaseStatus }

const purchasesOf = (userId: number, { productId, status }: PurchaseFilter) =>
  and(
    eq(purchases.userId, userId),
    status === undefined ? undefined : eq(purchases.status, status),
    productId === undefined ? undefined : sql`exists (select 1 from ${purchaseItems} where ${purchaseItems.purchaseId} = ${purchases.id} and ${purchaseItems.productId} = ${productId})`,
  )

export async function countPurchasesOf(db: Reader, userId: number, filter: PurchaseFilter = {}): Promise<number> {
  const [row] = await db.select({ total: count() }).from(purchases).where(purchasesOf(userId, filter))
  return Number(row?.total ?? 0)
}

/** A page of a user's purchases, newest first. */
export async function purchasesPageOf(db: Reader, userId: number, { limit, offset }: { limit: number; offset: number }, filter: PurchaseFilter = {}): Promise<PurchaseRow[]> {
  return db.select().from(purchases).where(purchasesOf(userId, filter)).orderBy(desc(purchases.createdAt), desc(purchases.id)).limit(limit).offset(offset)
}

/**
 * A patient's standing with one product, as its page shows it: whether they have it in force,
 * and their newest payment of it still open (decision 0072).
 */
export async function standingOf(db: Reader, userId: number, productId: number): Promise<{ owned: boolean; openPurchaseId: number | null }> {
  const [owned, [open]] = await Promise.all([countOwnedGrants(db, userId, productId), purchasesPageOf(db, userId, { limit: 1, offset: 0 }, { productId, status: 'pending' })])
  return { owned: owned > 0, openPurchaseId: open?.id ?? null }
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

/** Statuses in which a purchase ends unpaid: its claims, and what it paid for (billing/transitions.ts), are released (decisions 0051, 0052, 0072). */
export const ENDED_UNPAID: readonly PurchaseStatus[] = ['failed', 'expired', 'cancelled']

/**
 * Writes a status change and its record, in one statement; with `grants` (a payment), what the
 * purchase gives too (makeGrants), in the same statement. What a purchase pays for beyond its
 * products (a held consultation time, a subscription's period) is told by billing/transitions.ts,
 * which every payment path calls instead. A purchase that ends unpaid releases its one-time
 * products' claims (decision 0072); back to pending
 * (a payment started again, a new PIX code) it takes them again, or throws ProductsClaimed when
 * another purchase of the buyer holds one, and the caller's transaction writes nothing.
 */
export async function recordTransition(
  tx: Writer,
  purchase: Pick<PurchaseRow, 'id' | 'status' | 'subscriptionId'>,
  to: PurchaseStatus,
  {
    source,
    eventId = null,
    now,
    changes = {},
    grants = false,
  }: { source: TransitionSource; eventId?: string | null; now: number; changes?: Partial<typeof purchases.$inferInsert>; grants?: boolean },
): Promise<PurchaseRow> {
  const at = new Date(now)
  const t = purchaseTransitions
  const giving = grants ? granting(sql`moved as paying`, at) : undefined
  const [row] = await rowsOf(
    tx.execute(sql`with moved as (update ${purchases} set ${assignments({ ...changes, status: to, updatedAt: at })} where ${purchases.id} = ${purchase.id} returning *),
      recorded as (
        insert into ${t} (${name(t.purchaseId)}, ${name(t.fromStatus)}, ${name(t.toStatus)}, ${name(t.at)}, ${name(t.source)}, ${name(t.stripeEventId)})
        select moved.id, ${purchase.status}::varchar, ${to}::varchar, ${at.toISOString()}::timestamptz, ${source}::varchar, ${eventId}::varchar from moved
      )${giving ? sql`, ${giving.ctes}` : sql``}
      select moved.*${giving ? sql`, ${giving.columns}` : sql``} from moved`),
  )
  if (!row) throw new Error(`No purchase ${purchase.id} to move to ${to}`)
  const updated = purchaseOf(row)
  if (giving) await leaveCart(tx, updated.userId, row, at)
  if (to === 'pending' && purchase.status !== 'pending') {
    const held = await claimProducts(tx, updated, now)
    if (held.length > 0) throw new ProductsClaimed(held)
  }
  if (ENDED_UNPAID.includes(to)) await releaseClaims(tx, purchase.id)
  return updated
}

/**
 * What a paid purchase gives, once: a grant per product (the unique index makes a second one a
 * no-op) and a package's credits, with the package's professional or any (null), as the parts of
 * one statement: the CTEs reading the purchase's lines and writing both, and the columns saying
 * which products were paid for and whether the account's cart holds any of them (leaveCart).
 * `paying` is a relation with the purchase's `id` and `user_id`.
 */
function granting(paying: SQL, at: Date): { ctes: SQL; columns: SQL } {
  const [i, g, c] = [purchaseItems, purchaseGrants, consultationCredits]
  const time = sql`${at.toISOString()}::timestamptz`
  const kind = sql`case items.product_type ${sql.join(
    Object.entries(GRANT_KIND_OF).map(([type, grant]) => sql`when ${type} then ${grant}`),
    sql` `,
  )} end`
  // The lines whose type grants something (catalogueItems'): a consultation's line is no product, its
  // payment books the held time instead (applySignal).
  const grantingTypes = sql.join(
    Object.keys(GRANT_KIND_OF).map((type) => sql`${type}`),
    sql`, `,
  )
  const ctes = sql`items as (
      select paying.id as purchase_id, paying.user_id, ${i.productId} as product_id, ${i.productType} as product_type, ${i.quantity} as quantity,
        ${i.consultations} as consultations, ${i.professionalId} as professional_id
      from ${i} join ${paying} on ${i.purchaseId} = paying.id
      where ${i.productId} is not null and ${i.productType} in (${grantingTypes})
    ),
    granted as (
      insert into ${g} (${name(g.userId)}, ${name(g.productId)}, ${name(g.purchaseId)}, ${name(g.kind)}, ${name(g.availableAt)}, ${name(g.createdAt)})
      select items.user_id, items.product_id, items.purchase_id, ${kind}, ${time}, ${time} from items
      on conflict do nothing
    ),
    credited as (
      insert into ${c} (${name(c.userId)}, ${name(c.purchaseId)}, ${name(c.productId)}, ${name(c.professionalId)}, ${name(c.total)}, ${name(c.createdAt)}, ${name(c.updatedAt)})
      select items.user_id, items.purchase_id, items.product_id, items.professional_id, coalesce(items.consultations, 1) * items.quantity, ${time}, ${time} from items
      where items.product_type = 'consultation_package'
      on conflict do nothing
    )`
  const columns = sql`array(select product_id from items) as paid_products,
    exists (
      select 1 from items join ${carts} on ${carts.userId} = items.user_id cross join jsonb_array_elements(${carts.lines}) as line
      where (line ->> 'product_id')::integer = items.product_id
    ) as in_cart`
  return { ctes, columns }
}

/** What is paid for leaves the account's cart (decision 0047), when the cart holds any of it; the browser's copy follows on the purchase's page. */
async function leaveCart(tx: Writer, userId: number, granted: Record<string, unknown>, at: Date): Promise<void> {
  if (granted.in_cart === true) await removeFromAccountCart(tx, userId, granted.paid_products as number[], at)
}

/** What a paid purchase gives (granting), for a purchase already marked paid. */
export async function makeGrants(tx: Writer, purchase: Pick<PurchaseRow, 'id' | 'userId'>, now: number): Promise<void> {
  const at = new Date(now)
  const giving = granting(sql`(select ${purchase.id}::integer as id, ${purchase.userId}::integer as user_id) as paying`, at)
  const [row] = await rowsOf(tx.execute(sql`with ${giving.ctes} select ${giving.columns}`))
  await leaveCart(tx, purchase.userId, row!, at)
}

export async function updatePurchase(tx: Writer, id: number, changes: Partial<typeof purchases.$inferInsert>, now: number): Promise<PurchaseRow> {
  const [row] = await tx
    .update(purchases)
    .set({ ...changes, updatedAt: new Date(now) })
    .where(eq(purchases.id, id))
    .returning()
  return row!
}

type NewPurchase = Pick<typeof purchases.$inferInsert, 'userId' | 'method' | 'totalCents' | 'idempotencyKey' | 'holdsTime' | 'subscriptionId'>

/** A new pending purchase with its items and its first transition, all or nothing. */
export async function insertPurchase(db: Database, values: NewPurchase, items: NewPurchaseItem[], now: number): Promise<PurchaseRow> {
  return db.transaction((tx) => insertPurchaseIn(tx, values, items, now))
}

/**
 * The same, inside the caller's transaction (a paid consultation's booking writes its purchase with
 * it). Its courses, materials and programs are claimed with it (decision 0072): when another
 * purchase of the buyer holds one, ProductsClaimed is thrown and the transaction writes nothing.
 */
export async function insertPurchaseIn(tx: Writer, values: NewPurchase, items: NewPurchaseItem[], now: number): Promise<PurchaseRow> {
  const [row] = await tx
    .insert(purchases)
    .values({ ...values, status: 'pending', createdAt: new Date(now), updatedAt: new Date(now) })
    .returning()
  await tx.insert(purchaseItems).values(items.map((item) => ({ ...item, purchaseId: row!.id })))
  await tx.insert(purchaseTransitions).values({ purchaseId: row!.id, fromStatus: null, toStatus: 'pending', at: new Date(now), source: 'create' })
  if (items.some((item) => (ONE_TIME_TYPES as readonly string[]).includes(item.productType))) {
    const held = await claimProducts(tx, row!, now)
    if (held.length > 0) throw new ProductsClaimed(held)
  }
  return row!
}

/**
 * Ends a purchase's grants (all, or those of `productIds`) and the unused credits of its packages
 * (decision 0044: the unused credits end at once; used ones stay used). What it no longer gives may
 * be bought again: its claims go too (decision 0072).
 */
export async function revokeGrants(tx: Writer, purchaseId: number, now: number, productIds?: number[]): Promise<void> {
  const at = new Date(now)
  const which = productIds ? inArray(purchaseGrants.productId, productIds) : undefined
  if (productIds && productIds.length === 0) return
  await releaseClaims(tx, purchaseId, productIds)
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

/**
 * A user's products in force (granted, not revoked). A course, material or program counts once:
 * through the purchase that holds its claim (decision 0072; a buyer who paid twice before that
 * rule has two grants of it).
 */
const ownedBy = (userId: number, productId?: number) =>
  and(
    eq(purchaseGrants.userId, userId),
    isNull(purchaseGrants.revokedAt),
    productId === undefined ? undefined : eq(purchaseGrants.productId, productId),
    or(
      eq(purchaseGrants.kind, 'consultation_credits'),
      sql`exists (select 1 from ${purchaseClaims} where ${purchaseClaims.userId} = ${purchaseGrants.userId} and ${purchaseClaims.productId} = ${purchaseGrants.productId} and ${purchaseClaims.purchaseId} = ${purchaseGrants.purchaseId})`,
    ),
  )

export async function countOwnedGrants(db: Reader, userId: number, productId?: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(purchaseGrants).where(ownedBy(userId, productId))
  return Number(row?.total ?? 0)
}

/** A page of a user's grants in force, newest first. */
export async function ownedGrantsPage(db: Reader, userId: number, { limit, offset }: { limit: number; offset: number }, productId?: number): Promise<GrantRow[]> {
  return db.select().from(purchaseGrants).where(ownedBy(userId, productId)).orderBy(desc(purchaseGrants.availableAt), desc(purchaseGrants.id)).limit(limit).offset(offset)
}

export async function creditsOfPurchases(db: Reader, purchaseIds: number[]): Promise<CreditRow[]> {
  if (purchaseIds.length === 0) return []
  return db.select().from(consultationCredits).where(inArray(consultationCredits.purchaseId, purchaseIds))
}

/** A patient's credits usable with a professional: of a paid package, for that professional or any, not used up. */
const usableCredits = (userId: number, professionalId: number) =>
  and(
    eq(consultationCredits.userId, userId),
    lt(consultationCredits.used, consultationCredits.total),
    or(eq(consultationCredits.professionalId, professionalId), isNull(consultationCredits.professionalId)),
    sql`exists (select 1 from ${purchases} where ${purchases.id} = ${consultationCredits.purchaseId} and ${purchases.status} = 'paid')`,
  )

/** How many consultations with this professional the patient's packages still hold. */
export async function countUsableCredits(db: Reader, userId: number, professionalId: number): Promise<number> {
  const [row] = await db
    .select({ remaining: sql<number>`coalesce(sum(${consultationCredits.total} - ${consultationCredits.used}), 0)`.mapWith(Number) })
    .from(consultationCredits)
    .where(usableCredits(userId, professionalId))
  return row?.remaining ?? 0
}

/**
 * Spends one credit on a booking, inside its transaction (decision 0051): a package for this very
 * professional first, then one for any, the oldest first. The row is locked and `used < total`
 * is checked again in the update, so two bookings never spend the same last credit. Undefined when
 * none is left.
 */
export async function useCredit(tx: Writer, userId: number, professionalId: number, now: Date): Promise<CreditRow | undefined> {
  const [candidate] = await tx
    .select({ id: consultationCredits.id })
    .from(consultationCredits)
    .where(usableCredits(userId, professionalId))
    .orderBy(sql`${consultationCredits.professionalId} is null`, asc(consultationCredits.id))
    .limit(1)
    .for('update')
  if (!candidate) return undefined
  const [row] = await tx
    .update(consultationCredits)
    .set({ used: sql`${consultationCredits.used} + 1`, updatedAt: now })
    .where(and(eq(consultationCredits.id, candidate.id), lt(consultationCredits.used, consultationCredits.total)))
    .returning()
  return row
}

/** Gives a consultation's credit back to its package (a cancellation that returns it). */
export async function returnCredit(tx: Writer, creditId: number, now: Date): Promise<void> {
  await tx
    .update(consultationCredits)
    .set({ used: sql`${consultationCredits.used} - 1`, updatedAt: now })
    .where(and(eq(consultationCredits.id, creditId), sql`${consultationCredits.used} > 0`))
}

/** The appointment a purchase pays (decision 0051), if it pays one. */
export async function appointmentIdOf(db: Reader, purchaseId: number): Promise<number | null> {
  const [row] = await db.select({ id: appointments.id }).from(appointments).where(eq(appointments.purchaseId, purchaseId))
  return row?.id ?? null
}

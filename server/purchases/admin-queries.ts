import { and, asc, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { likePattern } from '#server/db/like-pattern.ts'
import { appointments, auditLog, purchases, purchaseTransitions, stripeWebhookEvents, users, type CancelledBy, type PurchaseMethod, type PurchaseStatus } from '#server/db/schema.ts'
import { MAX_ID } from '#server/http/ids.ts'
import type { PurchaseRow } from '#server/purchases/repository.ts'

/**
 * The admins' reads of purchases (issue 26, decision 0061): every buyer's purchases by status,
 * method, creation time and a search, newest first; a purchase's Stripe events; who made each
 * refund. Only reads: an admin's refund goes through the buyer's own path (admin-refund.ts).
 */

type Reader = Pick<Database, 'select' | 'execute'>

/** The admin list's filters; `from` and `to` are instants bounding the creation time, [from, to). */
export type AdminPurchaseFilter = { status?: PurchaseStatus; method?: PurchaseMethod; from?: number; to?: number; search?: string }

export type Buyer = { id: number; firstName: string; lastName: string; email: string }
export type AdminPurchaseRow = { purchase: PurchaseRow; buyer: Buyer }

const buyerColumns = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }

/** A search that is a purchase's number ("123" or "#123"): that purchase, besides the buyers it matches. */
function purchaseIdOf(search: string): number | undefined {
  const match = /^#?(\d{1,10})$/.exec(search)
  const id = match ? Number(match[1]) : NaN
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID ? id : undefined
}

function filterCondition({ status, method, from, to, search }: AdminPurchaseFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    status ? eq(purchases.status, status) : undefined,
    method ? eq(purchases.method, method) : undefined,
    from !== undefined ? gte(purchases.createdAt, new Date(from)) : undefined,
    to !== undefined ? lt(purchases.createdAt, new Date(to)) : undefined,
  ]
  if (search) {
    const pattern = likePattern(search)
    const id = purchaseIdOf(search)
    conditions.push(
      or(
        id !== undefined ? eq(purchases.id, id) : undefined,
        ilike(users.email, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      ),
    )
  }
  return and(...conditions)
}

export async function countAdminPurchases(db: Reader, filter: AdminPurchaseFilter): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(filterCondition(filter))
  return Number(row?.total ?? 0)
}

const NEWEST_FIRST = [desc(purchases.createdAt), desc(purchases.id)]

/** A page of the list, newest first (the same order as the buyer's own list). */
export async function adminPurchasesPage(db: Reader, filter: AdminPurchaseFilter, { limit, offset }: { limit: number; offset: number }): Promise<AdminPurchaseRow[]> {
  return db
    .select({ purchase: purchases, buyer: buyerColumns })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(filterCondition(filter))
    .orderBy(...NEWEST_FIRST)
    .limit(limit)
    .offset(offset)
}

/**
 * The next `limit` rows of the list after the purchase `afterId` (keyset: the export reads the
 * whole list in batches, each as cheap as the first, and a purchase made meanwhile never shifts
 * one into the next). The position is compared with the stored creation time itself, read in the
 * statement: a JavaScript Date would lose its microseconds.
 */
export async function adminPurchasesAfter(db: Reader, filter: AdminPurchaseFilter, afterId: number | undefined, limit: number): Promise<AdminPurchaseRow[]> {
  const after =
    afterId === undefined
      ? undefined
      : sql`(${purchases.createdAt}, ${purchases.id}) < (select p.created_at, p.id from ${purchases} as p where p.id = ${afterId})`
  return db
    .select({ purchase: purchases, buyer: buyerColumns })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .where(and(filterCondition(filter), after))
    .orderBy(...NEWEST_FIRST)
    .limit(limit)
}

export async function findBuyer(db: Reader, userId: number): Promise<Buyer | undefined> {
  const [row] = await db.select(buyerColumns).from(users).where(eq(users.id, userId))
  return row
}

/** A Stripe event that reached the webhook about a purchase; `deliveries` only where the fake Stripe sends them. */
export type WebhookDelivery = {
  eventId: string
  type: string
  /** When the webhook received it and applied it (one transaction); null: the fake sent it and it has not arrived yet. */
  receivedAt: Date | null
  /** Whether it moved the purchase's status (one of its transitions names it). */
  changedStatus: boolean
  deliveries: { attempts: number; deliveredAt: Date | null; failedAt: Date | null; lastError: string | null } | null
}

type Raw = Record<string, unknown>
const rowsOf = async (statement: Promise<unknown>): Promise<Raw[]> => ((await statement) as { rows: Raw[] }).rows
const dateOf = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date))

/**
 * The Stripe events that touched a purchase: those its transitions name (they moved it), as the
 * webhook recorded them. With the fake Stripe (`fakeStripe`), also every event the fake made about
 * the purchase's PaymentIntent or Checkout Session (or naming it in their metadata), with its
 * deliveries to the webhook: the development and test view of what arrived, twice, late or never.
 * Oldest first.
 */
export async function webhookDeliveriesOf(db: Reader, purchase: PurchaseRow, { fakeStripe }: { fakeStripe: boolean }): Promise<WebhookDelivery[]> {
  const moved = await db
    .select({ eventId: stripeWebhookEvents.eventId, type: stripeWebhookEvents.type, receivedAt: stripeWebhookEvents.receivedAt })
    .from(stripeWebhookEvents)
    .where(inArray(stripeWebhookEvents.eventId, db.select({ id: sql<string>`${purchaseTransitions.stripeEventId}` }).from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, purchase.id))))
  const found = new Map<string, WebhookDelivery>(moved.map((row) => [row.eventId, { ...row, changedStatus: true, deliveries: null }]))
  if (fakeStripe) {
    const refs = [purchase.stripePaymentIntentId, purchase.stripeCheckoutSessionId].filter((ref): ref is string => ref !== null)
    const object = sql`o.data -> 'data' -> 'object'`
    const aboutIt = sql.join(
      [sql`${object} -> 'metadata' ->> 'purchase_id' = ${String(purchase.id)}`, ...refs.flatMap((ref) => [sql`${object} ->> 'id' = ${ref}`, sql`${object} ->> 'payment_intent' = ${ref}`])],
      sql` or `,
    )
    const rows = await rowsOf(
      db.execute(sql`select o.id as event_id, o.data ->> 'type' as type, o.created_at, e.received_at,
          (select coalesce(sum(d.attempts), 0) from fake_stripe_deliveries d where d.event_id = o.id) as attempts,
          (select max(d.delivered_at) from fake_stripe_deliveries d where d.event_id = o.id) as delivered_at,
          (select max(d.failed_at) from fake_stripe_deliveries d where d.event_id = o.id) as failed_at,
          (select d.last_error from fake_stripe_deliveries d where d.event_id = o.id and d.last_error is not null order by d.id desc limit 1) as last_error
        from fake_stripe_objects o left join ${stripeWebhookEvents} e on e.event_id = o.id
        where o.type = 'event' and (${aboutIt})
        order by o.created_at, o.id
        limit 200`),
    )
    for (const row of rows) {
      const eventId = String(row.event_id)
      const deliveries = { attempts: Number(row.attempts), deliveredAt: dateOf(row.delivered_at), failedAt: dateOf(row.failed_at), lastError: (row.last_error as string | null) ?? null }
      const known = found.get(eventId)
      found.set(eventId, known ? { ...known, deliveries } : { eventId, type: String(row.type), receivedAt: dateOf(row.received_at), changedStatus: false, deliveries })
    }
  }
  return [...found.values()].sort((a, b) => (a.receivedAt?.getTime() ?? Infinity) - (b.receivedAt?.getTime() ?? Infinity) || a.eventId.localeCompare(b.eventId))
}

export type AdminRefundEntry = { action: string; actorId: number | null; at: Date; reason: string | null }

/**
 * The audit entries of admins' refunds of a purchase (decision 0061), oldest first: their refunds
 * of it, and their cancellations of the consultation it pays (`appointmentId`), which refund it.
 */
export async function adminRefundEntries(db: Reader, purchaseId: number, appointmentId: number | null = null): Promise<AdminRefundEntry[]> {
  return db
    .select({ action: auditLog.action, actorId: auditLog.actorId, at: auditLog.at, reason: auditLog.reason })
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.action, 'purchase.refund'), eq(auditLog.targetType, 'purchase'), eq(auditLog.targetId, String(purchaseId))),
        appointmentId === null ? undefined : and(eq(auditLog.action, 'appointment.cancel'), eq(auditLog.targetType, 'appointment'), eq(auditLog.targetId, String(appointmentId))),
      ),
    )
    .orderBy(asc(auditLog.at), asc(auditLog.id))
}

/** Who cancelled the consultation a purchase pays, if it pays one that was cancelled. */
export async function consultationCancelledBy(db: Reader, purchaseId: number): Promise<CancelledBy | null> {
  const [row] = await db.select({ cancelledBy: appointments.cancelledBy }).from(appointments).where(eq(appointments.purchaseId, purchaseId))
  return row?.cancelledBy ?? null
}

/** People's names by id (the admins named as refunds' authors). */
export async function namesOf(db: Reader, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.select(buyerColumns).from(users).where(inArray(users.id, [...new Set(ids)]))
  return new Map(rows.map((row) => [row.id, [row.firstName, row.lastName].filter(Boolean).join(' ') || row.email]))
}

import { randomBytes } from 'node:crypto'
import { and, asc, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm'
import Stripe from 'stripe'
import type { Database } from '#server/db/client.ts'
import { fakeStripeDeliveries, fakeStripeObjects } from '#server/db/schema.ts'
import { resourceMissing } from '#server/fakes/stripe/errors.ts'

/**
 * The fake Stripe's objects, kept as Stripe's JSON in `fake_stripe_objects` (decision 0046), and
 * its events: every change worth a webhook writes an Event object and a delivery row for the
 * endpoint in the same transaction as the change, so an event is sent if and only if the change
 * was made.
 */

export type StripeObject = { id: string; object: string; [field: string]: unknown }
/** What the writes need: the database or a transaction of it. */
export type Writer = Pick<Database, 'insert' | 'update' | 'select' | 'execute'>

/** The API version the fake's events say they are rendered in: the SDK's own. */
export const FAKE_API_VERSION = Stripe.API_VERSION

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** Stripe-like ids: `pi_` and 24 letters and digits. */
export function newId(prefix: string, length = 24): string {
  // 62 does not divide 256: rejection sampling keeps every character equally likely.
  let id = ''
  while (id.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && id.length < length) id += ALPHANUMERIC[byte % 62]
    }
  }
  return `${prefix}_${id}`
}

/** Seconds since the epoch, as Stripe's timestamps are. */
export const unixSeconds = (ms: number) => Math.floor(ms / 1000)

export async function findObject<T extends StripeObject = StripeObject>(db: Pick<Database, 'select'>, id: string, type: string): Promise<T | undefined> {
  const [row] = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.id, id), eq(fakeStripeObjects.type, type)))
  return row?.data as T | undefined
}

/** The object, or Stripe's 404 naming it ("No such payment_intent: 'pi_…'"). */
export async function getObject<T extends StripeObject = StripeObject>(db: Pick<Database, 'select'>, id: string, type: string, param = 'id'): Promise<T> {
  const object = await findObject<T>(db, id, type)
  if (!object) throw resourceMissing(type, id, param)
  return object
}

/** The object locked for the rest of the transaction (FOR UPDATE): one change at a time. */
export async function lockObject<T extends StripeObject = StripeObject>(tx: Writer, id: string, type: string, param = 'id'): Promise<T> {
  const [row] = await tx
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.id, id), eq(fakeStripeObjects.type, type)))
    .for('update')
  if (!row) throw resourceMissing(type, id, param)
  return row.data as T
}

export async function insertObject<T extends StripeObject>(tx: Writer, object: T, now: number): Promise<T> {
  await tx.insert(fakeStripeObjects).values({ id: object.id, type: object.object, data: object, createdAt: new Date(now) })
  return object
}

export async function saveObject<T extends StripeObject>(tx: Writer, object: T): Promise<T> {
  await tx.update(fakeStripeObjects).set({ data: object }).where(eq(fakeStripeObjects.id, object.id))
  return object
}

export type ListPage<T> = { object: 'list'; url: string; has_more: boolean; data: T[] }

/**
 * Stripe's list: newest first, `limit` 1-100 (10 by default), `starting_after` an id of the
 * previous page; `where` narrows it (a JSON field of the object).
 */
export async function listObjects<T extends StripeObject>(
  db: Pick<Database, 'select'>,
  { type, url, limit = 10, startingAfter, where }: { type: string; url: string; limit?: number; startingAfter?: string; where?: SQL },
): Promise<ListPage<T>> {
  let after: SQL | undefined
  if (startingAfter) {
    const [cursor] = await db.select({ createdAt: fakeStripeObjects.createdAt }).from(fakeStripeObjects).where(and(eq(fakeStripeObjects.id, startingAfter), eq(fakeStripeObjects.type, type)))
    if (!cursor) throw resourceMissing(type, startingAfter, 'starting_after')
    after = or(lt(fakeStripeObjects.createdAt, cursor.createdAt), and(eq(fakeStripeObjects.createdAt, cursor.createdAt), lt(fakeStripeObjects.id, startingAfter)))
  }
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, type), after, where))
    .orderBy(desc(fakeStripeObjects.createdAt), desc(fakeStripeObjects.id))
    .limit(limit + 1)
  return { object: 'list', url, has_more: rows.length > limit, data: rows.slice(0, limit).map((row) => row.data as T) }
}

/** A condition on a top-level string field of the stored JSON: `data->>'field' = value`. */
export const fieldIs = (field: string, value: string) => sql`${fakeStripeObjects.data}->>${field} = ${value}`

/** The same for a nested field: `data #>> '{parent,subscription_details,subscription}' = value`. */
export const pathIs = (path: string[], value: string) => sql`${fakeStripeObjects.data} #>> ${`{${path.join(',')}}`}::text[] = ${value}`

export type EventContext = {
  now: number
  /** Where the fake sends its events (FAKE_STRIPE_WEBHOOK_URL); none: the events are only stored. */
  webhookUrl: string | undefined
  /** The API request that caused the event (Stripe's `request`), or none for the dashboard and hosted pages. */
  request?: { id: string; idempotencyKey: string | undefined }
}

/**
 * Writes an Event about `object` (as it is now; `previousAttributes` for `*.updated` events)
 * and queues its delivery to the endpoint.
 */
export async function recordEvent(tx: Writer, type: string, object: StripeObject, context: EventContext, previousAttributes?: Record<string, unknown>): Promise<StripeObject> {
  const event: StripeObject = {
    id: newId('evt'),
    object: 'event',
    api_version: FAKE_API_VERSION,
    created: unixSeconds(context.now),
    data: { object, ...(previousAttributes && { previous_attributes: previousAttributes }) },
    livemode: false,
    pending_webhooks: context.webhookUrl ? 1 : 0,
    request: { id: context.request?.id ?? null, idempotency_key: context.request?.idempotencyKey ?? null },
    type,
  }
  await insertObject(tx, event, context.now)
  if (context.webhookUrl) {
    await tx.insert(fakeStripeDeliveries).values({ eventId: event.id, url: context.webhookUrl, nextAttemptAt: new Date(context.now), createdAt: new Date(context.now) })
  }
  return event
}

/** Events about one object, oldest first (tests and the development pages). */
export async function eventsAbout(db: Pick<Database, 'select'>, objectId: string): Promise<StripeObject[]> {
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}`))
    .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
  return rows.map((row) => row.data as StripeObject)
}

/** The oldest objects of a type matching `where` (the sweeps: PIX charges past their expiry). */
export async function oldestObjects(db: Pick<Database, 'select'>, type: string, where: SQL, limit: number): Promise<StripeObject[]> {
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, type), where))
    .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
    .limit(limit)
  return rows.map((row) => row.data as StripeObject)
}

import { createHmac } from 'node:crypto'
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { fakeStripeDeliveries } from '#server/db/schema.ts'
import type { Logger } from '#server/log.ts'
import { findObject } from '#server/fakes/stripe/store.ts'

/**
 * The fake Stripe's webhook sender (decision 0046). Each event is POSTed to the endpoint as
 * Stripe does: the event's JSON as the body, signed in `Stripe-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256 of "<t>.<body>" under the endpoint's secret>`, so the receiver checks it
 * with the SDK's `stripe.webhooks.constructEvent(rawBody, header, secret)`. An answer other than
 * 2xx within 10 s is a failure, retried with backoff (1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then
 * every 12 h) for about three days, as Stripe does in live mode. Events arrive in no promised
 * order, and now and then one comes twice (FAKE_STRIPE_DUPLICATE_PERCENT of the delivered ones,
 * a few seconds later, same event id), as Stripe warns: the receiver must be idempotent.
 *
 * Deliveries are rows claimed with a lease (FOR UPDATE SKIP LOCKED), like the outbox, so several
 * provider processes never send the same row, and a restart resumes the retries.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
/** Wait after the n-th failed attempt (n = 1, 2, …); past the end, given up. About 2.7 days in all. */
export const RETRY_DELAYS_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 12 * HOUR, 12 * HOUR, 12 * HOUR, 12 * HOUR]
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
const DELIVERY_TIMEOUT_MS = 10 * SECOND
/** A duplicate follows its original by this long. */
export const DUPLICATE_DELAY_MS = 3 * SECOND
const LEASE_MS = DELIVERY_TIMEOUT_MS + 20 * SECOND
const BATCH = 20

/** Stripe's signature header for a payload sent at `timestamp` (seconds). */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')
  return `t=${timestamp},v1=${signature}`
}

type WebhookSenderOptions = {
  db: Database
  secret: string
  clock: () => number
  log: Logger
  fetch: typeof fetch
  /** 0-100: the share of delivered events sent once more. */
  duplicatePercent: number
  /** 0 ≤ x < 1; Math.random unless a test pins it. */
  random?: () => number
  /** How long an answer may take (DELIVERY_TIMEOUT_MS). */
  timeoutMs?: number
}

export type WebhookReport = { delivered: number; retrying: number; failed: number }

export type WebhookSender = {
  /** Sends what is due now (at most a few batches); the periodic tick and each change call it. */
  deliverDue(): Promise<WebhookReport>
}

type Claimed = { id: number; eventId: string; url: string; attempts: number; duplicate: boolean }

export function createWebhookSender({ db, secret, clock, log, fetch, duplicatePercent, random = Math.random, timeoutMs = DELIVERY_TIMEOUT_MS }: WebhookSenderOptions): WebhookSender {
  async function claim(now: Date): Promise<Claimed[]> {
    const claimable = and(
      isNull(fakeStripeDeliveries.deliveredAt),
      isNull(fakeStripeDeliveries.failedAt),
      lte(fakeStripeDeliveries.nextAttemptAt, now),
      or(isNull(fakeStripeDeliveries.sendingUntil), lte(fakeStripeDeliveries.sendingUntil, now)),
    )
    const picked = db
      .select({ id: fakeStripeDeliveries.id })
      .from(fakeStripeDeliveries)
      .where(claimable)
      .orderBy(asc(fakeStripeDeliveries.nextAttemptAt), asc(fakeStripeDeliveries.id))
      .limit(BATCH)
      .for('update', { skipLocked: true })
    return db
      .update(fakeStripeDeliveries)
      .set({ sendingUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${fakeStripeDeliveries.attempts} + 1` })
      .where(and(inArray(fakeStripeDeliveries.id, picked), claimable))
      .returning({
        id: fakeStripeDeliveries.id,
        eventId: fakeStripeDeliveries.eventId,
        url: fakeStripeDeliveries.url,
        attempts: fakeStripeDeliveries.attempts,
        duplicate: fakeStripeDeliveries.duplicate,
      })
  }

  /** One POST: undefined when the endpoint answered 2xx, else what went wrong. */
  async function post(url: string, payload: string): Promise<string | undefined> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signatureHeader(payload, secret, Math.floor(clock() / 1000)),
        },
        body: payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      })
      // The body is of no interest, but is read so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined)
      return response.status >= 200 && response.status < 300 ? undefined : `HTTP ${response.status}`
    } catch (error) {
      const name = error instanceof Error ? error.name : ''
      return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : `no answer (${error instanceof Error ? error.message.slice(0, 150) : 'error'})`
    }
  }

  async function deliver(row: Claimed, report: WebhookReport): Promise<void> {
    const event = await findObject(db, row.eventId, 'event')
    const now = () => new Date(clock())
    if (!event) {
      await db.update(fakeStripeDeliveries).set({ failedAt: now(), sendingUntil: null, lastError: 'event missing' }).where(eq(fakeStripeDeliveries.id, row.id))
      report.failed += 1
      return
    }
    const payload = JSON.stringify(event, null, 2)
    const problem = await post(row.url, payload)
    if (problem === undefined) {
      await db.update(fakeStripeDeliveries).set({ deliveredAt: now(), sendingUntil: null, lastError: null }).where(eq(fakeStripeDeliveries.id, row.id))
      report.delivered += 1
      if (!row.duplicate && random() * 100 < duplicatePercent) {
        await db.insert(fakeStripeDeliveries).values({ eventId: row.eventId, url: row.url, duplicate: true, nextAttemptAt: new Date(clock() + DUPLICATE_DELAY_MS), createdAt: now() })
      }
      return
    }
    const delay = RETRY_DELAYS_MS[row.attempts - 1]
    if (delay === undefined) {
      await db.update(fakeStripeDeliveries).set({ failedAt: now(), sendingUntil: null, lastError: problem }).where(eq(fakeStripeDeliveries.id, row.id))
      report.failed += 1
      log({ level: 'warn', msg: 'fake stripe webhook given up', event_id: row.eventId, attempts: row.attempts, error: problem })
      return
    }
    await db
      .update(fakeStripeDeliveries)
      .set({ nextAttemptAt: new Date(clock() + delay), sendingUntil: null, lastError: problem })
      .where(eq(fakeStripeDeliveries.id, row.id))
    report.retrying += 1
  }

  return {
    async deliverDue() {
      const report: WebhookReport = { delivered: 0, retrying: 0, failed: 0 }
      for (let batch = 0; batch < 5; batch++) {
        const rows = await claim(new Date(clock()))
        // At once: one slow endpoint answer costs a batch at most DELIVERY_TIMEOUT_MS.
        await Promise.all(rows.map((row) => deliver(row, report)))
        if (rows.length < BATCH) break
      }
      return report
    },
  }
}

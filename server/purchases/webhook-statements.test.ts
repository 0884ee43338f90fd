import { asc, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { carts, consultationCredits, products, purchaseGrants, purchases, purchaseTransitions, stripeWebhookEvents, users } from '#server/db/schema.ts'
import { createMemoryDatabase, describeOnPostgres, resetDatabase, watchLockWaits } from '#server/testing/harness.ts'
import { claimEventAndLock, insertPurchase, makeGrants, recordTransition, type PurchaseRow } from '#server/purchases/repository.ts'

/**
 * The webhook's statements (issue 24: 200 events a second): the event recorded with its purchase
 * found and locked in one, the payment's transition with its record and grants in another. On
 * PGlite and, with TEST_DATABASE_URL, on PostgreSQL with two connection pools (two processes).
 */

const NOW = Date.parse('2026-03-10T15:00:00Z')
const COURSE = 'curso-sono-reparador'
const PACKAGE = 'pacote-4-consultas-paula-ribeiro'

function webhookSuite(kind: 'pglite' | 'postgres', open: () => Promise<{ first: DatabaseHandle; second: DatabaseHandle; dispose(): Promise<void> }>) {
  let first: DatabaseHandle
  let second: DatabaseHandle
  let dispose: () => Promise<void>
  beforeAll(async () => {
    ;({ first, second, dispose } = await open())
  })
  afterAll(() => dispose())
  beforeEach(() => resetDatabase(first.db))

  const db = () => first.db
  let keys = 0
  /** A pending purchase of the patient's, of these products, with a PaymentIntent and a Checkout Session of its own. */
  async function pending(slugs: string[]): Promise<PurchaseRow> {
    const [buyer] = await db().select().from(users).where(eq(users.email, 'paciente@innera.local'))
    const bought = await db().select().from(products).where(inArray(products.slug, slugs)).orderBy(asc(products.id))
    const items = bought.map((product) => ({
      productId: product.id,
      productType: product.productType as Exclude<typeof product.productType, 'subscription'>,
      name: product.name,
      quantity: 1,
      unitCents: product.priceCents,
      lineCents: product.priceCents,
      consultations: product.consultations,
      professionalId: product.professionalId,
    }))
    const key = `statements-${++keys}`
    const row = await insertPurchase(db(), { userId: buyer!.id, method: 'card', totalCents: items.reduce((sum, item) => sum + item.lineCents, 0), idempotencyKey: key }, items, NOW)
    const [made] = await db()
      .update(purchases)
      .set({ stripePaymentIntentId: `pi_${key}`, stripeCheckoutSessionId: `cs_${key}` })
      .where(eq(purchases.id, row.id))
      .returning()
    return made!
  }
  const claim = (on: Database, eventId: string, ref?: Parameters<typeof claimEventAndLock>[2]) =>
    on.transaction((tx) => claimEventAndLock(tx, { id: eventId, type: 'payment_intent.succeeded', now: NOW }, ref))

  it('records an event once and finds the purchase it names (its id, else its PaymentIntent or Checkout Session), or none', async () => {
    const purchase = await pending([COURSE])
    expect(await claim(db(), 'evt_by_id', { purchaseId: purchase.id, paymentIntentId: 'pi_someone_else' })).toEqual({ claimed: true, purchase })
    // Recorded: the same event again is a duplicate, and locks nothing.
    expect(await claim(db(), 'evt_by_id', { purchaseId: purchase.id })).toEqual({ claimed: false, purchase: undefined })
    expect(await claim(db(), 'evt_by_intent', { paymentIntentId: purchase.stripePaymentIntentId! })).toEqual({ claimed: true, purchase })
    expect(await claim(db(), 'evt_by_session', { sessionId: purchase.stripeCheckoutSessionId! })).toEqual({ claimed: true, purchase })
    // Nothing of ours: recorded (so a redelivery is a duplicate), no purchase.
    expect(await claim(db(), 'evt_unknown', { paymentIntentId: 'pi_unknown' })).toEqual({ claimed: true, purchase: undefined })
    expect(await claim(db(), 'evt_not_ours', { purchaseId: 2_147_483_647 })).toEqual({ claimed: true, purchase: undefined })
    expect(await claim(db(), 'evt_other_type')).toEqual({ claimed: true, purchase: undefined })
    expect(await claim(db(), 'evt_other_type')).toEqual({ claimed: false, purchase: undefined })
    const recorded = await db().select().from(stripeWebhookEvents).orderBy(asc(stripeWebhookEvents.eventId))
    expect(recorded.map((row) => row.eventId)).toEqual(['evt_by_id', 'evt_by_intent', 'evt_by_session', 'evt_not_ours', 'evt_other_type', 'evt_unknown'])
    expect(recorded[0]).toMatchObject({ type: 'payment_intent.succeeded', receivedAt: new Date(NOW) })
  })

  it('a payment moves the purchase, records it and makes its grants and credits in one; the cart keeps what was not paid', async () => {
    const purchase = await pending([COURSE, PACKAGE])
    const bySlug = new Map((await db().select().from(products).where(inArray(products.slug, [COURSE, PACKAGE, 'diario-do-sono']))).map((product) => [product.slug, product]))
    const [course, pack, other] = [bySlug.get(COURSE), bySlug.get(PACKAGE), bySlug.get('diario-do-sono')]
    const inCart = [course!, pack!, other!].map((product) => ({ product_id: product.id, quantity: 1 }))
    await db().insert(carts).values({ userId: purchase.userId, lines: inCart, updatedAt: new Date(NOW) })
    const paid = await db().transaction((tx) =>
      recordTransition(tx, purchase, 'paid', { source: 'webhook', eventId: 'evt_paid', now: NOW + 1000, changes: { paidAt: new Date(NOW + 1000), checkoutUrl: null }, grants: true }),
    )
    expect(paid).toEqual({ ...purchase, status: 'paid', paidAt: new Date(NOW + 1000), checkoutUrl: null, updatedAt: new Date(NOW + 1000) })
    expect(await db().select().from(purchases).where(eq(purchases.id, purchase.id))).toEqual([paid])
    const transitions = await db().select().from(purchaseTransitions).where(eq(purchaseTransitions.purchaseId, purchase.id)).orderBy(asc(purchaseTransitions.id))
    expect(transitions.map((row) => [row.fromStatus, row.toStatus, row.source, row.stripeEventId, row.at])).toEqual([
      [null, 'pending', 'create', null, new Date(NOW)],
      ['pending', 'paid', 'webhook', 'evt_paid', new Date(NOW + 1000)],
    ])
    const grants = () => db().select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, purchase.id)).orderBy(asc(purchaseGrants.productId))
    expect((await grants()).map((row) => [row.productId, row.kind, row.userId, row.availableAt])).toEqual(
      [
        [course!.id, 'course', purchase.userId, new Date(NOW + 1000)],
        [pack!.id, 'consultation_credits', purchase.userId, new Date(NOW + 1000)],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    )
    const credits = () => db().select().from(consultationCredits).where(eq(consultationCredits.purchaseId, purchase.id))
    expect(await credits()).toMatchObject([{ productId: pack!.id, professionalId: pack!.professionalId, total: 4, used: 0, userId: purchase.userId }])
    const [cart] = await db().select().from(carts).where(eq(carts.userId, purchase.userId))
    expect(cart).toMatchObject({ lines: [{ product_id: other!.id, quantity: 1 }], updatedAt: new Date(NOW + 1000) })

    // Made again (a second payment signal): nothing more, and the cart, holding none of it, is left as it is.
    await db().transaction((tx) => makeGrants(tx, paid, NOW + 2000))
    expect(await grants()).toHaveLength(2)
    expect(await credits()).toHaveLength(1)
    expect((await db().select().from(carts).where(eq(carts.userId, purchase.userId)))[0]!.updatedAt).toEqual(new Date(NOW + 1000))
  })

  it('a second event for a purchase waits for the first one’s transaction; the same event again then finds it recorded', async () => {
    const purchase = await pending([COURSE])
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let lockedFirst!: () => void
    const firstLocked = new Promise<void>((resolve) => (lockedFirst = resolve))
    const one = first.db.transaction(async (tx) => {
      const { purchase: locked } = await claimEventAndLock(tx, { id: 'evt_first', type: 'payment_intent.succeeded', now: NOW }, { purchaseId: purchase.id })
      lockedFirst()
      await released
      await recordTransition(tx, locked!, 'paid', { source: 'webhook', eventId: 'evt_first', now: NOW, changes: { paidAt: new Date(NOW) }, grants: true })
    })
    await firstLocked
    const other = () => claim(second.db, 'evt_second', { purchaseId: purchase.id })
    const again = () => claim(second.db, 'evt_first', { purchaseId: purchase.id })
    const waiting = kind === 'postgres' ? [other(), again()] : undefined
    if (waiting) {
      // Both wait: one on the purchase's row, the other on the event's id, until the first commits.
      const watcher = await watchLockWaits(['%"stripe_webhook_events"%'])
      try {
        expect(await watcher.until(2)).toBe(2)
      } finally {
        await watcher.end()
      }
    }
    release()
    await one
    const [second_, first_] = await Promise.all(waiting ?? [other(), again()])
    // The second reads the purchase as the first left it.
    expect(second_).toMatchObject({ claimed: true, purchase: { id: purchase.id, status: 'paid' } })
    expect(first_).toEqual({ claimed: false, purchase: undefined })
    expect(await db().select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, purchase.id))).toHaveLength(1)
  })
}

describe('PGlite: the webhook’s statements on one embedded database', () => {
  webhookSuite('pglite', async () => {
    const handle = await createMemoryDatabase()
    return { first: handle, second: handle, dispose: () => handle.close() }
  })
})

await describeOnPostgres('PostgreSQL: the webhook’s statements from two provider processes (two pools) on one database', (open) => webhookSuite('postgres', open))

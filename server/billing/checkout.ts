import { randomUUID } from 'node:crypto'
import type Stripe from 'stripe'
import { quantityAllowed } from '#server/products/quantities.ts'
import { MAX_PURCHASE_CENTS, MIN_PURCHASE_CENTS, type LocalizedText, type PurchaseMethod } from '#server/db/schema.ts'
import { apiError, ApiError } from '#server/http/errors.ts'
import { findListedProducts } from '#server/products/repository.ts'
import { errorFields } from '#server/log.ts'
import type { Services } from '#server/services.ts'
import { stripeOf, UNAVAILABLE, unavailableError } from '#server/stripe/client.ts'
import { movePurchase } from '#server/billing/transitions.ts'
import { returnUrl, type CreateInput } from '#server/purchases/input.ts'
import { claimHolders, ONE_TIME_TYPES, ProductsClaimed, type ClaimHolder } from '#server/purchases/claims.ts'
import { findPurchaseByKey, insertPurchase, insertPurchaseIn, itemsOf, lockPurchase, transitionsOf, updatePurchase, type NewPurchaseItem, type PurchaseRow, type Writer } from '#server/purchases/repository.ts'

/**
 * A purchase's payment started at Stripe (decisions 0046 and 0048): a Checkout Session for a card,
 * a confirmed PIX PaymentIntent; a held consultation's and a subscription period's too. No Stripe
 * call is made inside a database transaction: the purchase is written first, its payment started
 * after, and a payment that could not start fails the purchase (nothing was charged).
 */

/** How long a PIX code can be paid (docs/product.md §9). */
export const PIX_LIFETIME_SECONDS = 30 * 60

export type Buyer = { id: number; email: string }
/** Where Stripe's Checkout goes back to (a card payment), and when its page expires (Stripe's default: 24 hours). */
type ReturnUrls = Pick<CreateInput, 'successUrl' | 'cancelUrl'> & { expiresAt?: number }

/**
 * A purchase for these items, or the one this idempotency key already made (`created: false`):
 * a repeat returns it as it is, and one whose payment could not be started (Stripe was away) is
 * started again. Prices come from the database, never from the request.
 */
export async function createPurchase(services: Services, buyer: Buyer, input: CreateInput): Promise<{ purchase: PurchaseRow; created: boolean }> {
  const { db, clock } = services
  const stripe = stripeOf(services)
  const earlier = await findPurchaseByKey(db, buyer.id, input.idempotencyKey)
  if (earlier) return { purchase: await restartIfUnstarted(services, stripe, earlier, buyer, input), created: false }

  const items = await pricedItems(services, input)
  const total = items.reduce((sum, item) => sum + item.lineCents, 0)
  if (total < MIN_PURCHASE_CENTS) throw apiError(400, 'A purchase must total at least R$ 0,50.', { code: 'total_too_small' })
  if (total > MAX_PURCHASE_CENTS) throw apiError(400, 'A purchase may total at most R$ 999.999,99; split it into smaller ones.', { code: 'total_too_large' })

  let purchase: PurchaseRow | undefined
  // Twice at most: a claim released between the refusal and the look at who holds it (decision 0072).
  for (let attempt = 1; !purchase; attempt += 1) {
    try {
      purchase = await insertPurchase(db, { userId: buyer.id, method: input.method, totalCents: total, idempotencyKey: input.idempotencyKey }, items, clock())
    } catch (error) {
      if (error instanceof ProductsClaimed) {
        const holders = await claimHolders(db, buyer.id, error.productIds)
        if (holders.length > 0 || attempt === 2) throw claimedError(holders, error.productIds)
        continue
      }
      // The same key from a request that committed meanwhile (another process): that purchase.
      const meanwhile = await findPurchaseByKey(db, buyer.id, input.idempotencyKey)
      if (meanwhile) return { purchase: meanwhile, created: false }
      throw error
    }
  }
  return { purchase: await startPayment(services, stripe, purchase, buyer, input), created: true }
}

/** The items at today's prices, or a 400 naming what cannot be bought. */
async function pricedItems(services: Services, input: CreateInput): Promise<NewPurchaseItem[]> {
  const views = new Map((await findListedProducts(services.db, input.items.map((item) => item.productId))).map((view) => [view.product.id, view]))
  const problems = input.items.map((item) => {
    const view = views.get(item.productId)
    if (!view) return { product_id: [`Invalid pk "${item.productId}" - object does not exist.`] }
    if (view.product.productType === 'subscription') return { product_id: ['Subscriptions are started from the plan\'s page, not bought in a purchase.'] }
    const allowed = quantityAllowed(view.product.productType)
    if (item.quantity > allowed) return { quantity: [`Ensure this value is less than or equal to ${allowed}.`] }
    return {}
  })
  if (problems.some((problem) => Object.keys(problem).length > 0)) {
    const subscription = input.items.some((item) => views.get(item.productId)?.product.productType === 'subscription')
    throw new ApiError(400, { ...(subscription && { detail: "Subscriptions are started from the plan's page." }), items: problems })
  }
  return input.items.map((item) => {
    const { product } = views.get(item.productId)!
    return {
      productId: product.id,
      productType: product.productType as Exclude<typeof product.productType, 'subscription'>,
      name: product.name,
      quantity: item.quantity,
      unitCents: product.priceCents,
      lineCents: product.priceCents * item.quantity,
      consultations: product.consultations,
      professionalId: product.professionalId,
    }
  })
}

/**
 * A course, material or program is bought once (decision 0072): the database refused a purchase
 * (or a purchase going back to pending) of one that other purchases of the buyer hold. Held by a
 * paid one, it is theirs for good: 409 `already_owned` naming them, so the cart can say which (a
 * package's consultations may be bought again and again). Held by an open one (pending): 409
 * `already_in_checkout` with that purchase, whose page finishes or cancels it.
 */
function claimedError(holders: ClaimHolder[], productIds: number[]): ApiError {
  const owned = holders.filter((holder) => holder.status !== 'pending')
  if (owned.length > 0) return apiError(409, 'You already have some of these products: see them on your purchases.', { code: 'already_owned', product_ids: owned.map((holder) => holder.productId) })
  return apiError(409, 'You already have a payment open for some of these products: finish it or cancel it on its page first.', {
    code: 'already_in_checkout',
    purchase_id: holders[0]?.purchaseId ?? null,
    product_ids: holders.length > 0 ? holders.map((holder) => holder.productId) : productIds,
  })
}

/** claimedError for the products the database refused (ProductsClaimed), as they are held now. */
export async function claimedErrorOf(services: Services, userId: number, refused: ProductsClaimed): Promise<ApiError> {
  return claimedError(await claimHolders(services.db, userId, refused.productIds), refused.productIds)
}

/** The 409 of a purchase that may not go back to pending: others of the buyer hold its one-time products now. */
export async function refuseIfClaimed(services: Services, purchase: PurchaseRow): Promise<void> {
  const ids = (await itemsOf(services.db, [purchase.id])).flatMap((item) => ((ONE_TIME_TYPES as readonly string[]).includes(item.productType) && item.productId !== null ? [item.productId] : []))
  const holders = (await claimHolders(services.db, purchase.userId, ids)).filter((holder) => holder.purchaseId !== purchase.id)
  if (holders.length > 0) throw claimedError(holders, ids)
}

/** A repeat of a create whose payment never started (Stripe was away): start it now. */
async function restartIfUnstarted(services: Services, stripe: Stripe, purchase: PurchaseRow, buyer: Buyer, input: CreateInput): Promise<PurchaseRow> {
  if (purchase.status !== 'failed' || purchase.stripePaymentIntentId || purchase.stripeCheckoutSessionId) return purchase
  const { db, clock } = services
  // Failed, it gave up its products: back to pending only while nobody else holds them (recordTransition).
  const restarted = await db
    .transaction(async (tx) => {
      const locked = await lockPurchase(tx, purchase.id)
      if (!locked || locked.status !== 'failed' || locked.stripePaymentIntentId || locked.stripeCheckoutSessionId) return undefined
      return movePurchase(tx, locked, 'pending', { source: 'create', now: clock(), changes: { failureCode: null, failureMessage: null } })
    })
    .catch(async (error: unknown) => {
      if (error instanceof ProductsClaimed) throw await claimedErrorOf(services, purchase.userId, error)
      throw error
    })
  if (!restarted) return (await findPurchaseByKey(db, buyer.id, input.idempotencyKey))!
  return startPayment(services, stripe, restarted, buyer, input)
}

/** Stripe's idempotency key for one of our calls about a purchase: the same step of the same purchase is the same request. */
async function stepKey(services: Services, purchase: PurchaseRow, step: string): Promise<string> {
  return `innera-purchase-${purchase.id}-${step}-${(await transitionsOf(services.db, purchase.id)).length}`
}

/** A confirmed PIX PaymentIntent for the purchase's total: its code is shown for PIX_LIFETIME_SECONDS. */
export async function createPixCharge(services: Services, stripe: Stripe, purchase: PurchaseRow, email: string, step: string) {
  const paymentIntent = await stripe.paymentIntents.create(
    {
      amount: purchase.totalCents,
      currency: 'brl',
      allowed_payment_method_types: ['pix'],
      payment_method_data: { type: 'pix' },
      confirm: true,
      payment_method_options: { pix: { expires_after_seconds: PIX_LIFETIME_SECONDS } },
      metadata: { purchase_id: String(purchase.id) },
      description: `Innera #${purchase.id}`,
      receipt_email: email,
    },
    { idempotencyKey: await stepKey(services, purchase, step) },
  )
  const code = paymentIntent.next_action?.pix_display_qr_code
  if (!code?.data || !code.expires_at) throw new Error(`PaymentIntent ${paymentIntent.id} came without a PIX code`)
  return { stripePaymentIntentId: paymentIntent.id, pixData: code.data, pixExpiresAt: new Date(code.expires_at * 1000), pixInstructionsUrl: code.hosted_instructions_url ?? null }
}

/**
 * Starts the payment at Stripe and keeps its references. When Stripe cannot be reached or refuses,
 * the purchase is marked failed (nothing was charged: no code or page was shown) and the caller
 * answers 503; a repeat with the same idempotency key starts it again.
 */
async function startPayment(services: Services, stripe: Stripe, purchase: PurchaseRow, buyer: Buyer, input: ReturnUrls): Promise<PurchaseRow> {
  const { db, clock, log } = services
  try {
    if (purchase.method === 'pix') return await updatePurchase(db, purchase.id, await createPixCharge(services, stripe, purchase, buyer.email, 'start'), clock())
    const items = await itemsOf(db, [purchase.id])
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: items.map((item) => ({ price_data: { currency: 'brl', unit_amount: item.unitCents, product_data: { name: item.name.pt } }, quantity: item.quantity })),
        success_url: returnUrl(input.successUrl!, purchase.id, { withSession: true }),
        cancel_url: returnUrl(input.cancelUrl!, purchase.id, { withSession: false }),
        client_reference_id: String(purchase.id),
        customer_email: buyer.email,
        locale: 'pt-BR',
        metadata: { purchase_id: String(purchase.id) },
        payment_intent_data: { metadata: { purchase_id: String(purchase.id) }, description: `Innera #${purchase.id}` },
        // A held consultation's page lasts as long as its hold (Stripe's default is 24 hours).
        ...(input.expiresAt !== undefined && { expires_at: Math.floor(input.expiresAt / 1000) }),
      },
      { idempotencyKey: await stepKey(services, purchase, 'start') },
    )
    return await updatePurchase(db, purchase.id, { stripeCheckoutSessionId: session.id, checkoutUrl: session.url, checkoutExpiresAt: new Date(session.expires_at * 1000) }, clock())
  } catch (error) {
    log({ level: 'warn', msg: 'purchase payment not started', purchase_id: purchase.id, ...errorFields(error) })
    await db.transaction(async (tx) => {
      const locked = await lockPurchase(tx, purchase.id)
      if (locked?.status === 'pending' && !locked.stripePaymentIntentId && !locked.stripeCheckoutSessionId) {
        await movePurchase(tx, locked, 'failed', { source: 'create', now: clock(), changes: { failureCode: 'payment_provider_unavailable', failureMessage: UNAVAILABLE } })
      }
    })
    throw unavailableError()
  }
}

// ---------------------------------------------------------------------------------------------
// A paid consultation (decision 0051)

/**
 * How long a paid consultation's time is held for its payment: a PIX code lives PIX_LIFETIME_SECONDS
 * (30 minutes) and Stripe's Checkout page at least 30 minutes; a minute more covers the time between
 * the booking and Stripe's answer. The tick then expires what is still unpaid, which frees the time.
 */
export const CONSULTATION_HOLD_MS = 31 * 60_000

type ConsultationSale = {
  method: PurchaseMethod
  priceCents: number
  /** The line's name in each language: the consultation's professional and time. */
  name: LocalizedText
  professionalId: number
}

/** A held consultation's purchase, written inside its booking's transaction (booking/book.ts). */
export async function insertConsultationPurchase(tx: Writer, buyerId: number, sale: ConsultationSale, now: number): Promise<PurchaseRow> {
  if (sale.priceCents < MIN_PURCHASE_CENTS || sale.priceCents > MAX_PURCHASE_CENTS) throw new RangeError(`A consultation's price must be ${MIN_PURCHASE_CENTS} to ${MAX_PURCHASE_CENTS} cents: ${sale.priceCents}`)
  return insertPurchaseIn(
    tx,
    { userId: buyerId, method: sale.method, totalCents: sale.priceCents, idempotencyKey: randomUUID(), holdsTime: true },
    [{ productId: null, productType: 'consultation', name: sale.name, quantity: 1, unitCents: sale.priceCents, lineCents: sale.priceCents, consultations: 1, professionalId: sale.professionalId }],
    now,
  )
}

/**
 * Starts a held consultation's payment once its booking has committed: a PIX code, or a Checkout
 * page that expires with the hold. Stripe away: the purchase fails, which releases the time, and
 * the answer is 503.
 */
export async function startConsultationPayment(services: Services, purchase: PurchaseRow, buyer: Buyer, urls: ReturnUrls & { expiresAt: number }): Promise<PurchaseRow> {
  return startPayment(services, stripeOf(services), purchase, buyer, urls)
}

/**
 * Starts the payment of a purchase written elsewhere (a subscription's period, decision 0052): a
 * PIX code, or a card's Checkout page. Stripe away: the purchase fails and the answer is 503.
 */
export async function startPurchasePayment(services: Services, purchase: PurchaseRow, buyer: Buyer, urls: ReturnUrls): Promise<PurchaseRow> {
  return startPayment(services, stripeOf(services), purchase, buyer, urls)
}

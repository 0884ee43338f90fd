import { randomUUID } from 'node:crypto'
import Stripe from 'stripe'
// The one rule of how many of a product a cart and a purchase may hold: the app's, pure and import-free (decision 0048).
import { quantityAllowed } from '#server/products/quantities.ts'
import { MAX_PURCHASE_CENTS, type LocalizedText, type PurchaseMethod, type PurchaseStatus } from '#server/db/schema.ts'
import { apiError, ApiError } from '#server/http/errors.ts'
import { errorFields } from '#server/log.ts'
import { mirrorAppointmentLater } from '#server/calendar/appointment-events.ts'
import { findListedProducts } from '#server/products/repository.ts'
import type { Services } from '#server/services.ts'
import { applyBilling, billingSignalOf } from '#server/subscriptions/billing.ts'
import { applySavedCard } from '#server/subscriptions/card.ts'
import { applySignal, applySignalToLocked, type Applied } from '#server/purchases/apply.ts'
import { returnUrl, type CreateInput } from '#server/purchases/input.ts'
import { claimHolders, ONE_TIME_TYPES, ProductsClaimed, type ClaimHolder } from '#server/purchases/claims.ts'
import { quotePurchaseRefund, type PurchaseQuote } from '#server/purchases/purchase-refund.ts'
import { replacedToClose, replaceIfOwned, type Replacements } from '#server/purchases/replacements.ts'
import {
  claimEventAndLock,
  creditsOf,
  findPurchaseByKey,
  insertPurchase,
  insertPurchaseIn,
  itemsOf,
  lockPurchase,
  pendingRefunds,
  purchasesToCheck,
  recordTransition,
  revokeGrants,
  insertRefund,
  transitionsOf,
  updatePurchase,
  updateRefund,
  catalogueItems,
  type NewPurchaseItem,
  type PurchaseItemRow,
  type PurchaseRow,
  type RefundRow,
  type Writer,
} from '#server/purchases/repository.ts'
import type { PaymentSignal } from '#server/purchases/statuses.ts'
import { asStripeSaysNow, signalOfCharge, signalOfEvent, signalOfPaymentIntent, signalOfSession, signedAt } from '#server/purchases/stripe-signals.ts'

/**
 * Purchases at Stripe (decisions 0046 and 0048): starting a payment (a Checkout Session for a card,
 * a confirmed PIX PaymentIntent), reading what Stripe says (webhook, refresh-status, the tick's
 * reconciliation: all through applySignal), cancelling, renewing a PIX code, refunding. No Stripe
 * call is made inside a database transaction: the calls come before (their answer decides what to
 * write) or after (refunds written in the transaction are sent once it has committed, and retried
 * by the tick until Stripe answers).
 */

/** How long a PIX code can be paid (docs/product.md §9). */
export const PIX_LIFETIME_SECONDS = 30 * 60
/** A pending purchase made at Stripe is asked about again after this long without news (a lost webhook, a crash). */
export const RECONCILE_AFTER_MS = 5 * 60_000
/** How often the tick runs; and how long a refund waits before its retry. */
export const PURCHASES_TICK_MS = 60_000
/** A PIX code past its expiry by this long, still pending, is expired by us (Stripe's own event normally comes first). */
const EXPIRY_GRACE_MS = 60_000
const PER_TICK = 20
/** Stripe's smallest charge in reais (R$ 0,50). */
export const MIN_PURCHASE_CENTS = 50
/** Statuses a buyer may cancel without a refund. */
const UNPAID_CANCELLABLE: readonly PurchaseStatus[] = ['pending', 'failed', 'expired']

export const UNAVAILABLE = 'The payment service could not be reached. Nothing was charged; try again in a moment.'
/** Stripe could not be reached or refused to start: nothing was charged (503). */
export const unavailableError = () => apiError(503, UNAVAILABLE, { code: 'payment_provider_unavailable' })
const unavailable = unavailableError
const paymentsOff = () => apiError(503, 'Payments are not available.', { code: 'payments_off' })

/** The Stripe client, or a 503 when payments are not set up. */
export function stripeOf(services: Services): Stripe {
  if (!services.stripe) throw paymentsOff()
  return services.stripe
}

const isStripeError = (error: unknown): error is Stripe.errors.StripeError => error instanceof Stripe.errors.StripeError
/** Stripe refused the request itself (a 4xx other than a rate limit): repeating it will not help. */
const isRefusal = (error: unknown) => error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null))

// ---------------------------------------------------------------------------------------------
// Create

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
async function claimedErrorOf(services: Services, userId: number, refused: ProductsClaimed): Promise<ApiError> {
  return claimedError(await claimHolders(services.db, userId, refused.productIds), refused.productIds)
}

/** The 409 of a purchase that may not go back to pending: others of the buyer hold its one-time products now. */
async function refuseIfClaimed(services: Services, purchase: PurchaseRow): Promise<void> {
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
      return recordTransition(tx, locked, 'pending', { source: 'create', now: clock(), changes: { failureCode: null, failureMessage: null } })
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
async function createPixCharge(services: Services, stripe: Stripe, purchase: PurchaseRow, email: string, step: string) {
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
        await recordTransition(tx, locked, 'failed', { source: 'create', now: clock(), changes: { failureCode: 'payment_provider_unavailable', failureMessage: UNAVAILABLE } })
      }
    })
    throw unavailable()
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

export type ConsultationSale = {
  method: PurchaseMethod
  priceCents: number
  /** The line's name in each language: the consultation's professional and time. */
  name: LocalizedText
  professionalId: number
}

/** A held consultation's purchase, written inside its booking's transaction (routes/appointments.ts). */
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

// ---------------------------------------------------------------------------------------------
// Reading Stripe

/**
 * What Stripe says now about a purchase's payment: its Checkout Session, its PaymentIntent and, when
 * it succeeded, the charge's refunds (read whatever the purchase's status: a refund may be made
 * before its payment reached us). All of it Stripe's own word (decision 0074).
 */
async function readSignals(stripe: Stripe, purchase: PurchaseRow): Promise<PaymentSignal[]> {
  const signals: PaymentSignal[] = []
  let paymentIntentId = purchase.stripePaymentIntentId
  if (purchase.stripeCheckoutSessionId) {
    const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId)
    const read = signalOfSession(session)
    if (read) signals.push(asStripeSaysNow(read.signal))
    // An open session whose card was declined: the failure to show.
    paymentIntentId ??= idOf(session.payment_intent)
  }
  if (paymentIntentId) signals.push(...(await paymentIntentSignals(stripe, await stripe.paymentIntents.retrieve(paymentIntentId))))
  return signals
}

/** A PaymentIntent as Stripe has it now and, once it succeeded, its charge's refunds: the payment first, then its refund. */
async function paymentIntentSignals(stripe: Stripe, paymentIntent: Stripe.PaymentIntent): Promise<PaymentSignal[]> {
  const signals: PaymentSignal[] = []
  const read = signalOfPaymentIntent(paymentIntent)
  if (read) signals.push(asStripeSaysNow(read.signal))
  const charge = idOf(paymentIntent.latest_charge)
  if (paymentIntent.status === 'succeeded' && charge) {
    const refunds = signalOfCharge(await stripe.charges.retrieve(charge))
    if (refunds) signals.push(asStripeSaysNow(refunds.signal))
  }
  return signals
}

/**
 * What Stripe says of the PaymentIntent an event named, when the event did not fit its purchase
 * (decision 0074: another PaymentIntent, another amount, a refund before its payment): the
 * PaymentIntent and its charge read now. A payment the event claimed and Stripe does not confirm
 * (no such PaymentIntent, or one that has not succeeded) is said as such, for the admins.
 */
async function askStripe(stripe: Stripe, signal: PaymentSignal): Promise<PaymentSignal[]> {
  if (signal.kind !== 'succeeded' && signal.kind !== 'refunded') return []
  const unconfirmed = (stripeStatus: string | null): PaymentSignal[] =>
    signal.kind === 'succeeded' ? [{ kind: 'unconfirmed', paymentIntentId: signal.paymentIntentId, amountCents: signal.amountCents, currency: signal.currency, stripeStatus }] : []
  let paymentIntent: Stripe.PaymentIntent
  try {
    paymentIntent = await stripe.paymentIntents.retrieve(signal.paymentIntentId)
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return unconfirmed(null)
    throw error
  }
  return [...(paymentIntent.status === 'succeeded' ? [] : unconfirmed(paymentIntent.status)), ...(await paymentIntentSignals(stripe, paymentIntent))]
}

/** Applies signals in one transaction, then sends the refunds they wrote. */
async function applyAll(services: Services, purchaseId: number, signals: PaymentSignal[], source: 'refresh' | 'reconcile', extra: { checkedAt?: Date } = {}): Promise<PurchaseRow | undefined> {
  const { db, clock } = services
  const applied: Applied[] = []
  const purchase = await db.transaction(async (tx) => {
    for (const signal of signals) applied.push(await applySignal(tx, purchaseId, signal, { source, now: clock() }))
    if (extra.checkedAt) return updatePurchase(tx, purchaseId, { checkedAt: extra.checkedAt }, clock())
    return applied.at(-1)?.purchase ?? (await lockPurchase(tx, purchaseId))
  })
  await afterCommit(services, applied)
  return purchase
}

/**
 * What applied signals leave to do once committed: the payments that did not fit their purchase
 * logged (no secret: ids and amounts), the refunds they wrote sent, the consultations they booked
 * mirrored.
 */
async function afterCommit(services: Services, applied: Applied[], eventId: string | null = null): Promise<void> {
  for (const { purchase, mismatch } of applied) {
    if (!mismatch || !purchase) continue
    const { reason, paymentIntentId, amountCents, currency, expectedCents } = mismatch
    services.log({ level: 'warn', msg: 'stripe payment does not match its purchase', purchase_id: purchase.id, reason, payment_intent_id: paymentIntentId, amount_cents: amountCents, currency, expected_cents: expectedCents, event_id: eventId })
  }
  for (const { booked } of applied) if (booked !== null) mirrorAppointmentLater(services, booked)
  await sendRefunds(services, applied.flatMap(({ refunds }) => refunds))
  for (const { replaced } of applied) if (replaced) await finishReplacements(services, replaced)
}

/** refresh-status: asks Stripe and applies what it says, as a webhook would. A 503 when Stripe cannot be reached. */
export async function refreshPurchase(services: Services, purchase: PurchaseRow, source: 'refresh' | 'reconcile' = 'refresh'): Promise<PurchaseRow> {
  const stripe = stripeOf(services)
  if (!purchase.stripePaymentIntentId && !purchase.stripeCheckoutSessionId) return purchase
  let signals: PaymentSignal[]
  try {
    signals = await readSignals(stripe, purchase)
  } catch (error) {
    if (!isStripeError(error)) throw error
    throw unavailable()
  }
  return (await applyAll(services, purchase.id, signals, source)) ?? purchase
}

// ---------------------------------------------------------------------------------------------
// Webhook

/** `mismatch`: a payment that does not fit its purchase, recorded for the admins and granting nothing (decision 0074). */
export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'mismatch'

/** Thrown inside the webhook's transaction to roll it back, claim and all, when its event must be checked with Stripe first. */
class MustAskStripe extends Error {}

/**
 * A Stripe event (decision 0046): its signature checked by the SDK over the raw body with a
 * 5-minute tolerance (as of our clock; one signed more than 5 minutes ahead of it is refused too),
 * then, in ONE transaction, its id recorded (the primary key: a duplicate, from any process, finds
 * it and does nothing) and its effect applied. A failure rolls both back: Stripe redelivers, and
 * the redelivery applies it.
 *
 * An event that does not fit its purchase (decision 0074: a payment by a PaymentIntent the purchase
 * does not know, of another amount, a refund before its payment) is not applied from its copy: the
 * transaction is rolled back, Stripe is asked for the PaymentIntent and its charge (no Stripe call
 * inside a transaction), and what Stripe says is applied in a second one that records the event.
 * Stripe away then: a 503, nothing recorded, and Stripe's redelivery tries again.
 *
 * Few statements, as each costs its own round trip (on PGlite, inside a transaction, its own parse
 * and plan too): a payment that fits takes two (the event recorded with its purchase found and
 * locked; the transition with its record and grants), a duplicate one (issue 24: 200 events a second).
 */
export async function receiveWebhook(services: Services, rawBody: string, signature: string | undefined): Promise<WebhookOutcome> {
  const { db, clock, config, log } = services
  const stripe = stripeOf(services)
  if (!config.stripe.webhookSecret) throw paymentsOff()
  let event: Stripe.Event
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature ?? '', config.stripe.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, clock())
    // The SDK checks only the age: a timestamp far ahead would make a captured event replayable until then.
    const at = signedAt(signature ?? '')
    if (at === undefined || at - Math.floor(clock() / 1000) > WEBHOOK_TOLERANCE_SECONDS) throw new Error('signed too far ahead')
  } catch {
    throw apiError(400, 'Invalid Stripe signature.', { code: 'invalid_signature' })
  }
  const read = signalOfEvent(event)
  // A renewing plan's news (decision 0052); a paid invoice's PaymentIntent is asked for first (no Stripe call inside the transaction).
  const billing = billingSignalOf(event)
  const paymentIntentId = billing?.kind === 'invoice_paid' && billing.amountCents > 0 ? await invoicePaymentIntent(stripe, billing.invoiceId) : null
  if (billing?.kind === 'card_saved') await applySavedCard(services, stripe, billing, event.id)

  /** Records the event and applies `signals` (the event's own, or what Stripe said when asked). */
  const receive = async (signals: PaymentSignal[] | undefined, asked: boolean) => {
    const applied: Applied[] = []
    const outcome = await db.transaction(async (tx): Promise<WebhookOutcome> => {
      // A renewing plan's news locks no purchase here: applyBilling finds its own.
      const { claimed, purchase } = await claimEventAndLock(tx, { id: event.id, type: event.type, now: clock() }, billing ? undefined : read?.ref)
      if (!claimed) return 'duplicate'
      if (billing) return (await applyBilling(tx, billing, { now: clock(), appUrl: config.appPublicUrl, eventId: event.id, paymentIntentId })) ? 'applied' : 'ignored'
      if (!signals || signals.length === 0 || !purchase) return 'ignored'
      let current = purchase
      for (const signal of signals) {
        const result = await applySignalToLocked(tx, current, signal, { source: 'webhook', eventId: event.id, now: clock() })
        if (result.ask && !asked) throw new MustAskStripe()
        applied.push(result)
        current = result.purchase ?? current
      }
      return applied.some((result) => result.mismatch) ? 'mismatch' : 'applied'
    })
    await afterCommit(services, applied, event.id)
    return outcome
  }

  try {
    return await receive(read && [read.signal], false)
  } catch (error) {
    if (!(error instanceof MustAskStripe) || !read) throw error
  }
  let signals: PaymentSignal[]
  try {
    signals = await askStripe(stripe, read.signal)
  } catch (error) {
    if (!isStripeError(error)) throw error
    log({ level: 'warn', msg: 'stripe event not checked: stripe unreachable', event_id: event.id, type: event.type, ...errorFields(error) })
    throw unavailable()
  }
  return receive(signals, true)
}

/** Stripe's own default: an event signed more than 5 minutes ago is refused (a replay). */
export const WEBHOOK_TOLERANCE_SECONDS = 300

/** The PaymentIntent that paid an invoice (Stripe's InvoicePayments), so its refund can be made. */
async function invoicePaymentIntent(stripe: Stripe, invoiceId: string): Promise<string | null> {
  const payments = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 })
  const paid = payments.data.find((payment) => payment.status === 'paid') ?? payments.data[0]
  const intent = paid?.payment?.payment_intent
  return (typeof intent === 'string' ? intent : intent?.id) ?? null
}

// ---------------------------------------------------------------------------------------------
// Refunds

/**
 * Asks Stripe for refunds already written (their row's id is the idempotency key: sent twice, one
 * refund). A refusal marks the row failed; Stripe away leaves it pending for the tick.
 */
export async function sendRefunds(services: Services, refunds: RefundRow[]): Promise<void> {
  const { db, clock, log, stripe } = services
  if (!stripe) return
  for (const refund of refunds) {
    try {
      const made = await stripe.refunds.create(
        {
          payment_intent: refund.paymentIntentId,
          amount: refund.amountCents,
          // A second payment of the purchase, or of a product another purchase of the buyer holds (decision 0072): Stripe's duplicate.
          reason: refund.reason === 'double_payment' || refund.reason === 'superseded' ? 'duplicate' : 'requested_by_customer',
          metadata: { purchase_id: String(refund.purchaseId), refund_id: String(refund.id), reason: refund.reason },
        },
        { idempotencyKey: `innera-refund-${refund.id}` },
      )
      await updateRefund(db, refund.id, { status: 'succeeded', stripeRefundId: made.id, attempts: refund.attempts + 1, failureMessage: null }, clock())
    } catch (error) {
      const refused = isRefusal(error)
      log({ level: refused ? 'error' : 'warn', msg: refused ? 'refund refused by stripe' : 'refund not sent', purchase_id: refund.purchaseId, refund_id: refund.id, ...errorFields(error) })
      await updateRefund(db, refund.id, { status: refused ? 'failed' : 'pending', attempts: refund.attempts + 1, failureMessage: (error instanceof Error ? error.message : String(error)).slice(0, 500) }, clock())
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Cancel and renew

/** What a paid purchase would give back if cancelled at `at` (docs/product.md §9). */
export async function refundQuoteOf(services: Services, purchase: PurchaseRow, items: PurchaseItemRow[], at: number): Promise<PurchaseQuote | null> {
  if (purchase.status !== 'paid' || !purchase.paidAt) return null
  // A consultation's refund is its cancellation's (the consultation's page says it; decision 0051).
  const catalogue = catalogueItems(items)
  if (catalogue.length !== items.length) return null
  const credits = new Map((await creditsOf(services.db, purchase.id)).map((credit) => [credit.productId, credit]))
  return quotePurchaseRefund(
    {
      method: purchase.method,
      paidAt: Math.min(purchase.paidAt.getTime(), at),
      items: catalogue.map((item) => ({
        productId: item.productId,
        productType: item.productType,
        lineCents: item.lineCents,
        credits: item.productType === 'consultation_package' ? (credits.get(item.productId) ?? { total: (item.consultations ?? 1) * item.quantity, used: 0 }) : undefined,
      })),
    },
    at,
  )
}

const conflict = (detail: string, code: string) => apiError(409, detail, { code })

/**
 * Written with a cancellation, in its transaction, once the purchase has moved: an admin's change
 * records its audit entry there (decision 0061). `refund` is the refund row a paid purchase's
 * cancellation wrote; null for an unpaid one.
 */
export type CancellationRecorder = (tx: Writer, change: { before: PurchaseRow; after: PurchaseRow; refund: RefundRow | null; at: number }) => Promise<void>

/**
 * Cancels: an unpaid purchase at Stripe first (the PaymentIntent canceled, the Checkout Session
 * expired; should Stripe say it was paid meanwhile, that is applied and the answer is 409), then
 * here; a paid one is refunded per quoteRefund (the 7-day withdrawal in full; a package's unused
 * credits pro rata) and what it gave ends.
 */
export async function cancelPurchase(services: Services, purchase: PurchaseRow, record?: CancellationRecorder): Promise<PurchaseRow> {
  if (purchase.status === 'paid') {
    if (catalogueItems(await itemsOf(services.db, [purchase.id])).length === 0) {
      throw conflict('This purchase paid for a consultation: cancel the consultation, and its refund follows the consultation rules.', 'cancel_the_consultation')
    }
    return refundPurchase(services, purchase, record)
  }
  if (!UNPAID_CANCELLABLE.includes(purchase.status)) throw conflict(`This purchase is already ${purchase.status}.`, 'not_cancellable')
  const stripe = stripeOf(services)
  const { db, clock } = services
  // Whether Stripe may hold news (a payment) that must be applied before deciding.
  let mustRefresh = false
  try {
    if (purchase.stripeCheckoutSessionId) {
      const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId)
      if (session.status === 'open') await stripe.checkout.sessions.expire(session.id)
      else mustRefresh = true
    }
    if (purchase.stripePaymentIntentId) {
      const paymentIntent = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId)
      if (paymentIntent.status === 'succeeded') mustRefresh = true
      else if (paymentIntent.status !== 'canceled') await stripe.paymentIntents.cancel(paymentIntent.id, { cancellation_reason: 'requested_by_customer' })
    }
  } catch (error) {
    if (!isStripeError(error)) throw error
    // Away: nothing changes. Refused (paid meanwhile): whatever Stripe says now decides.
    if (!isRefusal(error)) throw unavailable()
    mustRefresh = true
  }
  const now = mustRefresh ? await refreshPurchase(services, purchase) : purchase
  const result = await db.transaction(async (tx) => {
    const locked = await lockPurchase(tx, now.id)
    if (!locked || !UNPAID_CANCELLABLE.includes(locked.status)) return locked
    const at = clock()
    const cancelled = await recordTransition(tx, locked, 'cancelled', { source: 'cancel', now: at, changes: { pixData: null, checkoutUrl: null } })
    await record?.(tx, { before: locked, after: cancelled, refund: null, at })
    return cancelled
  })
  if (result?.status !== 'cancelled') throw conflict(`This purchase was ${result?.status ?? 'changed'} meanwhile and cannot be cancelled as unpaid.`, 'status_changed')
  return result
}

async function refundPurchase(services: Services, purchase: PurchaseRow, record?: CancellationRecorder): Promise<PurchaseRow> {
  const { db, clock } = services
  const at = clock()
  const quote = await refundQuoteOf(services, purchase, await itemsOf(db, [purchase.id]), at)
  if (!quote || quote.refundCents === 0) throw conflict('Nothing of this purchase can be refunded any more: its 7 days to withdraw have passed.', 'nothing_to_refund')
  const refunds: RefundRow[] = []
  const result = await db.transaction(async (tx) => {
    const locked = await lockPurchase(tx, purchase.id)
    if (!locked || locked.status !== 'paid' || !locked.stripePaymentIntentId) return locked
    const ended = quote.items.filter((item) => item.accessEndsAt !== null).map((item) => item.productId)
    await revokeGrants(tx, locked.id, at, ended)
    const refund = await insertRefund(tx, { purchaseId: locked.id, paymentIntentId: locked.stripePaymentIntentId, amountCents: quote.refundCents, reason: 'cancel' }, at)
    if (refund) refunds.push(refund)
    const refunded = await recordTransition(tx, locked, 'refunded', { source: 'cancel', now: at, changes: { refundedCents: quote.refundCents } })
    await record?.(tx, { before: locked, after: refunded, refund: refund ?? null, at })
    return refunded
  })
  if (result?.status !== 'refunded' || refunds.length === 0) throw conflict(`This purchase was ${result?.status ?? 'changed'} meanwhile.`, 'status_changed')
  await sendRefunds(services, refunds)
  return result
}

/**
 * A new PIX code for a PIX purchase whose code failed or expired: a new PaymentIntent (the old one
 * canceled), back to pending. Should the old code have been paid after all, that is applied and
 * the answer is 409.
 */
export async function renewPix(services: Services, purchase: PurchaseRow, buyer: Buyer): Promise<PurchaseRow> {
  if (purchase.method !== 'pix') throw conflict('Only a PIX purchase gets a new PIX code.', 'not_pix')
  // Its time was released when the code failed or expired: booking again holds a time anew.
  if (purchase.holdsTime) throw conflict("A consultation's time is no longer held once its code failed or expired: book the consultation again.", 'book_again')
  if (purchase.status !== 'failed' && purchase.status !== 'expired') throw conflict(`A new PIX code is only for a failed or expired purchase; this one is ${purchase.status}.`, 'not_renewable')
  const stripe = stripeOf(services)
  const { db, clock } = services
  const current = await refreshPurchase(services, purchase)
  if (current.status !== 'failed' && current.status !== 'expired') throw conflict(`This purchase is ${current.status} now.`, 'status_changed')
  // Its products were given up when it failed or expired: another purchase may hold them now (decision 0072).
  await refuseIfClaimed(services, current)
  let fields: Awaited<ReturnType<typeof createPixCharge>>
  try {
    if (current.stripePaymentIntentId) {
      const old = await stripe.paymentIntents.retrieve(current.stripePaymentIntentId)
      if (!['succeeded', 'canceled'].includes(old.status)) await stripe.paymentIntents.cancel(old.id, { cancellation_reason: 'abandoned' })
    }
    fields = await createPixCharge(services, stripe, current, buyer.email, 'renew')
  } catch (error) {
    if (!isStripeError(error) || !isRefusal(error)) throw isStripeError(error) ? unavailable() : error
    // The old code was paid meanwhile: Stripe refused to cancel it.
    const after = await refreshPurchase(services, current)
    throw conflict(`This purchase is ${after.status} now.`, 'status_changed')
  }
  const result = await db
    .transaction(async (tx) => {
      const locked = await lockPurchase(tx, current.id)
      if (!locked || (locked.status !== 'failed' && locked.status !== 'expired')) return locked
      return recordTransition(tx, locked, 'pending', { source: 'renew', now: clock(), changes: { ...fields, failureCode: null, failureMessage: null, checkedAt: null } })
    })
    .catch(async (error: unknown) => {
      // Taken by another checkout since the look above: the new code is not to be paid.
      if (!(error instanceof ProductsClaimed)) throw error
      await stripe.paymentIntents.cancel(fields.stripePaymentIntentId, { cancellation_reason: 'abandoned' }).catch(() => undefined)
      throw await claimedErrorOf(services, current.userId, error)
    })
  if (result?.status !== 'pending' || result.stripePaymentIntentId !== fields.stripePaymentIntentId) {
    await stripe.paymentIntents.cancel(fields.stripePaymentIntentId, { cancellation_reason: 'abandoned' }).catch(() => undefined)
    throw conflict(`This purchase is ${result?.status ?? 'changed'} now.`, 'status_changed')
  }
  return result
}

// ---------------------------------------------------------------------------------------------
// Checkouts replaced by a paid purchase of the same product (decision 0076)

/**
 * Once the payment that cancelled them has committed: the candidates its transaction found locked
 * by another one, cancelled now if they still are not final and the product is still owned (each
 * in its own transaction, waiting for that one; nothing else is held meanwhile), and every one
 * cancelled closed at Stripe.
 */
async function finishReplacements(services: Services, { cancelled, busy }: Replacements): Promise<void> {
  const { db, clock, log } = services
  const rows = [...cancelled]
  for (const id of busy) {
    try {
      const replaced = await db.transaction((tx) => replaceIfOwned(tx, id, clock()))
      if (replaced) rows.push(replaced)
    } catch (error) {
      // Left as it was: a payment that reaches it is refunded as superseded (decision 0072).
      log({ level: 'warn', msg: 'replaced purchase not cancelled', purchase_id: id, ...errorFields(error) })
    }
  }
  for (const row of rows) await closeReplaced(services, row)
}

/**
 * Closes at Stripe the way to pay a purchase cancelled for another one: its Checkout Session
 * expired, its PaymentIntent cancelled (`duplicate`), each only when still open (done twice, the
 * same). Should Stripe say it was paid meanwhile, that is applied (the money goes back, superseded).
 * True once done and marked (`stripe_closed_at`); Stripe away leaves it for the tick, a minute on.
 */
export async function closeReplaced(services: Services, purchase: PurchaseRow): Promise<boolean> {
  const { db, clock, log, stripe } = services
  if (!stripe || purchase.stripeClosedAt) return false
  let paid = false
  try {
    try {
      if (purchase.stripeCheckoutSessionId) {
        const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId)
        if (session.status === 'open') await stripe.checkout.sessions.expire(session.id)
        else paid ||= session.status === 'complete'
      }
      if (purchase.stripePaymentIntentId) {
        const paymentIntent = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId)
        if (paymentIntent.status === 'succeeded') paid = true
        else if (paymentIntent.status !== 'canceled') await stripe.paymentIntents.cancel(paymentIntent.id, { cancellation_reason: 'duplicate' })
      }
    } catch (error) {
      // Refused: paid (or closed) meanwhile; what Stripe says now decides.
      if (!isStripeError(error) || !isRefusal(error)) throw error
      paid = true
    }
    if (paid) await refreshPurchase(services, purchase, 'reconcile')
  } catch (error) {
    log({ level: 'warn', msg: 'replaced purchase not closed at stripe', purchase_id: purchase.id, ...errorFields(error) })
    // Refused again when asked: nothing more to do at Stripe; anything else is tried again by the tick.
    if (!isRefusal(error)) {
      await updatePurchase(db, purchase.id, {}, clock())
      return false
    }
  }
  await updatePurchase(db, purchase.id, { stripeClosedAt: new Date(clock()) }, clock())
  return true
}

// ---------------------------------------------------------------------------------------------
// The tick

export type PurchasesReport = { checked: number; expired: number; refunds: number; failed: number; closed: number }

/**
 * The purchases' periodic work (jobs.ts), safe in several processes at once: pending purchases
 * made at Stripe and not heard of for RECONCILE_AFTER_MS, or past their expiry, are asked about
 * and what Stripe says is applied (the crash and lost-webhook cases, exactly once like any
 * signal); those still pending past their expiry are canceled at Stripe and expired; refunds
 * Stripe has not taken yet are sent again.
 */
export async function purchasesTick(services: Services): Promise<PurchasesReport | undefined> {
  const { db, clock, log, stripe } = services
  if (!stripe) return undefined
  const report: PurchasesReport = { checked: 0, expired: 0, refunds: 0, failed: 0, closed: 0 }
  const now = clock()
  for (const purchase of await purchasesToCheck(db, { now, checkedBefore: now - RECONCILE_AFTER_MS, limit: PER_TICK })) {
    try {
      const signals = await readSignals(stripe, purchase)
      const after = (await applyAll(services, purchase.id, signals, 'reconcile', { checkedAt: new Date(now) })) ?? purchase
      report.checked += 1
      if (after.status === 'pending' && isPastExpiry(after, now)) {
        await expireAtStripe(stripe, after)
        const expired = await db.transaction(async (tx) => {
          const locked = await lockPurchase(tx, after.id)
          return locked?.status === 'pending' ? recordTransition(tx, locked, 'expired', { source: 'expiry', now: clock(), changes: { pixData: null, checkoutUrl: null } }) : undefined
        })
        if (expired) report.expired += 1
      }
    } catch (error) {
      report.failed += 1
      log({ level: 'warn', msg: 'purchase reconciliation failed', purchase_id: purchase.id, ...errorFields(error) })
      await updatePurchase(db, purchase.id, { checkedAt: new Date(now) }, clock())
    }
  }
  const due = await pendingRefunds(db, now - PURCHASES_TICK_MS, PER_TICK)
  await sendRefunds(services, due)
  report.refunds = due.length
  // Purchases cancelled for another one (decision 0076) whose way to pay Stripe had not closed yet.
  for (const replaced of await replacedToClose(db, now - PURCHASES_TICK_MS, PER_TICK)) if (await closeReplaced(services, replaced)) report.closed += 1
  return report
}

function isPastExpiry(purchase: PurchaseRow, now: number): boolean {
  if (purchase.method === 'pix') return purchase.pixExpiresAt !== null && purchase.pixExpiresAt.getTime() + EXPIRY_GRACE_MS <= now
  return purchase.checkoutExpiresAt !== null && purchase.checkoutExpiresAt.getTime() <= now
}

/** Ends the way to pay at Stripe (Stripe does it too at the expiry; this is for when it has not). */
async function expireAtStripe(stripe: Stripe, purchase: PurchaseRow): Promise<void> {
  if (purchase.stripeCheckoutSessionId) {
    const session = await stripe.checkout.sessions.retrieve(purchase.stripeCheckoutSessionId)
    if (session.status === 'open') await stripe.checkout.sessions.expire(session.id)
  }
  if (purchase.stripePaymentIntentId) {
    const paymentIntent = await stripe.paymentIntents.retrieve(purchase.stripePaymentIntentId)
    if (!['succeeded', 'canceled'].includes(paymentIntent.status)) await stripe.paymentIntents.cancel(paymentIntent.id, { cancellation_reason: 'abandoned' })
  }
}

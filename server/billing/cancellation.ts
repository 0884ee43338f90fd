import type { PurchaseStatus } from '#server/db/schema.ts'
import { apiError } from '#server/http/errors.ts'
import type { Services } from '#server/services.ts'
import { isRefusal, isStripeError, stripeOf, unavailableError } from '#server/stripe/client.ts'
import { movePurchase } from '#server/billing/transitions.ts'
import { refreshPurchase } from '#server/billing/stripe-news.ts'
import { claimedErrorOf, createPixCharge, refuseIfClaimed, type Buyer } from '#server/billing/checkout.ts'
import { ProductsClaimed } from '#server/purchases/claims.ts'
import { refundQuoteOf, sendRefunds } from '#server/purchases/refunds.ts'
import { itemsOf, lockPurchase, revokeGrants, insertRefund, catalogueItems, type PurchaseRow, type RefundRow, type Writer } from '#server/purchases/repository.ts'

/** A buyer's (or an admin's) cancel of a purchase, and a new PIX code for one that failed or expired. */

/** Statuses a buyer may cancel without a refund. */
const UNPAID_CANCELLABLE: readonly PurchaseStatus[] = ['pending', 'failed', 'expired']

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
    if (!isRefusal(error)) throw unavailableError()
    mustRefresh = true
  }
  const now = mustRefresh ? await refreshPurchase(services, purchase) : purchase
  const result = await db.transaction(async (tx) => {
    const locked = await lockPurchase(tx, now.id)
    if (!locked || !UNPAID_CANCELLABLE.includes(locked.status)) return locked
    const at = clock()
    const cancelled = await movePurchase(tx, locked, 'cancelled', { source: 'cancel', now: at, changes: { pixData: null, checkoutUrl: null } })
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
    const refunded = await movePurchase(tx, locked, 'refunded', { source: 'cancel', now: at, changes: { refundedCents: quote.refundCents } })
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
    if (!isStripeError(error) || !isRefusal(error)) throw isStripeError(error) ? unavailableError() : error
    // The old code was paid meanwhile: Stripe refused to cancel it.
    const after = await refreshPurchase(services, current)
    throw conflict(`This purchase is ${after.status} now.`, 'status_changed')
  }
  const result = await db
    .transaction(async (tx) => {
      const locked = await lockPurchase(tx, current.id)
      if (!locked || (locked.status !== 'failed' && locked.status !== 'expired')) return locked
      return movePurchase(tx, locked, 'pending', { source: 'renew', now: clock(), changes: { ...fields, failureCode: null, failureMessage: null, checkedAt: null } })
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

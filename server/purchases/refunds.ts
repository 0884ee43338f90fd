import { isRefusal } from '#server/stripe/client.ts'
import { errorFields } from '#server/log.ts'
import type { Services } from '#server/services.ts'
import { quotePurchaseRefund, type PurchaseQuote } from '#server/purchases/purchase-refund.ts'
import { catalogueItems, creditsOf, updateRefund, type PurchaseItemRow, type PurchaseRow, type RefundRow } from '#server/purchases/repository.ts'

/**
 * A paid purchase's money going back: what its cancel would give back now (the rules of
 * docs/product.md §9), and the refunds written in a transaction sent to Stripe once it has
 * committed (the tick sends again those Stripe has not taken).
 */

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

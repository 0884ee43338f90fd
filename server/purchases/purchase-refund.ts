import type { PurchaseMethod } from '#server/db/schema.ts'
import { quoteRefund, withdrawalEndsAt, refundDeadline, type RefundDeadline, type RefundReason } from '#server/purchases/refund-rules.ts'

/**
 * What cancelling a paid purchase gives back (docs/product.md §9, decisions 0044 and 0048): each
 * item under its own rule of quoteRefund (a course, program or material in full within the 7 days;
 * a package its unused credits pro rata, rounded down), summed. Pure.
 */

type PaidItem = {
  productId: number
  productType: 'consultation_package' | 'program' | 'course' | 'digital_material'
  lineCents: number
  /** A package's credits as they stand, held and used (required for a package: quoteRefund refuses 0 credits). */
  credits?: { total: number; used: number }
}

type ItemQuote = { productId: number; refundCents: number; reason: RefundReason; accessEndsAt: number | null }

export type PurchaseQuote = {
  refundCents: number
  /** The items' common reason; null when they differ (each item says its own). */
  reason: RefundReason | null
  deadline: RefundDeadline | null
  withdrawalEndsAt: number
  items: ItemQuote[]
}

export function quotePurchaseRefund({ method, paidAt, items }: { method: PurchaseMethod; paidAt: number; items: PaidItem[] }, at: number): PurchaseQuote {
  const quotes = items.map((item): ItemQuote => {
    const payment = { method, paidAt, amountCents: item.lineCents }
    const quote =
      item.productType === 'consultation_package'
        ? quoteRefund({ kind: 'consultation_package', payment, credits: item.credits?.total ?? 0, creditsUsed: item.credits?.used ?? 0 }, at)
        : quoteRefund({ kind: item.productType, payment }, at)
    return { productId: item.productId, refundCents: quote.refundCents, reason: quote.reason, accessEndsAt: quote.accessEndsAt }
  })
  const refundCents = quotes.reduce((sum, quote) => sum + quote.refundCents, 0)
  const reasons = new Set(quotes.map((quote) => quote.reason))
  return {
    refundCents,
    reason: reasons.size === 1 ? quotes[0]!.reason : null,
    deadline: refundCents > 0 ? refundDeadline(method, at) : null,
    withdrawalEndsAt: withdrawalEndsAt(paidAt),
    items: quotes,
  }
}

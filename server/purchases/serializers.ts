import type { LocalizedText } from '#server/db/schema.ts'
import type { ProductView } from '#server/products/repository.ts'
import { serializeProduct } from '#server/products/serializers.ts'
import type { LineConsultation, ReadItem } from '#server/purchases/consultation-lines.ts'
import type { PurchaseQuote } from '#server/purchases/purchase-refund.ts'
import type { RefundDeadline } from '#server/purchases/refund-rules.ts'
import type { CreditRow, GrantRow, PurchaseRow, RefundRow, TransitionRow } from '#server/purchases/repository.ts'

/** The purchases' JSON shapes (docs/product.md §3, decision 0048). Instants ISO 8601 in UTC; money integer cents. */

const iso = (date: Date | null) => (date ? date.toISOString() : null)
const localized = (text: LocalizedText): LocalizedText => ({ pt: text.pt, en: text.en, es: text.es })

/** A consultation's line: the appointment it pays, its start and its professional's zone (decision 0077); null on a product's line or when the appointment is gone. */
export function serializeLineConsultation(consultation: LineConsultation | null) {
  return consultation && { appointment_id: consultation.appointmentId, starts_at: consultation.startsAt.toISOString(), professional_id: consultation.professionalId, time_zone: consultation.timeZone }
}

/** A line, its name as the caller reads it (a consultation's in their time zone: consultation-lines.ts). */
function serializeItem(item: ReadItem) {
  return {
    product_id: item.productId,
    product_type: item.productType,
    name: localized(item.name),
    quantity: item.quantity,
    unit_cents: item.unitCents,
    line_cents: item.lineCents,
    consultation: serializeLineConsultation(item.consultation),
  }
}

/**
 * A purchase as lists show it: what was bought, for how much, where it stands, and how to pay while
 * pending. `replacedBy`: for one that ended unpaid, the buyer's paid purchase that holds its course,
 * material or program now (decision 0076; replacements.ts: replacingPurchases).
 */
export function serializePurchase(purchase: PurchaseRow, items: ReadItem[], replacedBy: number | null = null) {
  const pending = purchase.status === 'pending'
  return {
    id: purchase.id,
    status: purchase.status,
    method: purchase.method,
    total_cents: purchase.totalCents,
    refunded_cents: purchase.refundedCents,
    currency: 'BRL',
    items: items.map(serializeItem),
    created_at: iso(purchase.createdAt),
    updated_at: iso(purchase.updatedAt),
    paid_at: iso(purchase.paidAt),
    // Only while it can be paid: a paid, expired or cancelled purchase's code or page is of no use.
    checkout_url: pending && purchase.method === 'card' ? purchase.checkoutUrl : null,
    checkout_expires_at: pending && purchase.method === 'card' ? iso(purchase.checkoutExpiresAt) : null,
    pix: pending && purchase.method === 'pix' && purchase.pixData ? { data: purchase.pixData, expires_at: iso(purchase.pixExpiresAt), instructions_url: purchase.pixInstructionsUrl } : null,
    failure: purchase.failureCode || purchase.failureMessage ? { code: purchase.failureCode, message: purchase.failureMessage } : null,
    // The buyer has its product through that purchase ("Você já tem este curso"): a checkout cancelled for it, or one ended before.
    replaced_by_purchase_id: replacedBy,
  }
}

/** By when a refund arrives, as purchases and consultations show it. */
export function serializeDeadline(deadline: RefundDeadline | null) {
  return (
    deadline && {
      method: deadline.method,
      key: deadline.key,
      billing_cycles: deadline.method === 'card' ? deadline.billingCycles : null,
      business_days: deadline.method === 'card' ? null : deadline.businessDays,
      date: deadline.method === 'card' ? null : deadline.date,
    }
  )
}

export function serializeQuote(quote: PurchaseQuote) {
  return {
    refund_cents: quote.refundCents,
    reason: quote.reason,
    withdrawal_ends_at: new Date(quote.withdrawalEndsAt).toISOString(),
    deadline: serializeDeadline(quote.deadline),
    items: quote.items.map((item) => ({
      product_id: item.productId,
      refund_cents: item.refundCents,
      reason: item.reason,
      access_ends: item.accessEndsAt !== null,
    })),
  }
}

/** One purchase: the list's shape with its history, its refunds and, when paid, what cancelling now would refund and by when. */
export function serializePurchaseDetail(
  purchase: PurchaseRow,
  {
    items,
    transitions,
    refunds,
    quote,
    appointmentId,
    replacedBy = null,
  }: { items: ReadItem[]; transitions: TransitionRow[]; refunds: RefundRow[]; quote: PurchaseQuote | null; appointmentId: number | null; replacedBy?: number | null },
) {
  return {
    ...serializePurchase(purchase, items, replacedBy),
    transitions: transitions.map((transition) => ({ from_status: transition.fromStatus, to_status: transition.toStatus, at: iso(transition.at), source: transition.source })),
    refunds: refunds.map((refund) => ({ amount_cents: refund.amountCents, reason: refund.reason, status: refund.status, created_at: iso(refund.createdAt) })),
    refund_quote: quote && serializeQuote(quote),
    // A paid consultation is cancelled (and refunded) through the consultation, never as a purchase.
    can_cancel: ['pending', 'failed', 'expired'].includes(purchase.status) || (purchase.status === 'paid' && !purchase.holdsTime && (quote?.refundCents ?? 0) > 0),
    can_renew_pix: purchase.method === 'pix' && !purchase.holdsTime && (purchase.status === 'failed' || purchase.status === 'expired'),
    // The consultation it pays (decision 0051): its page says how it is cancelled and refunded.
    appointment_id: appointmentId,
    // The subscription it pays a period of (decision 0052).
    subscription_id: purchase.subscriptionId,
  }
}

/** A product the user has: the catalogue's product, what the purchase gave, since when, and a package's credits. */
export function serializeOwnedProduct(grant: GrantRow, view: ProductView, credit: CreditRow | undefined, providerUrl: string) {
  return {
    product: serializeProduct(view, providerUrl),
    purchase_id: grant.purchaseId,
    kind: grant.kind,
    available_at: iso(grant.availableAt),
    // A material's file (decision 0056), for its buyer's Bearer token.
    download_url: grant.kind === 'material' ? `${providerUrl}/products/my-products/${grant.productId}/download/` : null,
    credits: credit ? { total: credit.total, used: credit.used, remaining: credit.total - credit.used, professional_id: credit.professionalId } : null,
  }
}

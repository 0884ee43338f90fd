import type { CancelledBy, LocalizedText } from '#server/db/schema.ts'
import type { AdminPurchaseRow, AdminRefundEntry, Buyer, WebhookDelivery } from '#server/purchases/admin-queries.ts'
import type { ReadItem } from '#server/purchases/consultation-lines.ts'
import type { RecordedMismatch } from '#server/purchases/mismatches.ts'
import type { PurchaseQuote } from '#server/purchases/purchase-refund.ts'
import { refundDeadline } from '#server/purchases/refund-rules.ts'
import type { PurchaseRow, RefundRow, TransitionRow } from '#server/purchases/repository.ts'
import { serializeDeadline, serializeLineConsultation, serializeQuote } from '#server/purchases/serializers.ts'

/** The admins' shapes of purchases (issue 26, decision 0061; docs/product.md §7). Instants ISO 8601 in UTC; money integer cents. */

const iso = (date: Date | null) => (date ? date.toISOString() : null)
const localized = (text: LocalizedText): LocalizedText => ({ pt: text.pt, en: text.en, es: text.es })

const nameOf = (buyer: Pick<Buyer, 'firstName' | 'lastName' | 'email'>) => [buyer.firstName, buyer.lastName].filter(Boolean).join(' ') || buyer.email

function serializeBuyer(buyer: Buyer) {
  return { id: buyer.id, name: nameOf(buyer), email: buyer.email }
}

/** A line, a consultation's title in the admin's time zone (decision 0077) with what it is composed from. */
function serializeAdminItem(item: ReadItem) {
  return { product_id: item.productId, kind: item.productType, title: localized(item.name), quantity: item.quantity, price_cents: item.lineCents, consultation: serializeLineConsultation(item.consultation) }
}

/** A purchase as the admins' list shows it: when, where it stands, how and how much, who bought what. */
export function serializeAdminPurchase({ purchase, buyer }: AdminPurchaseRow, items: ReadItem[]) {
  return {
    id: purchase.id,
    created_at: iso(purchase.createdAt),
    paid_at: iso(purchase.paidAt),
    status: purchase.status,
    method: purchase.method,
    total_cents: purchase.totalCents,
    refunded_cents: purchase.refundedCents,
    currency: 'BRL',
    buyer: serializeBuyer(buyer),
    items: items.map(serializeAdminItem),
  }
}

/** Why an admin cannot refund a purchase now (the form is not offered; the refund would be a 409 with this code). */
type RefundRefusal = 'already_refunded' | 'not_paid' | 'cancel_the_subscription' | 'cancel_the_consultation' | 'nothing_to_refund'

export function refundRefusalOf(purchase: PurchaseRow, quote: PurchaseQuote | null): RefundRefusal | null {
  if (purchase.status === 'refunded') return 'already_refunded'
  if (purchase.status !== 'paid') return 'not_paid'
  if (purchase.subscriptionId !== null) return 'cancel_the_subscription'
  if (!quote) return 'cancel_the_consultation'
  return quote.refundCents > 0 ? null : 'nothing_to_refund'
}

type RefundAuthor = { role: 'admin' | 'professional' | 'buyer' | 'system'; user: { id: number; name: string } | null; note: string | null }

/**
 * Who asked for a refund: Stripe's late or double payments are the provider's own; a cancellation's
 * is an admin's when the audit log has one (their refund of the purchase, or their cancellation of
 * the consultation it pays: with the reason they gave), else the consultation's professional when
 * they cancelled it, else the buyer.
 */
export function refundAuthor(
  refund: RefundRow,
  { buyer, adminEntries, consultationCancelledBy, names }: { buyer: Buyer; adminEntries: AdminRefundEntry[]; consultationCancelledBy: CancelledBy | null; names: Map<number, string> },
): RefundAuthor {
  if (refund.reason !== 'cancel') return { role: 'system', user: null, note: null }
  const admin = adminEntries.at(-1)
  if (admin) return { role: 'admin', user: admin.actorId === null ? null : { id: admin.actorId, name: names.get(admin.actorId) ?? '' }, note: admin.reason }
  if (consultationCancelledBy === 'professional') return { role: 'professional', user: null, note: null }
  return { role: 'buyer', user: { id: buyer.id, name: nameOf(buyer) }, note: null }
}

type AdminDetailParts = {
  buyer: Buyer
  items: ReadItem[]
  transitions: TransitionRow[]
  deliveries: WebhookDelivery[]
  refunds: { row: RefundRow; by: RefundAuthor }[]
  quote: PurchaseQuote | null
  appointmentId: number | null
  /** Payments Stripe spoke of that did not fit the purchase (decision 0074); none when absent. */
  mismatches?: RecordedMismatch[]
}

/** One purchase for the admins: the list's shape, its whole history, its refunds and what the terms would refund now. */
export function serializeAdminPurchaseDetail(purchase: PurchaseRow, { buyer, items, transitions, deliveries, refunds, quote, appointmentId, mismatches = [] }: AdminDetailParts) {
  const refusal = refundRefusalOf(purchase, quote)
  return {
    ...serializeAdminPurchase({ purchase, buyer }, items),
    updated_at: iso(purchase.updatedAt),
    failure: purchase.failureCode || purchase.failureMessage ? { code: purchase.failureCode, message: purchase.failureMessage } : null,
    appointment_id: appointmentId,
    subscription_id: purchase.subscriptionId,
    events: transitions.map((transition) => ({
      from_status: transition.fromStatus,
      to_status: transition.toStatus,
      at: iso(transition.at),
      source: transition.source,
      stripe_event_id: transition.stripeEventId,
    })),
    webhook_deliveries: deliveries.map((delivery) => ({
      id: delivery.eventId,
      type: delivery.type,
      received_at: iso(delivery.receivedAt),
      changed_status: delivery.changedStatus,
      deliveries: delivery.deliveries && {
        attempts: delivery.deliveries.attempts,
        delivered_at: iso(delivery.deliveries.deliveredAt),
        failed_at: iso(delivery.deliveries.failedAt),
        last_error: delivery.deliveries.lastError,
      },
    })),
    refunds: refunds.map(({ row, by }) => ({
      id: row.id,
      amount_cents: row.amountCents,
      method: purchase.method,
      status: row.status,
      reason: row.reason,
      note: by.note,
      deadline: serializeDeadline(refundDeadline(purchase.method, row.createdAt.getTime())),
      created_at: iso(row.createdAt),
      by: { role: by.role, user: by.user },
    })),
    // What granted nothing: a made-up or another purchase's PaymentIntent, another amount or currency.
    payment_mismatches: mismatches.map((mismatch) => ({
      at: iso(mismatch.at),
      reason: mismatch.reason,
      payment_intent_id: mismatch.paymentIntentId,
      amount_cents: mismatch.amountCents,
      currency: mismatch.currency,
      expected_cents: mismatch.expectedCents,
      stripe_event_id: mismatch.stripeEventId,
    })),
    refund_quote: refusal === null && quote ? serializeQuote(quote) : null,
    refund_refusal: refusal && { code: refusal, withdrawal_ends_at: quote ? new Date(quote.withdrawalEndsAt).toISOString() : null },
  }
}

/** The export's columns (a spreadsheet's first row), in the provider's language like its other answers. */
export const CSV_COLUMNS = ['id', 'created_at', 'paid_at', 'status', 'method', 'total_cents', 'refunded_cents', 'currency', 'buyer_id', 'buyer_name', 'buyer_email', 'items'] as const

/** A purchase as one row of the export: the list's facts, the items as "name × quantity" in Portuguese (a consultation's in the admin's zone), one cell. */
export function csvRow({ purchase, buyer }: AdminPurchaseRow, items: Pick<ReadItem, 'name' | 'quantity'>[]): (string | number)[] {
  return [
    purchase.id,
    iso(purchase.createdAt) ?? '',
    iso(purchase.paidAt) ?? '',
    purchase.status,
    purchase.method,
    purchase.totalCents,
    purchase.refundedCents,
    'BRL',
    buyer.id,
    nameOf(buyer),
    buyer.email,
    items.map((item) => `${item.name.pt} × ${item.quantity}`).join('; '),
  ]
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { z } from 'zod'
import { isDateInRange } from '#app/domain/date-range.ts'
import { type Cents, formatMoney } from '#app/domain/money.ts'
import { formatDateAndTime, formatInstantDate, withdrawalEndText } from '#app/domain/viewer-times.ts'
import { type Language, languageTags } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { type AdminPurchase, type AdminPurchaseDetail, MISMATCH_REASONS, REFUND_REFUSALS } from '#app/provider/admin-purchase-schemas.ts'
import { type AdminPurchaseQuery, refundAdminPurchase } from '#app/provider/admin-purchases.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { PAYMENT_METHODS, PURCHASE_STATUSES } from '#app/provider/purchase-schemas.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { adminRefundSchema } from '#app/forms/admin-purchase-forms.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'

/**
 * The admin console's purchases (issue 26, decision 0061): the list's GET filters as the page
 * reads them, the views the pages draw, and the refund form's action.
 */

const MAX_SEARCH = 254

/** A date (of the admin's zone, decision 0077) the filter may send (YYYY-MM-DD, a real date, 2000-2100); anything else is no filter. */
const dateParam = z
  .string()
  .trim()
  .refine((value) => isDateInRange(value))
  .or(z.literal(''))
  .catch('')

const querySchema = z.object({
  search: z.string().trim().max(MAX_SEARCH).catch(''),
  status: z.enum(PURCHASE_STATUSES).or(z.literal('')).catch(''),
  method: z.enum(PAYMENT_METHODS).or(z.literal('')).catch(''),
  from: dateParam,
  to: dateParam,
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
})
type PurchaseListQuery = z.infer<typeof querySchema> & { reversed: boolean }

/** The list's filters from the page's URL; unreadable values are no filter, and a reversed range is dropped (and said). */
export function readPurchaseQuery(url: URL): PurchaseListQuery {
  const read = (name: string) => url.searchParams.get(name) ?? ''
  const query = querySchema.parse({ search: read('search'), status: read('status'), method: read('method'), from: read('from'), to: read('to'), page: url.searchParams.get('page') ?? 1 })
  const reversed = query.from !== '' && query.to !== '' && query.to < query.from
  return reversed ? { ...query, from: '', to: '', reversed } : { ...query, reversed }
}

/** What the provider is asked for: the dates are days of the admin's zone (`tz`, decision 0077). */
export function providerQuery(query: PurchaseListQuery, timeZone: string): AdminPurchaseQuery {
  return {
    search: query.search || undefined,
    status: query.status || undefined,
    method: query.method || undefined,
    from: query.from || undefined,
    to: query.to || undefined,
    tz: timeZone,
  }
}

/** The filters as a query string (the pages, the export link): only what is set. */
export function filterParams(query: PurchaseListQuery, page = 1): string {
  const params = new URLSearchParams()
  for (const name of ['search', 'status', 'method', 'from', 'to'] as const) if (query[name]) params.set(name, query[name])
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return search ? `?${search}` : ''
}

/** An instant in the admin's time zone (decision 0077; the console names it), in the page's language: "10/03/2026, 12:00". */
function adminDateTime(iso: string, language: Language, timeZone: string): string {
  return formatDateAndTime(iso, timeZone, language, { dateStyle: 'short' })
}

/** A calendar date of the terms (YYYY-MM-DD: a refund's business day, São Paulo's) in words; a date has no zone to name. */
const calendarDate = (value: string, language: Language) => formatInstantDate(`${value}T12:00:00Z`, 'UTC', language)

const money = (cents: number, language: Language) => formatMoney(cents as Cents, language)

/** An amount in the currency Stripe named (a payment that did not fit may be in another), or the bare figures when the code is none. */
function moneyIn(cents: number, currency: string, language: Language): string {
  if (currency.toLowerCase() === 'brl') return money(cents, language)
  try {
    return new Intl.NumberFormat(languageTags[language], { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)
  } catch {
    return `${cents} ${currency}`
  }
}

/** A row of the list. */
export function purchaseRow(purchase: AdminPurchase, language: Language, timeZone: string) {
  return {
    id: purchase.id,
    createdAt: purchase.created_at,
    created: adminDateTime(purchase.created_at, language, timeZone),
    status: purchase.status,
    method: purchase.method,
    total: money(purchase.total_cents, language),
    refunded: purchase.refunded_cents > 0 ? money(purchase.refunded_cents, language) : null,
    buyer: purchase.buyer,
    items: purchase.items.map((item) => item.title[language]),
  }
}

/** The purchase's page: its facts, its history, its refunds, and what the terms would refund now (or why not). */
export function purchaseDetailView(purchase: AdminPurchaseDetail, language: Language, timeZone: string) {
  const quote = purchase.refund_quote
  const refusal = purchase.refund_refusal
  const deadline = (value: AdminPurchaseDetail['refunds'][number]['deadline']) =>
    value && { method: value.method, billingCycles: value.billing_cycles ?? 2, businessDays: value.business_days ?? 3, date: value.date ? calendarDate(value.date, language) : '' }
  return {
    ...purchaseRow(purchase, language, timeZone),
    items: purchase.items.map((item) => ({ productId: item.product_id, kind: item.kind, title: item.title[language], quantity: item.quantity, price: money(item.price_cents, language) })),
    paid: purchase.paid_at ? adminDateTime(purchase.paid_at, language, timeZone) : null,
    failure: purchase.failure,
    appointmentId: purchase.appointment_id,
    subscriptionId: purchase.subscription_id,
    events: purchase.events.map((event) => ({ ...event, when: adminDateTime(event.at, language, timeZone) })),
    deliveries: purchase.webhook_deliveries.map((delivery) => ({ ...delivery, received: delivery.received_at ? adminDateTime(delivery.received_at, language, timeZone) : null })),
    refunds: purchase.refunds.map((refund) => ({
      id: refund.id,
      amount: money(refund.amount_cents, language),
      method: refund.method,
      status: refund.status,
      kind: refund.reason,
      note: refund.note,
      by: refund.by,
      when: adminDateTime(refund.created_at, language, timeZone),
      deadline: deadline(refund.deadline),
    })),
    mismatches: purchase.payment_mismatches.map((mismatch) => ({
      when: adminDateTime(mismatch.at, language, timeZone),
      at: mismatch.at,
      reason: (MISMATCH_REASONS as readonly string[]).includes(mismatch.reason) ? mismatch.reason : 'other',
      paymentIntentId: mismatch.payment_intent_id,
      amount: moneyIn(mismatch.amount_cents, mismatch.currency, language),
      expected: money(mismatch.expected_cents, language),
      currency: mismatch.currency.toUpperCase(),
      eventId: mismatch.stripe_event_id,
    })),
    quote: quote && {
      amount: money(quote.refund_cents, language),
      full: quote.refund_cents === purchase.total_cents,
      reason: quote.reason?.replace(/^refunds\.reason\./, '') ?? null,
      // The period's last day in São Paulo, or outside its zone the instant it ends (decision 0077).
      withdrawalEnds: withdrawalEndText(quote.withdrawal_ends_at, timeZone, language),
      deadline: deadline(quote.deadline),
    },
    refusal: refusal && {
      code: (REFUND_REFUSALS as readonly string[]).includes(refusal.code) ? refusal.code : 'other',
      withdrawalEnds: refusal.withdrawal_ends_at ? withdrawalEndText(refusal.withdrawal_ends_at, timeZone, language) : '',
    },
  }
}

export type PurchaseDetailView = ReturnType<typeof purchaseDetailView>

/**
 * The refund form: the reason checked (required, up to 500), then the provider refunds what the
 * terms give now. Done: back to the purchase with a toast saying how much. Refused (nothing left to
 * refund, already refunded…) or the provider failing: the form again with the reason as typed and
 * why, in the admin's language.
 */
export async function refundAction(request: Request, auth: SignedInCaller, id: number, language: Language) {
  const submission = parseWithZod(await readFormData(request), { schema: adminRefundSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  let refunded: AdminPurchaseDetail
  try {
    refunded = await refundAdminPurchase(auth, id, submission.value.reason)
  } catch (error) {
    const t = await getFixedT(request, ['admin-purchases', 'common'])
    const code = error instanceof ProviderError && error.status === 409 ? error.code : undefined
    const refusal = code && (REFUND_REFUSALS as readonly string[]).includes(code) ? code : 'other'
    const { result, init } = replyToFailure(submission, error, t, { fields: { reason: 'reason' }, statusMessages: { 409: `admin-purchases:refund.refusals.${refusal}` } })
    return data({ result }, init)
  }
  return redirectWithToast(`/admin/purchases/${id}`, {
    type: 'success',
    message: { key: 'admin-purchases:refund.done', values: { amount: money(refunded.refunded_cents, language) } },
    durationMs: 8_000,
  })
}

import { and } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { invalidRequest } from '#server/fakes/stripe/errors.ts'
import type { FormParams } from '#server/fakes/stripe/form.ts'
import { listParams, object, oneOf, onlyKnown, onlyKnownIn, text } from '#server/fakes/stripe/params.ts'
import { insertPaymentIntent, type FakeStripeContext } from '#server/fakes/stripe/payments.ts'
import { fieldIs, insertObject, listObjects, newId, oldestObjects, pathIs, recordEvent, saveObject, unixSeconds, type ListPage, type StripeObject, type Writer } from '#server/fakes/stripe/store.ts'

/**
 * The fake Stripe's InvoicePayments (decision 0046): since API version 2025-03-31.basil an
 * Invoice no longer names its PaymentIntent; `GET /v1/invoice_payments?invoice=in_…` does. As at
 * Stripe, an invoice charged automatically has one default InvoicePayment (`is_default: true`)
 * whose PaymentIntent every attempt confirms again: the first charge, and each retry through
 * `invoices.pay`. Stripe makes it when the invoice is finalized; the fake at the invoice's first
 * attempt to charge a card, so an invoice never attempted (nothing due, `default_incomplete`)
 * has none. Its `status` is `open` until the PaymentIntent succeeds, then `paid`
 * (`invoice_payment.paid`); the fake never cancels one.
 *
 * Every change here runs in the transaction of the invoice's change, with the invoice locked
 * (or just made), so two attempts on one invoice never make two default payments.
 */

type InvoicePayment = StripeObject & {
  object: 'invoice_payment'
  invoice: string
  amount_paid: number | null
  amount_requested: number
  currency: string
  is_default: boolean
  status: 'open' | 'paid' | 'canceled'
  payment: { type: 'payment_intent'; payment_intent: string }
  status_transitions: { canceled_at: number | null; paid_at: number | null }
}

/** The PaymentIntent's description, as Stripe words it for a subscription's invoice. */
const DESCRIPTIONS: Record<string, string> = { subscription_create: 'Subscription creation', subscription_cycle: 'Subscription update' }

/** The invoice's default InvoicePayment, if it has one yet. */
async function findDefaultInvoicePayment(db: Pick<Database, 'select'>, invoiceId: string): Promise<InvoicePayment | undefined> {
  const [payment] = await oldestObjects(db, 'invoice_payment', and(fieldIs('invoice', invoiceId), fieldIs('is_default', 'true'))!, 1)
  return payment as InvoicePayment | undefined
}

/**
 * The invoice's default InvoicePayment (`open`), made the first time with its PaymentIntent for
 * the amount remaining (`payment_intent.created`; `description` "Subscription creation" or
 * "Subscription update" and empty `metadata`, as before InvoicePayments). The caller holds the
 * invoice (locked, or made in its transaction).
 */
export async function defaultInvoicePayment(tx: Writer, context: FakeStripeContext, invoice: StripeObject): Promise<InvoicePayment> {
  const existing = await findDefaultInvoicePayment(tx, invoice.id)
  if (existing) return existing
  const amount = invoice.amount_remaining as number
  const paymentIntent = await insertPaymentIntent(tx, context, {
    amount,
    currency: invoice.currency as string,
    customer: invoice.customer as string,
    description: DESCRIPTIONS[invoice.billing_reason as string] ?? null,
    metadata: {},
    types: ['card'],
  })
  const payment: InvoicePayment = {
    id: newId('inpay'),
    object: 'invoice_payment',
    amount_paid: null,
    amount_requested: amount,
    created: unixSeconds(context.now),
    currency: invoice.currency as string,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: paymentIntent.id },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  }
  return insertObject(tx, payment, context.now)
}

/** Its PaymentIntent succeeded: `paid`, with `amount_paid` and `paid_at` (`invoice_payment.paid`). */
export async function markInvoicePaymentPaid(tx: Writer, context: FakeStripeContext, payment: InvoicePayment): Promise<InvoicePayment> {
  payment.status = 'paid'
  payment.amount_paid = payment.amount_requested
  payment.status_transitions.paid_at = unixSeconds(context.now)
  await saveObject(tx, payment)
  await recordEvent(tx, 'invoice_payment.paid', payment, context)
  return payment
}

/**
 * `GET /v1/invoice_payments`: newest first, narrowed by `invoice`, `status` and
 * `payment[type]`/`payment[payment_intent]` (`created`, `ending_before` and
 * `payment[payment_record]` are refused as unknown, as on the fake's other lists).
 */
export async function listInvoicePayments(db: Pick<Database, 'select'>, params: FormParams): Promise<ListPage<InvoicePayment>> {
  onlyKnown(params, ['invoice', 'status', 'payment', 'limit', 'starting_after'])
  const invoice = text(params, 'invoice') || undefined
  const status = oneOf(params, 'status', ['open', 'paid', 'canceled'])
  const payment = object(params, 'payment')
  onlyKnownIn(payment, 'payment', ['type', 'payment_intent'])
  const type = payment ? oneOf(payment, 'type', ['payment_intent', 'payment_record'], 'payment[type]') : undefined
  if (payment && !type) throw invalidRequest('Missing required param: payment[type].', { code: 'parameter_missing', param: 'payment[type]' })
  const paymentIntent = text(payment, 'payment_intent', 'payment[payment_intent]') || undefined
  const where = and(
    invoice ? fieldIs('invoice', invoice) : undefined,
    status ? fieldIs('status', status) : undefined,
    type ? pathIs(['payment', 'type'], type) : undefined,
    paymentIntent ? pathIs(['payment', 'payment_intent'], paymentIntent) : undefined,
  )
  return listObjects<InvoicePayment>(db, { type: 'invoice_payment', url: '/v1/invoice_payments', ...listParams(params), where })
}

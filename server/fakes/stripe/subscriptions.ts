import { and, sql } from 'drizzle-orm'
import { fakeStripeObjects } from '#server/db/schema.ts'
import { FakeStripeError, invalidRequest, missingParam, type StripeErrorBody } from '#server/fakes/stripe/errors.ts'
import type { FormParams } from '#server/fakes/stripe/form.ts'
import { defaultInvoicePayment, markInvoicePaymentPaid } from '#server/fakes/stripe/invoice-payments.ts'
import { boolean, integer, list, metadata, oneOf, onlyKnown, onlyKnownIn, requiredText, text } from '#server/fakes/stripe/params.ts'
import { chargeStoredCard, inTransaction, storedPaymentMethod, type FakeStripeContext } from '#server/fakes/stripe/payments.ts'
import { eventsAbout, findObject, getObject, insertObject, lockObject, newId, oldestObjects, recordEvent, saveObject, unixSeconds, type StripeObject } from '#server/fakes/stripe/store.ts'
import type { Database } from '#server/db/client.ts'

/**
 * The fake Stripe's Subscriptions (decision 0046): recurring Prices, trials, an Invoice per
 * period paid off session with the default PaymentMethod (one of Stripe's test cards), and the
 * periodic tick that ends trials and periods. What the product needs of them, in Stripe's shapes:
 *
 * - created with a trial (`trial_period_days`, `trial_end`, or the Price's `trial_from_plan`):
 *   `trialing`, a paid invoice of R$ 0; `customer.subscription.trial_will_end` three days before
 *   the trial ends;
 * - created without one: the first invoice is charged at once: `active`, or `incomplete` when
 *   the card is declined or there is none (`payment_behavior=error_if_incomplete`: a 402 and no
 *   subscription; `default_incomplete`: no attempt), `incomplete_expired` after 23 hours unpaid;
 * - at the end of a trial or period: a new invoice, charged: `active`, or `past_due` when it
 *   fails; `cancel_at_period_end` ends it then instead (`customer.subscription.deleted`);
 * - `DELETE /v1/subscriptions/:id` cancels at once;
 * - `POST /v1/invoices/:id/pay` charges an open invoice again (after a card is changed with
 *   `default_payment_method`, or with `payment_method`): paid, `past_due` is `active` again.
 * Every charge of an invoice goes through the PaymentIntent of its default InvoicePayment
 * (fakes/stripe/invoice-payments.ts).
 *
 * - `POST /v1/subscriptions/:id` with `items[n][id]` and a new `price` (and
 *   `proration_behavior=none`): the next invoice charges the new price.
 * Left out: proration, quantities changed mid-period, several intervals in one subscription,
 * Stripe's smart retries of failed invoices, coupons, taxes, pausing, test clocks.
 */

const INCOMPLETE_HOURS = 23
const TRIAL_WILL_END_SECONDS = 3 * 86_400
const MAX_TRIAL_DAYS = 730
const SUBSCRIPTION_PARAMS = [
  'customer',
  'items',
  'default_payment_method',
  'trial_period_days',
  'trial_end',
  'trial_from_plan',
  'payment_behavior',
  'metadata',
  'description',
  'cancel_at_period_end',
  'collection_method',
  'off_session',
  'currency',
]

type Interval = 'day' | 'week' | 'month' | 'year'

/** The end of the n-th period after `anchor` (seconds): months keep the anchor's day, clamped to the month's end. */
export function periodBoundary(anchor: number, interval: Interval, count: number, n: number): number {
  if (interval === 'day' || interval === 'week') return anchor + n * count * (interval === 'day' ? 86_400 : 7 * 86_400)
  const start = new Date(anchor * 1000)
  const months = n * count * (interval === 'year' ? 12 : 1)
  const target = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay))
  return Math.floor(target.getTime() / 1000)
}

/** The first period boundary after `after`. */
function nextBoundary(anchor: number, interval: Interval, count: number, after: number): number {
  for (let n = 1; ; n++) {
    const boundary = periodBoundary(anchor, interval, count, n)
    if (boundary > after) return boundary
  }
}

type Item = StripeObject & { price: StripeObject; quantity: number; current_period_start: number; current_period_end: number }

const itemsOf = (subscription: StripeObject) => (subscription.items as { data: Item[] }).data
const recurringOf = (subscription: StripeObject) => itemsOf(subscription)[0]!.price.recurring as { interval: Interval; interval_count: number }
const amountOf = (subscription: StripeObject) => itemsOf(subscription).reduce((sum, item) => sum + (item.price.unit_amount as number) * item.quantity, 0)

function setPeriod(subscription: StripeObject, start: number, end: number): void {
  for (const item of itemsOf(subscription)) {
    item.current_period_start = start
    item.current_period_end = end
  }
}

/** The item's `plan`: Stripe's older name of its price, still in its answers. */
function legacyPlan(price: StripeObject) {
  const recurring = price.recurring as { interval: string; interval_count: number }
  return { id: price.id, object: 'plan', active: price.active, amount: price.unit_amount, currency: price.currency, interval: recurring.interval, interval_count: recurring.interval_count, product: price.product }
}

const periodEnd = (subscription: StripeObject) => itemsOf(subscription)[0]!.current_period_end

/**
 * An invoice for the subscription's period, finalized and, when it is due anything, charged to
 * the default PaymentMethod. `paid`: whether it ended paid.
 */
async function invoice(
  tx: Database,
  context: FakeStripeContext,
  subscription: StripeObject,
  { reason, start, end, amount, attempt }: { reason: 'subscription_create' | 'subscription_cycle'; start: number; end: number; amount: number; attempt: boolean },
): Promise<{ invoice: StripeObject; paid: boolean; declined?: FakeStripeError }> {
  const now = unixSeconds(context.now)
  const invoiceObject: StripeObject = {
    id: newId('in'),
    object: 'invoice',
    account_country: 'BR',
    amount_due: amount,
    amount_paid: 0,
    amount_remaining: amount,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    billing_reason: reason,
    collection_method: 'charge_automatically',
    created: now,
    currency: subscription.currency,
    customer: subscription.customer,
    default_payment_method: null,
    description: null,
    hosted_invoice_url: null,
    lines: {
      object: 'list',
      has_more: false,
      url: '/v1/invoices/lines',
      data: itemsOf(subscription).map((item) => ({
        id: newId('il'),
        object: 'line_item',
        amount: (item.price.unit_amount as number) * item.quantity,
        currency: subscription.currency,
        description: `${item.quantity} × (at ${item.price.unit_amount} / ${(item.price.recurring as { interval: string }).interval})`,
        period: { start, end },
        pricing: { type: 'price_details', price_details: { price: item.price.id, product: item.price.product }, unit_amount_decimal: String(item.price.unit_amount) },
        quantity: item.quantity,
      })),
    },
    livemode: false,
    metadata: {},
    number: null,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: subscription.metadata, subscription: subscription.id } },
    period_end: end,
    period_start: start,
    status: 'open',
    status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: amount,
    total: amount,
  }
  await insertObject(tx, invoiceObject, context.now)
  await recordEvent(tx, 'invoice.created', invoiceObject, context)
  await recordEvent(tx, 'invoice.finalized', invoiceObject, context)
  subscription.latest_invoice = invoiceObject.id

  if (amount === 0) {
    await markInvoicePaid(tx, context, invoiceObject)
    return { invoice: invoiceObject, paid: true }
  }
  if (!attempt) return { invoice: invoiceObject, paid: false }

  const paymentMethod = subscription.default_payment_method ? await findObject(tx, subscription.default_payment_method as string, 'payment_method') : undefined
  const result = await attemptInvoicePayment(tx, context, invoiceObject, paymentMethod)
  return { invoice: invoiceObject, paid: result.paid, declined: result.cardError && new FakeStripeError(402, result.cardError) }
}

/** The invoice paid in full: `paid`, `invoice.paid` and `invoice.payment_succeeded`. */
async function markInvoicePaid(tx: Database, context: FakeStripeContext, invoiceObject: StripeObject): Promise<void> {
  invoiceObject.status = 'paid'
  invoiceObject.amount_paid = invoiceObject.amount_due
  invoiceObject.amount_remaining = 0
  ;(invoiceObject.status_transitions as Record<string, unknown>).paid_at = unixSeconds(context.now)
  await saveObject(tx, invoiceObject)
  await recordEvent(tx, 'invoice.paid', invoiceObject, context)
  await recordEvent(tx, 'invoice.payment_succeeded', invoiceObject, context)
}

/**
 * One attempt to collect an open invoice (the caller holds it): `attempt_count` goes up, and the
 * card is charged through the PaymentIntent of the invoice's default InvoicePayment (made at the
 * first attempt, confirmed again at each retry as Stripe does). Paid: the InvoicePayment and the
 * invoice are `paid`. Not: `invoice.payment_failed`, with the card's error when it was declined
 * (`notCard` when the PaymentMethod is no test card; no PaymentMethod: neither).
 */
async function attemptInvoicePayment(
  tx: Database,
  context: FakeStripeContext,
  invoiceObject: StripeObject,
  paymentMethod: StripeObject | undefined,
): Promise<{ paid: boolean; cardError?: StripeErrorBody; notCard?: true }> {
  invoiceObject.attempted = true
  invoiceObject.attempt_count = (invoiceObject.attempt_count as number) + 1
  let failure: { cardError?: StripeErrorBody; notCard?: true } = {}
  if (paymentMethod) {
    const payment = await defaultInvoicePayment(tx, context, invoiceObject)
    const result = await chargeStoredCard(tx, context, payment.payment.payment_intent, paymentMethod)
    if (result && !result.cardError) {
      await markInvoicePaymentPaid(tx, context, payment)
      await markInvoicePaid(tx, context, invoiceObject)
      return { paid: true }
    }
    failure = result ? { cardError: result.cardError } : { notCard: true }
  }
  await saveObject(tx, invoiceObject)
  await recordEvent(tx, 'invoice.payment_failed', invoiceObject, context)
  return { paid: false, ...failure }
}

type PaymentBehavior = 'allow_incomplete' | 'default_incomplete' | 'error_if_incomplete' | 'pending_if_incomplete'

/** What a new subscription is made of, read from `subscriptions.create` or a subscription-mode Checkout Session. */
type NewSubscription = {
  customerId: string
  /** The prices (recurring; checked here) and quantities; `param` names each in errors. */
  items: { price: StripeObject; quantity: number; param: string }[]
  trialDays?: number
  /** A trial ending at this time (seconds), instead of `trialDays`. */
  trialEnd?: number
  trialFromPlan?: boolean
  /** A card PaymentMethod already attached to the customer. */
  defaultPaymentMethod?: StripeObject
  metadata: Record<string, string>
  description: string | null
  cancelAtPeriodEnd: boolean
  behavior: PaymentBehavior
}

export async function createSubscription(context: FakeStripeContext, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, SUBSCRIPTION_PARAMS)
  const customerId = requiredText(params, 'customer')
  const behavior = oneOf(params, 'payment_behavior', ['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete']) ?? 'allow_incomplete'
  if ((oneOf(params, 'collection_method', ['charge_automatically', 'send_invoice']) ?? 'charge_automatically') !== 'charge_automatically') {
    throw invalidRequest('The fake Stripe supports collection_method=charge_automatically only.', { param: 'collection_method' })
  }
  const items = list(params, 'items')
  if (!items || items.length === 0) throw missingParam('items')
  if (items.length > 20) throw invalidRequest('A subscription may have at most 20 items.', { param: 'items' })
  const trialDays = integer(params, 'trial_period_days')
  if (trialDays !== undefined && (trialDays < 0 || trialDays > MAX_TRIAL_DAYS)) throw invalidRequest(`trial_period_days must be between 0 and ${MAX_TRIAL_DAYS}.`, { param: 'trial_period_days' })
  const trialEndParam = text(params, 'trial_end')
  if (trialDays !== undefined && trialEndParam !== undefined) throw invalidRequest('You may only specify one of these parameters: trial_end, trial_period_days.', { param: 'trial_end' })
  const now = unixSeconds(context.now)
  let trialEnd: number | undefined
  if (trialEndParam !== undefined && trialEndParam !== 'now') {
    trialEnd = integer(params, 'trial_end')!
    if (trialEnd <= now || trialEnd > now + MAX_TRIAL_DAYS * 86_400) throw invalidRequest('Invalid timestamp: must be in the future and at most two years ahead.', { param: 'trial_end' })
  }

  return inTransaction(context.db, async (tx) => {
    await getObject(tx, customerId, 'customer', 'customer')
    const prices: NewSubscription['items'] = []
    for (const [index, item] of items.entries()) {
      const path = `items[${index}]`
      if (typeof item !== 'object' || Array.isArray(item)) throw invalidRequest('Invalid object', { param: path })
      onlyKnownIn(item, path, ['price', 'quantity', 'metadata'])
      const price = await getObject(tx, requiredText(item, 'price', `${path}[price]`), 'price', `${path}[price]`)
      if (price.type !== 'recurring') throw invalidRequest(ONE_TIME_PRICE, { param: `${path}[price]` })
      if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', { param: `${path}[price]` })
      const quantity = integer(item, 'quantity', `${path}[quantity]`) ?? 1
      if (quantity < 1) throw invalidRequest('Quantity must be at least 1.', { param: `${path}[quantity]` })
      prices.push({ price, quantity, param: `${path}[price]` })
    }
    const defaultPaymentMethod = text(params, 'default_payment_method')
    const paymentMethod = defaultPaymentMethod ? await storedPaymentMethod(tx, defaultPaymentMethod, 'default_payment_method', context.now) : undefined
    if (paymentMethod) {
      paymentMethod.customer = customerId
      await saveObject(tx, paymentMethod)
    }
    return insertSubscription(tx, context, {
      customerId,
      items: prices,
      trialDays,
      trialEnd,
      trialFromPlan: boolean(params, 'trial_from_plan'),
      defaultPaymentMethod: paymentMethod,
      metadata: metadata(params),
      description: text(params, 'description') || null,
      cancelAtPeriodEnd: boolean(params, 'cancel_at_period_end') ?? false,
      behavior,
    })
  })
}

const ONE_TIME_PRICE = 'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.'

/** Refuses prices a subscription cannot take together: one-time ones, several currencies or intervals. */
export function checkSubscriptionPrices(prices: { price: StripeObject; param: string }[]): void {
  const first = prices[0]!.price
  for (const { price, param } of prices) {
    if (price.type !== 'recurring') throw invalidRequest(ONE_TIME_PRICE, { param })
    if (price.currency !== first.currency) throw invalidRequest('All prices on a subscription must have the same currency.', { param })
    const a = price.recurring as { interval: string; interval_count: number }
    const b = first.recurring as { interval: string; interval_count: number }
    if (a.interval !== b.interval || a.interval_count !== b.interval_count) {
      throw invalidRequest('All prices on a subscription must have the same `recurring.interval` and `recurring.interval_count`.', { param })
    }
  }
}

/**
 * Writes a new subscription and its first invoice (charged at once unless there is a trial or
 * nothing is due) with their events, in the caller's transaction: `subscriptions.create` and a
 * completed subscription-mode Checkout Session both come here. With `error_if_incomplete` an
 * unpaid first invoice throws (the card's 402), so the caller's transaction keeps nothing.
 */
export async function insertSubscription(tx: Database, context: FakeStripeContext, fields: NewSubscription): Promise<StripeObject> {
  const now = unixSeconds(context.now)
  checkSubscriptionPrices(fields.items)
  const subscriptionId = newId('sub')
  const subscriptionItems: Item[] = fields.items.map(({ price, quantity }) => ({
    id: newId('si', 14),
    object: 'subscription_item',
    billing_thresholds: null,
    created: now,
    current_period_end: now,
    current_period_start: now,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: legacyPlan(price),
    price,
    quantity,
    subscription: subscriptionId,
    tax_rates: [],
  }))
  const first = subscriptionItems[0]!.price
  let trialEnd = fields.trialEnd
  const planTrial = fields.trialFromPlan ? ((first.recurring as { trial_period_days: number | null }).trial_period_days ?? undefined) : undefined
  const days = fields.trialDays ?? planTrial
  if (trialEnd === undefined && days !== undefined && days > 0) trialEnd = now + days * 86_400

  const paymentMethod = fields.defaultPaymentMethod
  const { interval, interval_count: count } = first.recurring as { interval: Interval; interval_count: number }
  const subscription: StripeObject = {
    id: subscriptionId,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: trialEnd ?? now,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: fields.cancelAtPeriodEnd,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: now,
    currency: first.currency,
    customer: fields.customerId,
    customer_account: null,
    days_until_due: null,
    default_payment_method: paymentMethod?.id ?? null,
    default_source: null,
    description: fields.description,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: { object: 'list', data: subscriptionItems, has_more: false, url: `/v1/subscription_items?subscription=${subscriptionId}` },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: 'incomplete',
    test_clock: null,
    transfer_data: null,
    trial_end: trialEnd ?? null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: trialEnd ? now : null,
  }
  setPeriod(subscription, now, trialEnd ?? periodBoundary(now, interval, count, 1))
  await insertObject(tx, subscription, context.now)

  const charged = await invoice(tx, context, subscription, {
    reason: 'subscription_create',
    start: now,
    end: periodEnd(subscription),
    amount: trialEnd ? 0 : amountOf(subscription),
    attempt: fields.behavior !== 'default_incomplete',
  })
  subscription.status = trialEnd ? 'trialing' : charged.paid ? 'active' : 'incomplete'
  if (subscription.status === 'incomplete' && fields.behavior === 'error_if_incomplete') {
    // Nothing is kept: the whole transaction rolls back.
    throw charged.declined ?? invalidRequest('This customer has no attached payment source or default payment method.', { code: 'resource_missing', param: 'default_payment_method' })
  }
  await saveObject(tx, subscription)
  await recordEvent(tx, 'customer.subscription.created', subscription, context)
  return subscription
}

export async function updateSubscription(context: FakeStripeContext, id: string, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, ['cancel_at_period_end', 'metadata', 'default_payment_method', 'description', 'trial_end', 'items', 'proration_behavior'])
  const items = list(params, 'items')
  const proration = oneOf(params, 'proration_behavior', ['create_prorations', 'none', 'always_invoice'])
  if (items && (proration ?? 'create_prorations') !== 'none') {
    throw invalidRequest('The fake Stripe changes an item only with proration_behavior=none (the new price from the next period).', { param: 'proration_behavior' })
  }
  return inTransaction(context.db, async (tx) => {
    const subscription = await lockObject(tx, id, 'subscription')
    if (['canceled', 'incomplete_expired'].includes(subscription.status as string)) throw invalidRequest(`A canceled subscription can only update its cancellation_details and metadata.`, { param: 'id' })
    const previous: Record<string, unknown> = {}
    if (items) {
      const before = structuredClone(subscription.items)
      if (await changeItems(tx, subscription, items)) previous.items = before
    }
    const cancelAtPeriodEnd = boolean(params, 'cancel_at_period_end')
    if (cancelAtPeriodEnd !== undefined && cancelAtPeriodEnd !== subscription.cancel_at_period_end) {
      previous.cancel_at_period_end = subscription.cancel_at_period_end
      subscription.cancel_at_period_end = cancelAtPeriodEnd
      subscription.cancel_at = cancelAtPeriodEnd ? periodEnd(subscription) : null
    }
    const paymentMethodId = text(params, 'default_payment_method')
    if (paymentMethodId) {
      const paymentMethod = await storedPaymentMethod(tx, paymentMethodId, 'default_payment_method', context.now)
      paymentMethod.customer = subscription.customer
      await saveObject(tx, paymentMethod)
      previous.default_payment_method = subscription.default_payment_method
      subscription.default_payment_method = paymentMethod.id
    }
    if (params.metadata !== undefined) {
      previous.metadata = subscription.metadata
      subscription.metadata = metadata(params, subscription.metadata as Record<string, string>)
    }
    const description = text(params, 'description')
    if (description !== undefined) {
      previous.description = subscription.description
      subscription.description = description || null
    }
    await saveObject(tx, subscription)
    // Ending a trial now: the tick's work, done at once.
    if (text(params, 'trial_end') === 'now' && subscription.status === 'trialing') {
      setPeriod(subscription, itemsOf(subscription)[0]!.current_period_start, unixSeconds(context.now))
      await saveObject(tx, subscription)
      return advance(tx, context, subscription)
    }
    if (Object.keys(previous).length > 0) await recordEvent(tx, 'customer.subscription.updated', subscription, context, previous)
    return subscription
  })
}

/**
 * `items[n][id]` with a new `price` (or `quantity`): the item's price changes, charged from the
 * next invoice (no proration). Adding or deleting items is left out. Whether anything changed.
 */
async function changeItems(tx: Database, subscription: StripeObject, items: unknown[]): Promise<boolean> {
  const current = itemsOf(subscription)
  let changed = false
  for (const [index, item] of items.entries()) {
    const path = `items[${index}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalidRequest('Invalid object', { param: path })
    const fields = item as FormParams
    onlyKnownIn(fields, path, ['id', 'price', 'quantity'])
    const itemId = requiredText(fields, 'id', `${path}[id]`)
    const target = current.find((candidate) => candidate.id === itemId)
    if (!target) throw invalidRequest(`No such subscription item: '${itemId}'`, { code: 'resource_missing', param: `${path}[id]` })
    const priceId = text(fields, 'price', `${path}[price]`)
    if (priceId && priceId !== target.price.id) {
      const price = await getObject(tx, priceId, 'price', `${path}[price]`)
      if (!price.active) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', { param: `${path}[price]` })
      checkSubscriptionPrices([{ price: current[0]!.price, param: `${path}[price]` }, { price, param: `${path}[price]` }])
      target.price = price
      target.plan = legacyPlan(price)
      changed = true
    }
    const quantity = integer(fields, 'quantity', `${path}[quantity]`)
    if (quantity !== undefined && quantity !== target.quantity) {
      if (quantity < 1) throw invalidRequest('Quantity must be at least 1.', { param: `${path}[quantity]` })
      target.quantity = quantity
      changed = true
    }
  }
  return changed
}

async function cancelLocked(tx: Database, context: FakeStripeContext, subscription: StripeObject, reason: string): Promise<StripeObject> {
  const now = unixSeconds(context.now)
  subscription.status = 'canceled'
  subscription.canceled_at = now
  subscription.ended_at = now
  subscription.cancellation_details = { comment: null, feedback: null, reason }
  await saveObject(tx, subscription)
  await recordEvent(tx, 'customer.subscription.deleted', subscription, context)
  return subscription
}

export async function cancelSubscription(context: FakeStripeContext, id: string, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, ['invoice_now', 'prorate', 'cancellation_details'])
  return inTransaction(context.db, async (tx) => {
    const subscription = await lockObject(tx, id, 'subscription')
    if (['canceled', 'incomplete_expired'].includes(subscription.status as string)) {
      throw invalidRequest(`No such subscription: '${id}'`, { code: 'resource_missing', param: 'id' })
    }
    return cancelLocked(tx, context, subscription, 'cancellation_requested')
  })
}

/** The subscription an invoice is for (every invoice of the fake has one). */
const subscriptionOf = (invoiceObject: StripeObject) => (invoiceObject.parent as { subscription_details: { subscription: string } }).subscription_details.subscription

/**
 * `POST /v1/invoices/:id/pay`: one more attempt to collect an open invoice, as Stripe makes out
 * of its retry schedule, with `payment_method` (a test one, or one of the invoice's customer's)
 * or else the subscription's `default_payment_method`. The card is charged through the invoice's
 * default InvoicePayment (its PaymentIntent confirmed again). Paid: the invoice is `paid`
 * (`invoice_payment.paid`, `invoice.paid`, `invoice.payment_succeeded`), and a `past_due` or
 * `incomplete` subscription whose latest invoice it is becomes `active`
 * (`customer.subscription.updated`). Declined: the attempt is kept (`attempt_count`,
 * `invoice.payment_failed`) and the answer is the card's 402. Refused with nothing kept: a paid
 * invoice ("Invoice is already paid"), one whose subscription expired incomplete (Stripe voids
 * it), no PaymentMethod, or one that is no test card. Locks the subscription, then the invoice,
 * in the order the tick takes them.
 */
export async function payInvoice(context: FakeStripeContext, id: string, params: FormParams): Promise<{ invoice: StripeObject; cardError?: StripeErrorBody }> {
  onlyKnown(params, ['payment_method', 'off_session'])
  const paymentMethodId = text(params, 'payment_method') || undefined
  boolean(params, 'off_session')
  return inTransaction(context.db, async (tx) => {
    const subscription = await lockObject(tx, subscriptionOf(await getObject(tx, id, 'invoice')), 'subscription')
    const invoiceObject = await lockObject(tx, id, 'invoice')
    if (invoiceObject.status === 'paid') throw invalidRequest('Invoice is already paid')
    if (invoiceObject.status !== 'open') throw invalidRequest(`You can only pay an open invoice; this one is ${invoiceObject.status}.`)
    const expired = subscription.status === 'incomplete' && (subscription.created as number) <= unixSeconds(context.now) - INCOMPLETE_HOURS * 3600
    if (subscription.status === 'incomplete_expired' || expired) {
      throw invalidRequest(`This invoice can no longer be paid: its subscription ${subscription.id} expired incomplete (Stripe voids the invoice then).`)
    }
    let paymentMethod: StripeObject | undefined
    if (paymentMethodId) {
      paymentMethod = await storedPaymentMethod(tx, paymentMethodId, 'payment_method', context.now)
      if (paymentMethod.id !== paymentMethodId) {
        // A test PaymentMethod (pm_card_visa) made anew for the invoice's customer.
        paymentMethod.customer = invoiceObject.customer
        await saveObject(tx, paymentMethod)
      } else if (paymentMethod.customer !== invoiceObject.customer) {
        throw invalidRequest(`The PaymentMethod ${paymentMethodId} does not belong to the invoice's customer ${invoiceObject.customer as string}.`, { param: 'payment_method' })
      }
    } else if (subscription.default_payment_method) {
      paymentMethod = await findObject(tx, subscription.default_payment_method as string, 'payment_method')
    }
    if (!paymentMethod) throw invalidRequest('This customer has no attached payment source or default payment method.', { code: 'resource_missing', param: 'payment_method' })

    const result = await attemptInvoicePayment(tx, context, invoiceObject, paymentMethod)
    // Nothing is kept: the transaction rolls back.
    if (result.notCard) throw invalidRequest('The fake Stripe only takes its test cards.', { code: 'card_declined', param: 'payment_method' })
    const previousStatus = subscription.status as string
    if (result.paid && subscription.latest_invoice === invoiceObject.id && ['past_due', 'incomplete'].includes(previousStatus)) {
      subscription.status = 'active'
      await saveObject(tx, subscription)
      await recordEvent(tx, 'customer.subscription.updated', subscription, context, { status: previousStatus })
    }
    return { invoice: invoiceObject, cardError: result.cardError }
  })
}

/** The end of a trial or period: cancel at period end, or a new period and its invoice. */
async function advance(tx: Database, context: FakeStripeContext, subscription: StripeObject): Promise<StripeObject> {
  const now = unixSeconds(context.now)
  if (subscription.status === 'incomplete') {
    if (subscription.created as number <= now - INCOMPLETE_HOURS * 3600) {
      subscription.status = 'incomplete_expired'
      subscription.ended_at = now
      await saveObject(tx, subscription)
      await recordEvent(tx, 'customer.subscription.updated', subscription, context, { status: 'incomplete' })
    }
    return subscription
  }
  if (subscription.cancel_at_period_end) return cancelLocked(tx, context, subscription, 'cancellation_requested')
  const previousStatus = subscription.status
  const { interval, interval_count: count } = recurringOf(subscription)
  const start = periodEnd(subscription)
  // After a trial the periods count from its end (the billing cycle anchor).
  if (previousStatus === 'trialing') subscription.billing_cycle_anchor = start
  const end = nextBoundary(subscription.billing_cycle_anchor as number, interval, count, start)
  setPeriod(subscription, start, end)
  const previousInvoice = subscription.latest_invoice
  const charged = await invoice(tx, context, subscription, { reason: 'subscription_cycle', start, end, amount: amountOf(subscription), attempt: true })
  subscription.status = charged.paid ? 'active' : 'past_due'
  await saveObject(tx, subscription)
  await recordEvent(tx, 'customer.subscription.updated', subscription, context, subscription.status === previousStatus ? { latest_invoice: previousInvoice } : { status: previousStatus })
  return subscription
}

const isDue = (subscription: StripeObject, now: number) =>
  (['trialing', 'active', 'past_due'].includes(subscription.status as string) && periodEnd(subscription) <= now) ||
  (subscription.status === 'incomplete' && (subscription.created as number) <= now - INCOMPLETE_HOURS * 3600)

/**
 * The periodic work on subscriptions: `trial_will_end` three days ahead (once), then every trial
 * or period that has ended moves on (several periods in a row after a long pause). How many moved.
 */
export async function advanceDueSubscriptions(context: FakeStripeContext, limit = 50): Promise<number> {
  const now = unixSeconds(context.now)
  const trialing = await oldestObjects(
    context.db,
    'subscription',
    and(sql`${fakeStripeObjects.data}->>'status' = 'trialing'`, sql`(${fakeStripeObjects.data}->>'trial_end')::bigint <= ${now + TRIAL_WILL_END_SECONDS}`)!,
    limit,
  )
  for (const subscription of trialing) {
    if ((await eventsAbout(context.db, subscription.id)).some((event) => event.type === 'customer.subscription.trial_will_end')) continue
    await inTransaction(context.db, async (tx) => recordEvent(tx, 'customer.subscription.trial_will_end', await lockObject(tx, subscription.id, 'subscription'), context))
  }

  const due = await oldestObjects(
    context.db,
    'subscription',
    sql`(${fakeStripeObjects.data}->>'status' in ('trialing', 'active', 'past_due') and (${fakeStripeObjects.data}->'items'->'data'->0->>'current_period_end')::bigint <= ${now})
      or (${fakeStripeObjects.data}->>'status' = 'incomplete' and (${fakeStripeObjects.data}->>'created')::bigint <= ${now - INCOMPLETE_HOURS * 3600})`,
    limit,
  )
  for (const { id } of due) {
    await inTransaction(context.db, async (tx) => {
      let subscription = await lockObject(tx, id, 'subscription')
      // A long pause: every period that ended since, one after the other.
      for (let step = 0; step < 100 && isDue(subscription, now); step++) {
        const before = subscription.status
        subscription = await advance(tx, context, subscription)
        if (subscription.status === before && before === 'incomplete') break
      }
    })
  }
  return due.length
}

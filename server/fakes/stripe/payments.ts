import { and, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { fakeStripeObjects } from '#server/db/schema.ts'
import { buildBrCode } from '#server/fakes/stripe/br-code.ts'
import { invalidRequest, missingParam, resourceMissing, unexpectedState, type StripeErrorBody } from '#server/fakes/stripe/errors.ts'
import type { FormParams } from '#server/fakes/stripe/form.ts'
import { boolean, integer, metadata, object, oneOf, onlyKnown, onlyKnownIn, requiredText, text, textList } from '#server/fakes/stripe/params.ts'
import { findObject, getObject, insertObject, lockObject, newId, oldestObjects, recordEvent, saveObject, unixSeconds, type EventContext, type StripeObject, type Writer } from '#server/fakes/stripe/store.ts'

/**
 * The fake Stripe's payments (decision 0046): Customers, PaymentMethods, PaymentIntents with
 * `card` and `pix`, Charges and Refunds, each change in one transaction with its events.
 *
 * - A PIX PaymentIntent confirmed with `payment_method_data[type]=pix` waits in
 *   `requires_action` with `next_action.pix_display_qr_code` (a valid BR Code in `data`,
 *   `expires_at`, the QR as SVG and PNG, and `hosted_instructions_url`: the development page that
 *   pays or fails it). Unpaid at `expires_at`, it goes back to `requires_payment_method` with
 *   `payment_intent.payment_failed`.
 * - A card PaymentIntent is confirmed with one of Stripe's test PaymentMethods (`pm_card_visa`,
 *   `pm_card_chargeDeclined`, …) or through the hosted Checkout page with a test card number;
 *   no other card is accepted, and no card number is stored.
 */

export type FakeStripeContext = EventContext & {
  db: Database
  /** The provider's public URL: the hosted pages and QR images are under `${publicUrl}/fake-stripe/`. */
  publicUrl: string
}

/** The account the fake's PIX codes pay: a random (EVP) key, Innera in São Paulo. */
export const FAKE_PIX_KEY = '5f3b8c2e-7a41-4d9b-9e6f-2c8a1b0d4e73'
const FAKE_PIX_MERCHANT = { name: 'Innera', city: 'Sao Paulo' }
const PIX_DEFAULT_EXPIRY_SECONDS = 86_400
const PIX_MIN_EXPIRY_SECONDS = 10
const PIX_MAX_EXPIRY_SECONDS = 1_209_600
/** Stripe's smallest charge in reais (R$ 0,50) and its largest amount. */
const MIN_AMOUNT_BRL = 50
const MAX_AMOUNT = 99_999_999

type CardOutcome =
  | { kind: 'approve' }
  | { kind: 'review' }
  | { kind: 'decline'; code: string; declineCode: string; message: string }

export type TestCard = {
  number: string
  paymentMethod: string
  brand: 'visa' | 'mastercard'
  /** What a charge to the card gives. */
  outcome: CardOutcome
  /**
   * A declining card whose attaching to a Customer still succeeds (Stripe's 4000 0000 0000 0341):
   * saved for a subscription, its charges fail later. Any other declining card is refused already
   * when it is attached.
   */
  attachesThenDeclines?: true
  label: string
}

/** Stripe's documented test cards the fake knows (card numbers on the hosted page, PaymentMethods through the API). */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', paymentMethod: 'pm_card_visa', brand: 'visa', outcome: { kind: 'approve' }, label: 'Approved' },
  { number: '5555555555554444', paymentMethod: 'pm_card_mastercard', brand: 'mastercard', outcome: { kind: 'approve' }, label: 'Approved (Mastercard)' },
  {
    number: '4000000000000002',
    paymentMethod: 'pm_card_chargeDeclined',
    brand: 'visa',
    outcome: { kind: 'decline', code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
    label: 'Declined (generic_decline)',
  },
  {
    number: '4000000000009995',
    paymentMethod: 'pm_card_chargeDeclinedInsufficientFunds',
    brand: 'visa',
    outcome: { kind: 'decline', code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    label: 'Declined (insufficient_funds)',
  },
  {
    number: '4000000000000069',
    paymentMethod: 'pm_card_chargeDeclinedExpiredCard',
    brand: 'visa',
    outcome: { kind: 'decline', code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' },
    label: 'Declined (expired_card)',
  },
  { number: '4000000000009235', paymentMethod: 'pm_card_riskLevelElevated', brand: 'visa', outcome: { kind: 'review' }, label: 'Approved, placed in review (elevated risk)' },
  {
    number: '4000000000000341',
    paymentMethod: 'pm_card_chargeCustomerFail',
    brand: 'visa',
    outcome: { kind: 'decline', code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
    attachesThenDeclines: true,
    label: 'Attaches to a customer (a subscription with a trial), then every charge is declined',
  },
]

const METHOD_TYPES = ['card', 'pix'] as const
type MethodType = (typeof METHOD_TYPES)[number]
const CANCELLABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing']
const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action']
const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const
const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const

const reais = (cents: number) => `R$${(cents / 100).toFixed(2)}`

/** Runs `work` in one transaction; a FakeStripeError inside rolls it back like any other. */
export function inTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Database))
}

// ---------------------------------------------------------------------------------------------
// Customers

const CUSTOMER_PARAMS = ['email', 'name', 'phone', 'description', 'metadata', 'preferred_locales', 'address']

export async function createCustomer(context: FakeStripeContext, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, CUSTOMER_PARAMS)
  const customer = newCustomer(context, {
    email: text(params, 'email') || null,
    name: text(params, 'name') || null,
    phone: text(params, 'phone') || null,
    description: text(params, 'description') || null,
    metadata: metadata(params),
    preferredLocales: textList(params, 'preferred_locales') ?? [],
  })
  return inTransaction(context.db, (tx) => insertCustomer(tx, context, customer))
}

type NewCustomer = { email: string | null; name: string | null; phone?: string | null; description?: string | null; metadata?: Record<string, string>; preferredLocales?: string[] }

function newCustomer(context: FakeStripeContext, fields: NewCustomer): StripeObject {
  return {
    id: newId('cus', 14),
    object: 'customer',
    address: null,
    balance: 0,
    created: unixSeconds(context.now),
    currency: null,
    default_source: null,
    delinquent: false,
    description: fields.description ?? null,
    discount: null,
    email: fields.email,
    invoice_prefix: newId('x', 8).slice(2).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata ?? {},
    name: fields.name,
    phone: fields.phone ?? null,
    preferred_locales: fields.preferredLocales ?? [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  }
}

async function insertCustomer(tx: Writer, context: FakeStripeContext, customer: StripeObject): Promise<StripeObject> {
  await insertObject(tx, customer, context.now)
  await recordEvent(tx, 'customer.created', customer, context)
  return customer
}

/**
 * The Customer a subscription-mode Checkout Session ends with: the session's own (given the
 * e-mail typed on the page when it had none, `customer.updated`), or a new one from the e-mail
 * and name typed (`customer.created`).
 */
export async function checkoutCustomer(tx: Writer, context: FakeStripeContext, customerId: string | null, payer: { email: string; name: string | null }): Promise<StripeObject> {
  if (!customerId) return insertCustomer(tx, context, newCustomer(context, { email: payer.email, name: payer.name }))
  const customer = await lockObject(tx, customerId, 'customer', 'customer')
  if (!customer.email) {
    customer.email = payer.email
    await saveObject(tx, customer)
    await recordEvent(tx, 'customer.updated', customer, context, { email: null })
  }
  return customer
}

// ---------------------------------------------------------------------------------------------
// Payment methods

function cardPaymentMethod(card: TestCard, now: number, billingName: string | null, billingEmail: string | null = null): StripeObject {
  const year = new Date(now).getUTCFullYear()
  return {
    id: newId('pm'),
    object: 'payment_method',
    billing_details: { address: null, email: billingEmail, name: billingName, phone: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: 12,
      exp_year: year + 3,
      fingerprint: `fake${card.number.slice(-8)}`,
      funding: 'credit',
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
    },
    created: unixSeconds(now),
    customer: null,
    livemode: false,
    metadata: {},
    type: 'card',
  }
}

function pixPaymentMethod(now: number): StripeObject {
  return {
    id: newId('pm'),
    object: 'payment_method',
    billing_details: { address: null, email: null, name: null, phone: null },
    created: unixSeconds(now),
    customer: null,
    livemode: false,
    metadata: {},
    pix: {},
    type: 'pix',
  }
}

/** The card of a stored card PaymentMethod: its test card, from the last four digits kept. */
const testCardOf = (paymentMethod: StripeObject): TestCard | undefined => {
  const last4 = (paymentMethod.card as { last4?: string } | undefined)?.last4
  const fingerprint = (paymentMethod.card as { fingerprint?: string } | undefined)?.fingerprint
  return TEST_CARDS.find((card) => `fake${card.number.slice(-8)}` === fingerprint && card.number.endsWith(last4 ?? '-'))
}

export const testCardByNumber = (number: string) => TEST_CARDS.find((card) => card.number === number.replace(/[\s-]/g, ''))

/**
 * The PaymentMethod a confirmation names: a test one (`pm_card_visa`, made anew as Stripe
 * does), a stored one, or `payment_method_data[type]=pix`.
 */
async function paymentMethodFor(tx: Database, params: FormParams, now: number): Promise<StripeObject | undefined> {
  const data = object(params, 'payment_method_data')
  if (data) {
    onlyKnownIn(data, 'payment_method_data', ['type', 'billing_details', 'metadata'])
    const type = requiredText(data, 'type', 'payment_method_data[type]')
    if (type === 'pix') return insertObject(tx, pixPaymentMethod(now), now)
    if (type === 'card') {
      throw invalidRequest(
        'Sending credit card numbers directly to the Stripe API is generally unsafe. The fake Stripe takes test PaymentMethods (pm_card_visa, …) or its hosted Checkout page.',
        { param: 'payment_method_data[type]' },
      )
    }
    throw invalidRequest(`Invalid payment_method_data[type]: the fake Stripe supports card and pix, not ${type}.`, { param: 'payment_method_data[type]' })
  }
  const id = text(params, 'payment_method')
  if (!id) return undefined
  const card = TEST_CARDS.find((entry) => entry.paymentMethod === id)
  if (card) return insertObject(tx, cardPaymentMethod(card, now, null), now)
  const stored = await findObject(tx, id, 'payment_method')
  if (!stored) throw resourceMissing('PaymentMethod', id, 'payment_method')
  return stored
}

// ---------------------------------------------------------------------------------------------
// Payment intents

const PAYMENT_INTENT_PARAMS = [
  'amount',
  'currency',
  'customer',
  'description',
  'metadata',
  'allowed_payment_method_types',
  'excluded_payment_method_types',
  // The name before API version 2026-10-28 (the SDK's), still taken.
  'payment_method_types',
  'payment_method',
  'payment_method_data',
  'payment_method_options',
  'automatic_payment_methods',
  'confirm',
  'receipt_email',
  'return_url',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'capture_method',
]

function amountOf(params: FormParams, currency: string): number {
  const amount = integer(params, 'amount')
  if (amount === undefined) throw missingParam('amount')
  if (amount < (currency === 'brl' ? MIN_AMOUNT_BRL : 1)) {
    throw invalidRequest(`Amount must be at least ${currency === 'brl' ? reais(MIN_AMOUNT_BRL) : '1'} ${currency}`, { code: 'amount_too_small', param: 'amount' })
  }
  if (amount > MAX_AMOUNT) throw invalidRequest(`Amount must be no more than ${MAX_AMOUNT}`, { code: 'amount_too_large', param: 'amount' })
  return amount
}

type PixOptions = { expires_after_seconds: number | null; expires_at: number | null }

/** `payment_method_options[pix]`: `expires_after_seconds` (10 s-14 days, 1 day by default) or `expires_at`. */
function pixOptions(params: FormParams, now: number, previous?: PixOptions): PixOptions {
  const options = object(params, 'payment_method_options')
  onlyKnownIn(options, 'payment_method_options', ['card', 'pix'])
  const pix = object(options, 'pix', 'payment_method_options[pix]')
  onlyKnownIn(pix, 'payment_method_options[pix]', ['expires_after_seconds', 'expires_at', 'amount_includes_iof'])
  const after = integer(pix, 'expires_after_seconds', 'payment_method_options[pix][expires_after_seconds]')
  const at = integer(pix, 'expires_at', 'payment_method_options[pix][expires_at]')
  if (after !== undefined && at !== undefined) throw invalidRequest('You may only specify one of expires_after_seconds and expires_at.', { param: 'payment_method_options[pix][expires_at]' })
  if (after !== undefined && (after < PIX_MIN_EXPIRY_SECONDS || after > PIX_MAX_EXPIRY_SECONDS)) {
    throw invalidRequest(`expires_after_seconds must be between ${PIX_MIN_EXPIRY_SECONDS} and ${PIX_MAX_EXPIRY_SECONDS}.`, { param: 'payment_method_options[pix][expires_after_seconds]' })
  }
  const nowSeconds = unixSeconds(now)
  if (at !== undefined && (at < nowSeconds + PIX_MIN_EXPIRY_SECONDS || at > nowSeconds + PIX_MAX_EXPIRY_SECONDS)) {
    throw invalidRequest(`expires_at must be between ${PIX_MIN_EXPIRY_SECONDS} and ${PIX_MAX_EXPIRY_SECONDS} seconds in the future.`, { param: 'payment_method_options[pix][expires_at]' })
  }
  if (after === undefined && at === undefined) return previous ?? { expires_after_seconds: null, expires_at: null }
  return { expires_after_seconds: after ?? null, expires_at: at ?? null }
}

type NewPaymentIntent = {
  amount: number
  currency: string
  customer: string | null
  description: string | null
  metadata: Record<string, string>
  types: string[]
  allowed?: string[] | null
  excluded?: string[] | null
  automatic?: boolean
  captureMethod?: string
  receiptEmail?: string | null
  statementDescriptor?: string | null
  statementDescriptorSuffix?: string | null
  pix?: PixOptions
}

/** Writes a new PaymentIntent (`requires_payment_method`) and its `payment_intent.created`. */
export async function insertPaymentIntent(tx: Writer, context: FakeStripeContext, fields: NewPaymentIntent): Promise<StripeObject> {
  const id = newId('pi')
  const { types } = fields
  const paymentIntent: StripeObject = {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: fields.allowed ?? null,
    amount: fields.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: fields.automatic ? { allow_redirects: 'always', enabled: true } : null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: fields.captureMethod ?? 'automatic_async',
    client_secret: `${id}_secret_${newId('x', 25).slice(2)}`,
    confirmation_method: 'automatic',
    created: unixSeconds(context.now),
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: fields.excluded ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      ...(types.includes('card') && { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } }),
      ...(types.includes('pix') && { pix: fields.pix ?? { expires_after_seconds: null, expires_at: null } }),
    },
    payment_method_types: types,
    payment_record: null,
    processing: null,
    receipt_email: fields.receiptEmail ?? null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: fields.statementDescriptor ?? null,
    statement_descriptor_suffix: fields.statementDescriptorSuffix ?? null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  }
  await insertObject(tx, paymentIntent, context.now)
  await recordEvent(tx, 'payment_intent.created', paymentIntent, context)
  return paymentIntent
}

export async function createPaymentIntent(context: FakeStripeContext, params: FormParams): Promise<PaymentIntentResult> {
  onlyKnown(params, PAYMENT_INTENT_PARAMS)
  const currency = requiredText(params, 'currency').toLowerCase()
  if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}`, { code: 'parameter_invalid_string', param: 'currency' })
  const amount = amountOf(params, currency)
  oneOf(params, 'capture_method', ['automatic', 'automatic_async'])

  const automatic = object(params, 'automatic_payment_methods')
  const listed = textList(params, 'allowed_payment_method_types') ?? textList(params, 'payment_method_types')
  if (automatic && listed) throw invalidRequest('You may only specify one of these parameters: automatic_payment_methods, allowed_payment_method_types.', { param: 'automatic_payment_methods' })
  const excluded = textList(params, 'excluded_payment_method_types') ?? []
  const types = (listed ?? (automatic && boolean(automatic, 'enabled', 'automatic_payment_methods[enabled]') ? ['card', 'pix'] : ['card'])).filter((type) => !excluded.includes(type))
  if (types.length === 0) throw invalidRequest('No payment method type is left for this PaymentIntent.', { param: 'allowed_payment_method_types' })
  for (const type of types) {
    if (!(METHOD_TYPES as readonly string[]).includes(type)) {
      throw invalidRequest(`The payment method type "${type}" is invalid. The fake Stripe supports card and pix.`, { code: 'payment_intent_invalid_parameter', param: 'allowed_payment_method_types' })
    }
  }
  if (types.includes('pix') && currency !== 'brl') {
    throw invalidRequest(`The currency provided (${currency}) is invalid for one or more payment method types on this PaymentIntent. The payment method type pix supports brl.`, {
      code: 'payment_intent_invalid_parameter',
      param: 'currency',
    })
  }

  return inTransaction(context.db, async (tx) => {
    const customerId = text(params, 'customer') || null
    if (customerId) await getObject(tx, customerId, 'customer', 'customer')
    const paymentIntent = await insertPaymentIntent(tx, context, {
      amount,
      currency,
      customer: customerId,
      description: text(params, 'description') || null,
      metadata: metadata(params),
      types,
      allowed: listed ?? null,
      excluded: excluded.length > 0 ? excluded : null,
      automatic: Boolean(automatic),
      captureMethod: text(params, 'capture_method') ?? 'automatic_async',
      receiptEmail: text(params, 'receipt_email') || null,
      statementDescriptor: text(params, 'statement_descriptor') || null,
      statementDescriptorSuffix: text(params, 'statement_descriptor_suffix') || null,
      pix: types.includes('pix') ? pixOptions(params, context.now) : undefined,
    })
    if (!boolean(params, 'confirm')) {
      if (text(params, 'payment_method')) {
        const paymentMethod = await paymentMethodFor(tx, params, context.now)
        paymentIntent.payment_method = paymentMethod!.id
        paymentIntent.status = 'requires_confirmation'
        await saveObject(tx, paymentIntent)
      }
      return { paymentIntent }
    }
    return confirmLocked(tx, paymentIntent, params, context)
  })
}

/** A confirmation's answer: the PaymentIntent, and for a declined card Stripe's 402 (sent after the change is committed). */
export type PaymentIntentResult = { paymentIntent: StripeObject; cardError?: StripeErrorBody }

export async function confirmPaymentIntent(context: FakeStripeContext, id: string, params: FormParams): Promise<PaymentIntentResult> {
  onlyKnown(params, ['payment_method', 'payment_method_data', 'payment_method_options', 'receipt_email', 'return_url'])
  return inTransaction(context.db, async (tx) => confirmLocked(tx, await lockObject(tx, id, 'payment_intent'), params, context))
}

async function confirmLocked(tx: Database, paymentIntent: StripeObject, params: FormParams, context: FakeStripeContext): Promise<PaymentIntentResult> {
  if (!CONFIRMABLE.includes(paymentIntent.status as string)) {
    throw unexpectedState(`You cannot confirm this PaymentIntent because it has a status of ${paymentIntent.status}.`)
  }
  const named = await paymentMethodFor(tx, params, context.now)
  const paymentMethod = named ?? (paymentIntent.payment_method ? await findObject(tx, paymentIntent.payment_method as string, 'payment_method') : undefined)
  if (!paymentMethod) {
    throw unexpectedState("You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.")
  }
  const type = paymentMethod.type as MethodType
  if (!(paymentIntent.payment_method_types as string[]).includes(type)) {
    throw invalidRequest(
      `The PaymentMethod provided (${type}) is not allowed for this PaymentIntent. Please attach a PaymentMethod of one of the following types: ${(paymentIntent.payment_method_types as string[]).join(', ')}.`,
      { code: 'payment_intent_invalid_parameter', param: 'payment_method' },
    )
  }
  const receiptEmail = text(params, 'receipt_email')
  if (receiptEmail !== undefined) paymentIntent.receipt_email = receiptEmail || null
  paymentIntent.payment_method = paymentMethod.id
  paymentIntent.last_payment_error = null

  if (type === 'pix') {
    const options = paymentIntent.payment_method_options as { pix?: PixOptions }
    const pix = pixOptions(params, context.now, options.pix)
    options.pix = pix
    const expiresAt = pix.expires_at ?? unixSeconds(context.now) + (pix.expires_after_seconds ?? PIX_DEFAULT_EXPIRY_SECONDS)
    const page = `${context.publicUrl}/fake-stripe/pix/${paymentIntent.id}`
    paymentIntent.status = 'requires_action'
    paymentIntent.next_action = {
      type: 'pix_display_qr_code',
      pix_display_qr_code: {
        data: buildBrCode({
          key: FAKE_PIX_KEY,
          merchantName: FAKE_PIX_MERCHANT.name,
          merchantCity: FAKE_PIX_MERCHANT.city,
          amountCents: paymentIntent.amount as number,
          // "pi_" and 24 letters and digits: the id itself names the transaction.
          txid: paymentIntent.id.slice(3),
          singleUse: true,
        }),
        expires_at: expiresAt,
        hosted_instructions_url: page,
        image_url_png: `${page}/qr.png`,
        image_url_svg: `${page}/qr.svg`,
      },
    }
    await saveObject(tx, paymentIntent)
    await recordEvent(tx, 'payment_intent.requires_action', paymentIntent, context)
    return { paymentIntent }
  }

  const card = testCardOf(paymentMethod)
  if (!card) throw invalidRequest('The fake Stripe only takes its test cards.', { code: 'card_declined', param: 'payment_method' })
  return chargeCard(tx, paymentIntent, paymentMethod, card, context)
}

function newCharge(paymentIntent: StripeObject, paymentMethod: StripeObject, now: number, status: 'succeeded' | 'failed', extra: Record<string, unknown>): StripeObject {
  const methodType = paymentMethod.type as MethodType
  const card = paymentMethod.card as Record<string, unknown> | undefined
  return {
    id: newId('ch'),
    object: 'charge',
    amount: paymentIntent.amount,
    amount_captured: status === 'succeeded' ? paymentIntent.amount : 0,
    amount_refunded: 0,
    balance_transaction: null,
    billing_details: paymentMethod.billing_details,
    captured: status === 'succeeded',
    created: unixSeconds(now),
    currency: paymentIntent.currency,
    customer: paymentIntent.customer,
    description: paymentIntent.description,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: paymentIntent.metadata,
    outcome: null,
    paid: status === 'succeeded',
    payment_intent: paymentIntent.id,
    payment_method: paymentMethod.id,
    payment_method_details:
      methodType === 'card'
        ? { type: 'card', card: { brand: card?.brand, country: card?.country, exp_month: card?.exp_month, exp_year: card?.exp_year, funding: card?.funding, last4: card?.last4, network: card?.brand } }
        : { type: 'pix', pix: { bank_transaction_id: `E${newId('x', 31).slice(2).toUpperCase()}` } },
    receipt_email: paymentIntent.receipt_email,
    receipt_url: null,
    refunded: false,
    review: null,
    status,
    ...extra,
  }
}

async function chargeCard(tx: Database, paymentIntent: StripeObject, paymentMethod: StripeObject, card: TestCard, context: FakeStripeContext): Promise<PaymentIntentResult> {
  const { outcome } = card
  if (outcome.kind === 'decline') {
    const charge = newCharge(paymentIntent, paymentMethod, context.now, 'failed', {
      failure_code: outcome.code,
      failure_message: outcome.message,
      outcome: { network_status: 'declined_by_network', reason: outcome.declineCode, risk_level: 'normal', seller_message: 'The bank did not return any further details with this decline.', type: 'issuer_declined' },
    })
    await insertObject(tx, charge, context.now)
    const error: StripeErrorBody = {
      type: 'card_error',
      code: outcome.code,
      decline_code: outcome.declineCode,
      message: outcome.message,
      charge: charge.id,
      doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replace(/_/g, '-')}`,
      payment_method: paymentMethod,
    }
    paymentIntent.status = 'requires_payment_method'
    paymentIntent.latest_charge = charge.id
    paymentIntent.next_action = null
    paymentIntent.last_payment_error = error
    await saveObject(tx, paymentIntent)
    await recordEvent(tx, 'charge.failed', charge, context)
    await recordEvent(tx, 'payment_intent.payment_failed', paymentIntent, context)
    return { paymentIntent, cardError: { ...error, payment_intent: paymentIntent } }
  }
  const review = outcome.kind === 'review' ? newId('prv') : null
  const charge = newCharge(paymentIntent, paymentMethod, context.now, 'succeeded', {
    outcome:
      outcome.kind === 'review'
        ? { network_status: 'approved_by_network', reason: 'elevated_risk_level', risk_level: 'elevated', seller_message: 'Stripe evaluated this payment as having elevated risk, and placed it in your manual review queue.', type: 'manual_review' }
        : { network_status: 'approved_by_network', reason: null, risk_level: 'normal', seller_message: 'Payment complete.', type: 'authorized' },
    review,
  })
  return succeed(tx, paymentIntent, charge, context, review)
}

async function succeed(tx: Database, paymentIntent: StripeObject, charge: StripeObject, context: FakeStripeContext, review: string | null = null): Promise<PaymentIntentResult> {
  await insertObject(tx, charge, context.now)
  paymentIntent.status = 'succeeded'
  paymentIntent.amount_received = paymentIntent.amount
  paymentIntent.latest_charge = charge.id
  paymentIntent.next_action = null
  paymentIntent.review = review
  await saveObject(tx, paymentIntent)
  await recordEvent(tx, 'charge.succeeded', charge, context)
  if (review) {
    const reviewObject: StripeObject = {
      id: review,
      object: 'review',
      billing_zip: null,
      charge: charge.id,
      closed_reason: null,
      created: unixSeconds(context.now),
      ip_address: null,
      livemode: false,
      open: true,
      opened_reason: 'rule',
      payment_intent: paymentIntent.id,
      reason: 'rule',
    }
    await insertObject(tx, reviewObject, context.now)
    await recordEvent(tx, 'review.opened', reviewObject, context)
  }
  await recordEvent(tx, 'payment_intent.succeeded', paymentIntent, context)
  return { paymentIntent }
}

const pixExpiry = (paymentIntent: StripeObject) =>
  (paymentIntent.next_action as { pix_display_qr_code?: { expires_at?: number } } | null)?.pix_display_qr_code?.expires_at

/** Whether a PIX charge waits for payment past its expiry. */
const pixExpired = (paymentIntent: StripeObject, now: number) =>
  paymentIntent.status === 'requires_action' && (pixExpiry(paymentIntent) ?? Number.POSITIVE_INFINITY) <= unixSeconds(now)

async function expireLocked(tx: Database, paymentIntent: StripeObject, context: FakeStripeContext): Promise<StripeObject> {
  const paymentMethod = paymentIntent.payment_method ? await findObject(tx, paymentIntent.payment_method as string, 'payment_method') : undefined
  paymentIntent.status = 'requires_payment_method'
  paymentIntent.next_action = null
  paymentIntent.last_payment_error = {
    type: 'invalid_request_error',
    code: 'payment_intent_payment_attempt_expired',
    message: 'The payment attempt for this PaymentIntent has expired. Please confirm the PaymentIntent again with a new payment method.',
    ...(paymentMethod && { payment_method: paymentMethod }),
  }
  await saveObject(tx, paymentIntent)
  await recordEvent(tx, 'payment_intent.payment_failed', paymentIntent, context)
  return paymentIntent
}

/** The PaymentIntent as it is now: a PIX charge past its expiry is expired first. */
export async function retrievePaymentIntent(context: FakeStripeContext, id: string): Promise<StripeObject> {
  const paymentIntent = await getObject(context.db, id, 'payment_intent')
  if (!pixExpired(paymentIntent, context.now)) return paymentIntent
  return inTransaction(context.db, async (tx) => {
    const locked = await lockObject(tx, id, 'payment_intent')
    return pixExpired(locked, context.now) ? expireLocked(tx, locked, context) : locked
  })
}

/** Expires the PIX charges past their expiry (the periodic sweep); how many. */
export async function expireDuePixCharges(context: FakeStripeContext, limit = 100): Promise<number> {
  const due = await oldestObjects(
    context.db,
    'payment_intent',
    and(
      sql`${fakeStripeObjects.data}->>'status' = 'requires_action'`,
      sql`(${fakeStripeObjects.data}->'next_action'->'pix_display_qr_code'->>'expires_at')::bigint <= ${unixSeconds(context.now)}`,
    )!,
    limit,
  )
  for (const paymentIntent of due) await retrievePaymentIntent(context, paymentIntent.id)
  return due.length
}

export async function updatePaymentIntent(context: FakeStripeContext, id: string, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, ['description', 'metadata', 'receipt_email'])
  return inTransaction(context.db, async (tx) => {
    const paymentIntent = await lockObject(tx, id, 'payment_intent')
    const description = text(params, 'description')
    if (description !== undefined) paymentIntent.description = description || null
    const receiptEmail = text(params, 'receipt_email')
    if (receiptEmail !== undefined) paymentIntent.receipt_email = receiptEmail || null
    paymentIntent.metadata = metadata(params, paymentIntent.metadata as Record<string, string>)
    return saveObject(tx, paymentIntent)
  })
}

export async function cancelPaymentIntent(context: FakeStripeContext, id: string, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, ['cancellation_reason'])
  const reason = oneOf(params, 'cancellation_reason', CANCELLATION_REASONS)
  return inTransaction(context.db, async (tx) => {
    const paymentIntent = await lockObject(tx, id, 'payment_intent')
    if (!CANCELLABLE.includes(paymentIntent.status as string)) {
      throw unexpectedState(
        `You cannot cancel this PaymentIntent because it has a status of ${paymentIntent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELLABLE.join(', ')}.`,
      )
    }
    paymentIntent.status = 'canceled'
    paymentIntent.canceled_at = unixSeconds(context.now)
    paymentIntent.cancellation_reason = reason ?? null
    paymentIntent.next_action = null
    await saveObject(tx, paymentIntent)
    await recordEvent(tx, 'payment_intent.canceled', paymentIntent, context)
    return paymentIntent
  })
}

/**
 * The development page's answer to a PIX charge: paid (`succeed`) or refused by the payer's bank
 * (`fail`: back to `requires_payment_method`, `payment_intent.payment_failed`).
 */
export async function settlePixCharge(context: FakeStripeContext, id: string, outcome: 'succeed' | 'fail'): Promise<StripeObject> {
  return inTransaction(context.db, async (tx) => {
    const paymentIntent = await lockObject(tx, id, 'payment_intent')
    if (pixExpired(paymentIntent, context.now)) return expireLocked(tx, paymentIntent, context)
    const paymentMethod = paymentIntent.payment_method ? await findObject(tx, paymentIntent.payment_method as string, 'payment_method') : undefined
    if (paymentIntent.status !== 'requires_action' || paymentMethod?.type !== 'pix') {
      throw unexpectedState(`This PaymentIntent has no PIX charge waiting for payment (its status is ${paymentIntent.status}).`)
    }
    if (outcome === 'succeed') return (await succeed(tx, paymentIntent, newCharge(paymentIntent, paymentMethod, context.now, 'succeeded', {}), context)).paymentIntent
    paymentIntent.status = 'requires_payment_method'
    paymentIntent.next_action = null
    paymentIntent.last_payment_error = {
      type: 'invalid_request_error',
      code: 'payment_intent_payment_attempt_failed',
      message: "The payer's bank refused the PIX payment.",
      payment_method: paymentMethod,
    }
    await saveObject(tx, paymentIntent)
    await recordEvent(tx, 'payment_intent.payment_failed', paymentIntent, context)
    return paymentIntent
  })
}

/** The hosted Checkout page's card payment: the test card's outcome for the session's PaymentIntent. */
export async function payWithTestCard(
  tx: Database,
  context: FakeStripeContext,
  paymentIntentId: string,
  card: TestCard,
  billingName: string | null,
): Promise<PaymentIntentResult> {
  const paymentIntent = await lockObject(tx, paymentIntentId, 'payment_intent')
  if (!CONFIRMABLE.includes(paymentIntent.status as string)) throw unexpectedState(`You cannot confirm this PaymentIntent because it has a status of ${paymentIntent.status}.`)
  const paymentMethod = await insertObject(tx, cardPaymentMethod(card, context.now, billingName), context.now)
  paymentIntent.payment_method = paymentMethod.id
  return chargeCard(tx, paymentIntent, paymentMethod, card, context)
}

/**
 * The hosted Checkout page's card saved for a subscription: a new card PaymentMethod attached to
 * the customer (`payment_method.attached`), or the card's decline when it cannot be attached
 * (every declining test card but 4000 0000 0000 0341, whose charges fail later).
 */
export async function attachTestCard(
  tx: Writer,
  context: FakeStripeContext,
  card: TestCard,
  customerId: string,
  billing: { name: string | null; email: string | null },
): Promise<{ paymentMethod: StripeObject; cardError?: undefined } | { paymentMethod?: undefined; cardError: StripeErrorBody }> {
  const { outcome } = card
  if (outcome.kind === 'decline' && !card.attachesThenDeclines) {
    return { cardError: { type: 'card_error', code: outcome.code, decline_code: outcome.declineCode, message: outcome.message, doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replace(/_/g, '-')}` } }
  }
  const paymentMethod = cardPaymentMethod(card, context.now, billing.name, billing.email)
  paymentMethod.customer = customerId
  await insertObject(tx, paymentMethod, context.now)
  await recordEvent(tx, 'payment_method.attached', paymentMethod, context)
  return { paymentMethod }
}

/**
 * A subscription's invoice paid off session with the stored card PaymentMethod: its test card's
 * outcome for the invoice's PaymentIntent (new, or declined before and confirmed again).
 * Undefined when the PaymentMethod is no test card.
 */
export async function chargeStoredCard(tx: Database, context: FakeStripeContext, paymentIntentId: string, paymentMethod: StripeObject): Promise<PaymentIntentResult | undefined> {
  const card = testCardOf(paymentMethod)
  if (!card) return undefined
  const paymentIntent = await lockObject(tx, paymentIntentId, 'payment_intent')
  if (!CONFIRMABLE.includes(paymentIntent.status as string)) throw unexpectedState(`You cannot confirm this PaymentIntent because it has a status of ${paymentIntent.status}.`)
  paymentIntent.payment_method = paymentMethod.id
  // A retry of an invoice's PaymentIntent: the last attempt's error goes, as when it is confirmed again.
  paymentIntent.last_payment_error = null
  return chargeCard(tx, paymentIntent, paymentMethod, card, context)
}

/** The PaymentMethod a subscription names: a test one (`pm_card_visa`, made anew) or a stored one. */
export async function storedPaymentMethod(tx: Database, id: string, param: string, now: number): Promise<StripeObject> {
  const card = TEST_CARDS.find((entry) => entry.paymentMethod === id)
  if (card) return insertObject(tx, cardPaymentMethod(card, now, null), now)
  return getObject(tx, id, 'payment_method', param)
}

// ---------------------------------------------------------------------------------------------
// Refunds

export async function createRefund(context: FakeStripeContext, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'instructions_email'])
  const paymentIntentId = text(params, 'payment_intent') || undefined
  const chargeId = text(params, 'charge') || undefined
  if (!paymentIntentId && !chargeId) throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', { code: 'parameter_missing' })
  if (paymentIntentId && chargeId) throw invalidRequest('You may only specify one of these parameters: charge, payment_intent.', { param: 'charge' })
  const reason = oneOf(params, 'reason', REFUND_REASONS)
  const requested = integer(params, 'amount')

  return inTransaction(context.db, async (tx) => {
    let charge: StripeObject
    if (paymentIntentId) {
      const paymentIntent = await getObject(tx, paymentIntentId, 'payment_intent', 'payment_intent')
      if (paymentIntent.status !== 'succeeded' || !paymentIntent.latest_charge) {
        throw invalidRequest(`This PaymentIntent (${paymentIntentId}) does not have a successful charge to refund.`, { code: 'charge_not_refundable', param: 'payment_intent' })
      }
      charge = await lockObject(tx, paymentIntent.latest_charge as string, 'charge', 'charge')
    } else {
      charge = await lockObject(tx, chargeId!, 'charge', 'charge')
    }
    if (charge.status !== 'succeeded') throw invalidRequest(`Charge ${charge.id} has not succeeded and cannot be refunded.`, { code: 'charge_not_refundable', param: 'charge' })
    const remaining = (charge.amount as number) - (charge.amount_refunded as number)
    if (remaining <= 0) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' })
    const amount = requested ?? remaining
    if (amount <= 0) throw invalidRequest('Refund amount must be positive.', { code: 'parameter_invalid_integer', param: 'amount' })
    if (amount > remaining) {
      throw invalidRequest(`Refund amount (${reais(amount)}) is greater than unrefunded amount on charge (${reais(remaining)})`, { code: 'amount_too_large', param: 'amount' })
    }
    const methodType = (charge.payment_method_details as { type: string }).type
    const refund: StripeObject = {
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: unixSeconds(context.now),
      currency: charge.currency,
      destination_details: methodType === 'card' ? { type: 'card', card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' } } : { type: 'pix', pix: {} },
      metadata: metadata(params),
      payment_intent: charge.payment_intent,
      reason: reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    }
    await insertObject(tx, refund, context.now)
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded }
    charge.amount_refunded = (charge.amount_refunded as number) + amount
    charge.refunded = charge.amount_refunded === charge.amount
    await saveObject(tx, charge)
    await recordEvent(tx, 'refund.created', refund, context)
    await recordEvent(tx, 'charge.refunded', charge, context, previous)
    return refund
  })
}

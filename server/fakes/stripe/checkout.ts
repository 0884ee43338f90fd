import { and, sql } from 'drizzle-orm'
import { fakeStripeObjects } from '#server/db/schema.ts'
import type { Database } from '#server/db/client.ts'
import { priceOfItem } from '#server/fakes/stripe/catalog.ts'
import { FakeStripeError, invalidRequest, missingParam } from '#server/fakes/stripe/errors.ts'
import type { FormParams } from '#server/fakes/stripe/form.ts'
import { integer, list, metadata, object, oneOf, onlyKnown, onlyKnownIn, text, textList } from '#server/fakes/stripe/params.ts'
import { attachTestCard, checkoutCustomer, inTransaction, insertPaymentIntent, payWithTestCard, type FakeStripeContext, type TestCard } from '#server/fakes/stripe/payments.ts'
import { findObject, getObject, insertObject, lockObject, newId, oldestObjects, recordEvent, saveObject, unixSeconds, type StripeObject, type Writer } from '#server/fakes/stripe/store.ts'
import { checkSubscriptionPrices, insertSubscription } from '#server/fakes/stripe/subscriptions.ts'

/**
 * The fake Stripe's Checkout Sessions (decision 0046), cards only (PIX charges are
 * PaymentIntents of their own). The hosted page (`url`, fakes/stripe/page-routes.ts) takes Stripe's test
 * card numbers; a decline shows Stripe's message and leaves the session open for another card;
 * a completed session is `complete` with `checkout.session.completed`, and the browser goes to
 * `success_url` (`{CHECKOUT_SESSION_ID}` filled in); an open one expires at `expires_at`
 * (`checkout.session.expired`).
 *
 * - `mode=payment`: the PaymentIntent is made at the first attempt, as Stripe does; paid, the
 *   session is `paid`; expired, its PaymentIntent is canceled.
 * - `mode=subscription`: recurring prices, `subscription_data[trial_period_days]`,
 *   `[metadata]`, `[description]`. On a good card the Customer (the session's, or a new one from
 *   the e-mail typed), the card as a PaymentMethod attached to it and the Subscription (made as
 *   `subscriptions.create` makes one: a trial `trialing` with a paid R$ 0 invoice, else the first
 *   invoice charged to the card and `active`) are written in the session's transaction; the
 *   session gets `customer`, `subscription`, `invoice` and `payment_status` `paid` (or
 *   `no_payment_required` when nothing was due). A card that cannot be attached or whose first
 *   charge is declined leaves nothing of the attempt: no customer, no subscription.
 * - `mode=setup` (a card saved for later, Stripe's way to update the card a subscription pays
 *   with): `customer` required, `setup_intent_data[metadata]`/`[description]`, no line items; a
 *   good card is attached and a succeeded SetupIntent names it (see setupLocked).
 */

const SESSION_PARAMS = [
  'mode',
  'line_items',
  'success_url',
  'cancel_url',
  'customer',
  'customer_email',
  'client_reference_id',
  'metadata',
  'payment_intent_data',
  'allowed_payment_method_types',
  'excluded_payment_method_types',
  'payment_method_types',
  'expires_at',
  'locale',
  'ui_mode',
  'submit_type',
  'billing_address_collection',
  'subscription_data',
  'setup_intent_data',
  'currency',
]
const MIN_LIFETIME_SECONDS = 30 * 60
const MAX_LIFETIME_SECONDS = 24 * 60 * 60
const LOCALES = ['auto', 'pt-BR', 'pt', 'en', 'es', 'es-419'] as const
/** Stripe's longest trial (`subscription_data[trial_period_days]`: 1 to 730 days). */
const MAX_TRIAL_DAYS = 730

type LineItem = { id: string; object: 'item'; amount_discount: number; amount_subtotal: number; amount_tax: number; amount_total: number; currency: string; description: string; price: StripeObject; quantity: number }

const lineItemsId = (sessionId: string) => `${sessionId}:line_items`

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

function url(params: FormParams, name: string): string | null {
  const value = text(params, name)
  if (!value) return null
  if (!isHttpUrl(value)) throw invalidRequest(`Not a valid URL`, { code: 'url_invalid', param: name })
  return value
}

export async function createCheckoutSession(context: FakeStripeContext, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, SESSION_PARAMS)
  const mode = oneOf(params, 'mode', ['payment', 'subscription', 'setup'])
  if (!mode) throw missingParam('mode')
  if ((oneOf(params, 'ui_mode', ['hosted', 'embedded', 'custom']) ?? 'hosted') !== 'hosted') throw invalidRequest("The fake Stripe's Checkout supports ui_mode=hosted only.", { param: 'ui_mode' })
  const successUrl = url(params, 'success_url')
  if (!successUrl) throw missingParam('success_url')
  const cancelUrl = url(params, 'cancel_url')
  const types = (textList(params, 'allowed_payment_method_types') ?? textList(params, 'payment_method_types') ?? ['card']).filter((type) => !(textList(params, 'excluded_payment_method_types') ?? []).includes(type))
  if (types.length !== 1 || types[0] !== 'card') {
    throw invalidRequest("The fake Stripe's Checkout takes cards only; a PIX charge is a PaymentIntent with next_action.pix_display_qr_code.", { param: 'allowed_payment_method_types' })
  }
  const customerId = text(params, 'customer') || null
  const customerEmail = text(params, 'customer_email') || null
  if (customerId && customerEmail) throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', { param: 'customer_email' })
  const intentData = object(params, 'payment_intent_data')
  const subscriptionData = object(params, 'subscription_data')
  const setupData = object(params, 'setup_intent_data')
  if (mode !== 'setup' && setupData) throw invalidRequest('You can only specify `setup_intent_data` in `setup` mode.', { param: 'setup_intent_data' })
  if (mode === 'setup') {
    if (!customerId) throw invalidRequest("The fake Stripe's Checkout in `setup` mode saves the card to a customer: pass `customer`.", { param: 'customer' })
    if (params.line_items !== undefined) throw invalidRequest('You cannot pass `line_items` in `setup` mode.', { param: 'line_items' })
    if (intentData) throw invalidRequest('You can only specify `payment_intent_data` in `payment` mode.', { param: 'payment_intent_data' })
    if (subscriptionData) throw invalidRequest('You can only specify `subscription_data` in `subscription` mode.', { param: 'subscription_data' })
    if (params.submit_type !== undefined) throw invalidRequest('`submit_type` can only be specified on Checkout Sessions in `payment` mode.', { param: 'submit_type' })
  } else if (mode === 'subscription') {
    if (intentData) throw invalidRequest('You can only specify `payment_intent_data` in `payment` mode; use `subscription_data` in `subscription` mode.', { param: 'payment_intent_data' })
    if (params.submit_type !== undefined) throw invalidRequest('`submit_type` can only be specified on Checkout Sessions in `payment` mode.', { param: 'submit_type' })
  } else if (subscriptionData) {
    throw invalidRequest('You can only specify `subscription_data` in `subscription` mode.', { param: 'subscription_data' })
  }
  onlyKnownIn(intentData, 'payment_intent_data', ['metadata', 'description', 'receipt_email', 'statement_descriptor', 'statement_descriptor_suffix'])
  metadata((intentData ?? {}) as FormParams)
  onlyKnownIn(subscriptionData, 'subscription_data', ['trial_period_days', 'metadata', 'description'])
  const trialDays = integer(subscriptionData, 'trial_period_days', 'subscription_data[trial_period_days]')
  if (trialDays !== undefined && (trialDays < 1 || trialDays > MAX_TRIAL_DAYS)) {
    throw invalidRequest(`subscription_data[trial_period_days] has to be between 1 and ${MAX_TRIAL_DAYS}.`, { param: 'subscription_data[trial_period_days]' })
  }
  metadata((subscriptionData ?? {}) as FormParams)
  text(subscriptionData, 'description', 'subscription_data[description]')
  onlyKnownIn(setupData, 'setup_intent_data', ['metadata', 'description'])
  metadata((setupData ?? {}) as FormParams)
  text(setupData, 'description', 'setup_intent_data[description]')
  const currencyParam = text(params, 'currency')
  if (currencyParam && currencyParam !== 'brl') throw invalidRequest("The fake Stripe's account settles in brl only.", { param: 'currency' })
  const nowSeconds = unixSeconds(context.now)
  const expiresAt = integer(params, 'expires_at') ?? nowSeconds + MAX_LIFETIME_SECONDS
  if (expiresAt < nowSeconds + MIN_LIFETIME_SECONDS || expiresAt > nowSeconds + MAX_LIFETIME_SECONDS) {
    throw invalidRequest('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', { param: 'expires_at' })
  }
  const items = mode === 'setup' ? [] : list(params, 'line_items')
  if (mode !== 'setup' && (!items || items.length === 0)) throw missingParam('line_items')
  if (items && items.length > 100) throw invalidRequest('line_items may have at most 100 items.', { param: 'line_items' })

  return inTransaction(context.db, async (tx) => {
    if (customerId) await getObject(tx, customerId, 'customer', 'customer')
    const lineItems: LineItem[] = []
    for (const [index, item] of (items ?? []).entries()) {
      const path = `line_items[${index}]`
      if (typeof item !== 'object' || Array.isArray(item)) throw invalidRequest(`Invalid object`, { param: path })
      onlyKnownIn(item, path, ['price', 'price_data', 'quantity'])
      const quantity = integer(item, 'quantity', `${path}[quantity]`)
      if (quantity === undefined) throw missingParam(`${path}[quantity]`)
      if (quantity < 1 || quantity > 999_999) throw invalidRequest('Quantity must be between 1 and 999999.', { param: `${path}[quantity]` })
      const price = await priceOfItem(tx, item, context, path)
      if (mode === 'payment' && price.type === 'recurring') {
        throw invalidRequest('You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', { param: `${path}[price]` })
      }
      const product = await findObject(tx, price.product as string, 'product')
      const amount = (price.unit_amount as number) * quantity
      lineItems.push({
        id: newId('li'),
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency as string,
        description: (product?.name as string | undefined) ?? '',
        price,
        quantity,
      })
    }
    const currency = lineItems[0]?.currency ?? currencyParam ?? null
    if (lineItems.some((item) => item.currency !== currency)) throw invalidRequest('All prices on a Checkout Session must have the same currency.', { param: 'line_items' })
    if (mode === 'subscription') {
      if (!lineItems.some((item) => item.price.type === 'recurring')) {
        throw invalidRequest('You must provide at least one recurring price in `subscription` mode when using prices.', { param: 'line_items' })
      }
      // Stripe would put one-time prices on the first invoice; the fake's invoices bill the subscription's items only.
      const oneTime = lineItems.findIndex((item) => item.price.type !== 'recurring')
      if (oneTime !== -1) {
        throw invalidRequest("The fake Stripe's Checkout in `subscription` mode takes recurring prices only, not one-time ones beside them.", { param: `line_items[${oneTime}][price]` })
      }
      checkSubscriptionPrices(lineItems.map((item, index) => ({ price: item.price, param: `line_items[${index}][price]` })))
    }
    const total = lineItems.reduce((sum, item) => sum + item.amount_total, 0)
    // What is charged now: in subscription mode the first period's invoice, nothing with a trial.
    const due = mode === 'setup' ? null : mode === 'subscription' && trialDays !== undefined ? 0 : total
    if (due !== null && currency === 'brl' && due < 50 && (mode === 'payment' || due > 0)) {
      throw invalidRequest('The Checkout Session’s total amount due must add up to at least R$0.50 brl', { code: 'amount_too_small', param: 'line_items' })
    }
    const subscriptionMode = mode === 'subscription'

    const id = `cs_test_${newId('x', 58).slice(2)}`
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      adaptive_pricing: null,
      after_expiration: null,
      allow_promotion_codes: null,
      allowed_payment_method_types: textList(params, 'allowed_payment_method_types') ?? null,
      amount_subtotal: due,
      amount_total: due,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: text(params, 'billing_address_collection') || null,
      cancel_url: cancelUrl,
      client_reference_id: text(params, 'client_reference_id') || null,
      client_secret: null,
      collected_information: null,
      consent: null,
      consent_collection: null,
      created: nowSeconds,
      currency,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: customerId,
      customer_account: null,
      customer_creation: customerId || mode === 'setup' ? null : subscriptionMode ? 'always' : 'if_required',
      customer_details: null,
      customer_email: customerEmail,
      discounts: [],
      expires_at: expiresAt,
      integration_identifier: null,
      invoice: null,
      invoice_creation: null,
      livemode: false,
      locale: oneOf(params, 'locale', LOCALES) ?? null,
      managed_payments: null,
      metadata: metadata(params),
      mode,
      origin_context: null,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: mode === 'payment' ? 'if_required' : 'always',
      payment_method_configuration_details: null,
      payment_method_options: { card: { request_three_d_secure: 'automatic' } },
      payment_method_types: ['card'],
      payment_status: due === null || due === 0 ? 'no_payment_required' : 'unpaid',
      permissions: null,
      recovered_from: null,
      saved_payment_method_options: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: 'open',
      submit_type: text(params, 'submit_type') || null,
      subscription: null,
      success_url: successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${context.publicUrl}/fake-stripe/checkout/${id}`,
      wallet_options: null,
      // Kept for the PaymentIntent the first attempt makes, or the subscription; Stripe keeps them too, unseen.
      ...(subscriptionMode ? { subscription_data: subscriptionData ?? {} } : mode === 'setup' ? { setup_intent_data: setupData ?? {} } : { payment_intent_data: intentData ?? {} }),
    }
    await insertObject(tx, session, context.now)
    await insertObject(tx, { id: lineItemsId(id), object: 'checkout_line_items', data: lineItems }, context.now)
    return publicSession(session)
  })
}

/** The session as Stripe shows it: without what the fake keeps for itself. */
export function publicSession(session: StripeObject): StripeObject {
  const { payment_intent_data: _intentData, subscription_data: _subscriptionData, setup_intent_data: _setupData, ...shown } = session
  return shown as StripeObject
}

export async function lineItemsOf(context: FakeStripeContext, sessionId: string): Promise<LineItem[]> {
  await getObject(context.db, sessionId, 'checkout.session')
  return ((await findObject(context.db, lineItemsId(sessionId), 'checkout_line_items'))?.data as LineItem[] | undefined) ?? []
}

const isPastExpiry = (session: StripeObject, now: number) => session.status === 'open' && (session.expires_at as number) <= unixSeconds(now)

async function expireLocked(tx: Writer, session: StripeObject, context: FakeStripeContext): Promise<StripeObject> {
  session.status = 'expired'
  session.url = null
  if (session.payment_intent) {
    const paymentIntent = await lockObject(tx, session.payment_intent as string, 'payment_intent')
    if (paymentIntent.status !== 'succeeded' && paymentIntent.status !== 'canceled') {
      paymentIntent.status = 'canceled'
      paymentIntent.canceled_at = unixSeconds(context.now)
      paymentIntent.cancellation_reason = 'abandoned'
      await saveObject(tx, paymentIntent)
      await recordEvent(tx, 'payment_intent.canceled', paymentIntent, context)
    }
  }
  await saveObject(tx, session)
  await recordEvent(tx, 'checkout.session.expired', publicSession(session), context)
  return session
}

/** The session as it is now: an open one past `expires_at` is expired first. */
export async function retrieveCheckoutSession(context: FakeStripeContext, id: string): Promise<StripeObject> {
  const session = await getObject(context.db, id, 'checkout.session')
  if (!isPastExpiry(session, context.now)) return publicSession(session)
  return inTransaction(context.db, async (tx) => {
    const locked = await lockObject(tx, id, 'checkout.session')
    return publicSession(isPastExpiry(locked, context.now) ? await expireLocked(tx, locked, context) : locked)
  })
}

/** `POST /v1/checkout/sessions/:id/expire`: only an open session. */
export async function expireCheckoutSession(context: FakeStripeContext, id: string, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, [])
  return inTransaction(context.db, async (tx) => {
    const session = await lockObject(tx, id, 'checkout.session')
    if (session.status !== 'open') throw invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired.`, { code: 'checkout_session_unexpected_state' })
    return publicSession(await expireLocked(tx, session, context))
  })
}

/** Expires the open sessions past their expiry (the periodic sweep); how many. */
export async function expireDueCheckoutSessions(context: FakeStripeContext, limit = 100): Promise<number> {
  const due = await oldestObjects(
    context.db,
    'checkout.session',
    and(sql`${fakeStripeObjects.data}->>'status' = 'open'`, sql`(${fakeStripeObjects.data}->>'expires_at')::bigint <= ${unixSeconds(context.now)}`)!,
    limit,
  )
  for (const session of due) await retrieveCheckoutSession(context, session.id)
  return due.length
}

type CheckoutAttempt =
  | { outcome: 'paid'; session: StripeObject; redirectTo: string }
  | { outcome: 'declined'; session: StripeObject; message: string }
  | { outcome: 'closed'; session: StripeObject }

/** The hosted page's Pay: the test card's outcome, in one transaction with the session. */
export async function payCheckoutSession(context: FakeStripeContext, id: string, payer: { card: TestCard; email: string; name: string }): Promise<CheckoutAttempt> {
  return inTransaction(context.db, async (tx) => {
    let session = await lockObject(tx, id, 'checkout.session')
    if (isPastExpiry(session, context.now)) session = await expireLocked(tx, session, context)
    if (session.status !== 'open') return { outcome: 'closed', session: publicSession(session) }
    if (session.mode === 'subscription') return subscribeLocked(tx, context, session, payer)
    if (session.mode === 'setup') return setupLocked(tx, context, session, payer)

    if (!session.payment_intent) {
      const intentData = (session.payment_intent_data ?? {}) as FormParams
      const paymentIntent = await insertPaymentIntent(tx, context, {
        amount: session.amount_total as number,
        currency: session.currency as string,
        customer: session.customer as string | null,
        description: text(intentData, 'description') || null,
        metadata: metadata(intentData),
        types: ['card'],
        receiptEmail: text(intentData, 'receipt_email') || null,
        statementDescriptor: text(intentData, 'statement_descriptor') || null,
        statementDescriptorSuffix: text(intentData, 'statement_descriptor_suffix') || null,
      })
      session.payment_intent = paymentIntent.id
    }
    session.customer_details = { address: null, business_name: null, email: payer.email, individual_name: null, name: payer.name || null, phone: null, tax_exempt: 'none', tax_ids: [] }
    const result = await payWithTestCard(tx, context, session.payment_intent as string, payer.card, payer.name || null)
    if (result.cardError) {
      await saveObject(tx, session)
      return { outcome: 'declined', session: publicSession(session), message: result.cardError.message }
    }
    session.status = 'complete'
    session.payment_status = 'paid'
    session.url = null
    await saveObject(tx, session)
    const shown = publicSession(session)
    await recordEvent(tx, 'checkout.session.completed', shown, context)
    return { outcome: 'paid', session: shown, redirectTo: (session.success_url as string).replaceAll('{CHECKOUT_SESSION_ID}', id) }
  })
}

/**
 * A subscription-mode session's good card: the customer, the card attached to it and the
 * subscription (charged as `subscriptions.create` with `payment_behavior=error_if_incomplete`),
 * in a savepoint of the session's transaction, so a card refused when attached or at the first
 * charge leaves nothing of the attempt and the session open.
 */
async function subscribeLocked(tx: Database, context: FakeStripeContext, session: StripeObject, payer: { card: TestCard; email: string; name: string }): Promise<CheckoutAttempt> {
  session.customer_details = { address: null, business_name: null, email: payer.email, individual_name: null, name: payer.name || null, phone: null, tax_exempt: 'none', tax_ids: [] }
  const data = (session.subscription_data ?? {}) as FormParams
  let subscription: StripeObject
  try {
    subscription = await inTransaction(tx, async (attempt) => {
      const customer = await checkoutCustomer(attempt, context, session.customer as string | null, { email: payer.email, name: payer.name || null })
      const attached = await attachTestCard(attempt, context, payer.card, customer.id, { name: payer.name || null, email: payer.email })
      if (attached.cardError) throw new FakeStripeError(402, attached.cardError)
      const items = ((await findObject(attempt, lineItemsId(session.id), 'checkout_line_items'))?.data ?? []) as LineItem[]
      return insertSubscription(attempt, context, {
        customerId: customer.id,
        items: items.map((item, index) => ({ price: item.price, quantity: item.quantity, param: `line_items[${index}][price]` })),
        trialDays: integer(data, 'trial_period_days'),
        defaultPaymentMethod: attached.paymentMethod,
        metadata: metadata(data),
        description: text(data, 'description') || null,
        cancelAtPeriodEnd: false,
        behavior: 'error_if_incomplete',
      })
    })
  } catch (error) {
    if (!(error instanceof FakeStripeError) || error.status !== 402) throw error
    await saveObject(tx, session)
    return { outcome: 'declined', session: publicSession(session), message: error.body.message }
  }
  session.status = 'complete'
  session.customer = subscription.customer
  session.subscription = subscription.id
  session.invoice = subscription.latest_invoice
  session.payment_status = (session.amount_total as number) > 0 ? 'paid' : 'no_payment_required'
  session.url = null
  await saveObject(tx, session)
  const shown = publicSession(session)
  await recordEvent(tx, 'checkout.session.completed', shown, context)
  return { outcome: 'paid', session: shown, redirectTo: (session.success_url as string).replaceAll('{CHECKOUT_SESSION_ID}', session.id) }
}

/**
 * A setup-mode session's card (Stripe's "update payment details" with Checkout): attached to the
 * session's customer and confirmed off-session by a SetupIntent (`succeeded`, `setup_intent.created`
 * and `.succeeded`), named by the session's `setup_intent`; nothing is charged. A card refused when
 * attached leaves the session open for another, as Stripe's page does.
 */
async function setupLocked(tx: Database, context: FakeStripeContext, session: StripeObject, payer: { card: TestCard; email: string; name: string }): Promise<CheckoutAttempt> {
  session.customer_details = { address: null, business_name: null, email: payer.email, individual_name: null, name: payer.name || null, phone: null, tax_exempt: 'none', tax_ids: [] }
  const attached = await attachTestCard(tx, context, payer.card, session.customer as string, { name: payer.name || null, email: payer.email })
  if (attached.cardError) {
    await saveObject(tx, session)
    return { outcome: 'declined', session: publicSession(session), message: attached.cardError.message }
  }
  const data = (session.setup_intent_data ?? {}) as FormParams
  const id = newId('seti')
  const setupIntent: StripeObject = {
    id,
    object: 'setup_intent',
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${id}_secret_${newId('x').slice(2)}`,
    created: unixSeconds(context.now),
    customer: session.customer,
    description: text(data, 'description') || null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: metadata(data),
    next_action: null,
    on_behalf_of: null,
    payment_method: attached.paymentMethod.id,
    payment_method_configuration_details: null,
    payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: 'succeeded',
    usage: 'off_session',
  }
  await insertObject(tx, setupIntent, context.now)
  await recordEvent(tx, 'setup_intent.created', setupIntent, context)
  await recordEvent(tx, 'setup_intent.succeeded', setupIntent, context)
  session.status = 'complete'
  session.setup_intent = id
  session.url = null
  await saveObject(tx, session)
  const shown = publicSession(session)
  await recordEvent(tx, 'checkout.session.completed', shown, context)
  return { outcome: 'paid', session: shown, redirectTo: (session.success_url as string).replaceAll('{CHECKOUT_SESSION_ID}', session.id) }
}

import { invalidRequest, missingParam } from '#server/fakes/stripe/errors.ts'
import type { FormParams, FormValue } from '#server/fakes/stripe/form.ts'
import { boolean, integer, metadata, object, oneOf, onlyKnown, onlyKnownIn, requiredText, text } from '#server/fakes/stripe/params.ts'
import { inTransaction, type FakeStripeContext } from '#server/fakes/stripe/payments.ts'
import { getObject, insertObject, newId, recordEvent, unixSeconds, type StripeObject, type Writer } from '#server/fakes/stripe/store.ts'

/**
 * The fake Stripe's Products and Prices (one-time and recurring), which Checkout line items and
 * Subscriptions name; `price_data` makes an inline Price (and Product) as Stripe does, inactive.
 */

const INTERVALS = ['day', 'week', 'month', 'year'] as const
const MAX_INTERVAL_COUNT: Record<(typeof INTERVALS)[number], number> = { day: 365, week: 52, month: 12, year: 1 }

function newProduct(params: { [key: string]: FormValue }, now: number, path: string): StripeObject {
  const at = (name: string) => (path ? `${path}[${name}]` : name)
  return {
    id: newId('prod', 14),
    object: 'product',
    active: true,
    created: unixSeconds(now),
    default_price: null,
    description: text(params, 'description', at('description')) || null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: metadata(params as FormParams),
    name: requiredText(params, 'name', at('name')),
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: unixSeconds(now),
    url: null,
  }
}

export async function createProduct(context: FakeStripeContext, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, ['name', 'description', 'metadata', 'active'])
  const product = newProduct(params, context.now, '')
  product.active = boolean(params, 'active') ?? true
  return inTransaction(context.db, async (tx) => {
    await insertObject(tx, product, context.now)
    await recordEvent(tx, 'product.created', product, context)
    return product
  })
}

const PRICE_FIELDS = ['currency', 'unit_amount', 'product', 'product_data', 'recurring', 'nickname', 'lookup_key', 'metadata', 'active', 'tax_behavior']

/** A Price from `price`-like parameters (`POST /v1/prices`, or a line item's `price_data` at `path`). */
async function buildPrice(tx: Writer, params: { [key: string]: FormValue }, context: FakeStripeContext, path: string, inline: boolean): Promise<StripeObject> {
  const at = (name: string) => (path ? `${path}[${name}]` : name)
  const currency = requiredText(params, 'currency', at('currency')).toLowerCase()
  if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}`, { param: at('currency') })
  const unitAmount = integer(params, 'unit_amount', at('unit_amount'))
  if (unitAmount === undefined) throw missingParam(at('unit_amount'))
  if (unitAmount < 0 || unitAmount > 99_999_999) throw invalidRequest('unit_amount must be between 0 and 99999999.', { param: at('unit_amount') })
  const recurringParams = object(params, 'recurring', at('recurring'))
  onlyKnownIn(recurringParams, at('recurring'), ['interval', 'interval_count', 'trial_period_days'])
  let recurring: Record<string, unknown> | null = null
  if (recurringParams) {
    const interval = oneOf(recurringParams, 'interval', INTERVALS, `${at('recurring')}[interval]`)
    if (!interval) throw missingParam(`${at('recurring')}[interval]`)
    const count = integer(recurringParams, 'interval_count', `${at('recurring')}[interval_count]`) ?? 1
    if (count < 1 || count > MAX_INTERVAL_COUNT[interval]) throw invalidRequest('The billing interval must be at most a year.', { param: `${at('recurring')}[interval_count]` })
    recurring = { interval, interval_count: count, meter: null, trial_period_days: integer(recurringParams, 'trial_period_days') ?? null, usage_type: 'licensed' }
  }

  let productId = text(params, 'product', at('product'))
  const productData = object(params, 'product_data', at('product_data'))
  if (productId && productData) throw invalidRequest('You may only specify one of these parameters: product, product_data.', { param: at('product_data') })
  if (productId) await getObject(tx, productId, 'product', at('product'))
  else if (productData) {
    onlyKnownIn(productData, at('product_data'), ['name', 'description', 'metadata', 'images'])
    const product = newProduct(productData, context.now, at('product_data'))
    product.active = !inline
    await insertObject(tx, product, context.now)
    productId = product.id
  } else throw missingParam(at('product'))

  const price: StripeObject = {
    id: newId('price'),
    object: 'price',
    active: inline ? false : (boolean(params, 'active') ?? true),
    billing_scheme: 'per_unit',
    created: unixSeconds(context.now),
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: text(params, 'lookup_key') || null,
    metadata: inline ? {} : metadata(params as FormParams),
    nickname: text(params, 'nickname') || null,
    product: productId,
    recurring,
    tax_behavior: oneOf(params, 'tax_behavior', ['inclusive', 'exclusive', 'unspecified'], at('tax_behavior')) ?? 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
  }
  await insertObject(tx, price, context.now)
  return price
}

export async function createPrice(context: FakeStripeContext, params: FormParams): Promise<StripeObject> {
  onlyKnown(params, PRICE_FIELDS)
  return inTransaction(context.db, async (tx) => {
    const price = await buildPrice(tx, params, context, '', false)
    await recordEvent(tx, 'price.created', price, context)
    return price
  })
}

/** The Price a line item names (`price`, active) or makes (`price_data`). */
export async function priceOfItem(tx: Writer, item: { [key: string]: FormValue }, context: FakeStripeContext, path: string): Promise<StripeObject> {
  const priceId = text(item, 'price', `${path}[price]`)
  const priceData = object(item, 'price_data', `${path}[price_data]`)
  if (priceId && priceData) throw invalidRequest('You may only specify one of these parameters: price, price_data.', { param: `${path}[price_data]` })
  if (priceId) {
    const price = await getObject(tx, priceId, 'price', `${path}[price]`)
    if (!price.active) throw invalidRequest(`The price specified is inactive. This field only accepts active prices.`, { param: `${path}[price]` })
    return price
  }
  if (!priceData) throw missingParam(`${path}[price]`)
  onlyKnownIn(priceData, `${path}[price_data]`, ['currency', 'unit_amount', 'product', 'product_data', 'recurring', 'tax_behavior'])
  return buildPrice(tx, priceData, context, `${path}[price_data]`, true)
}

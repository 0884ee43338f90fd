import { createHash, timingSafeEqual } from 'node:crypto'
import { and, eq, isNull, lt, or } from 'drizzle-orm'
import { fakeStripeIdempotencyKeys } from '#server/db/schema.ts'
import { pathParam, type AppContext, type Api, type Handler } from '#server/http/api.ts'
import { createPrice, createProduct } from '#server/fakes/stripe/catalog.ts'
import { createCheckoutSession, expireCheckoutSession, lineItemsOf, publicSession, retrieveCheckoutSession } from '#server/fakes/stripe/checkout.ts'
import { FakeStripeError, invalidRequest, type StripeErrorBody } from '#server/fakes/stripe/errors.ts'
import { listInvoicePayments } from '#server/fakes/stripe/invoice-payments.ts'
import { cancelSubscription, createSubscription, payInvoice, updateSubscription } from '#server/fakes/stripe/subscriptions.ts'
import { parseStripeForm, type FormParams } from '#server/fakes/stripe/form.ts'
import { listParams, onlyKnown, text } from '#server/fakes/stripe/params.ts'
import {
  cancelPaymentIntent,
  confirmPaymentIntent,
  createCustomer,
  createPaymentIntent,
  createRefund,
  retrievePaymentIntent,
  updatePaymentIntent,
  type FakeStripeContext,
  type PaymentIntentResult,
} from '#server/fakes/stripe/payments.ts'
import { FAKE_API_VERSION, fieldIs, getObject, listObjects, newId, pathIs } from '#server/fakes/stripe/store.ts'
import type { Services } from '#server/services.ts'
import type { WebhookSender } from '#server/fakes/stripe/webhooks.ts'

/**
 * The fake Stripe's REST API (decision 0046), at `/v1/` of the provider's own address as
 * Stripe's is at api.stripe.com, for the official SDK pointed there (STRIPE_API_URL). Mounted
 * only with FAKE_STRIPE. What Stripe's API does that the product uses, in Stripe's shapes: the
 * Bearer secret key, form-encoded parameters with brackets, unknown parameters refused,
 * `{"error": {type, code, message, param}}` with Stripe's statuses (400, 401, 402, 404, 409),
 * `Request-Id`, and `Idempotency-Key` (the same key with the same parameters within 24 hours
 * answers the first answer again, `Idempotent-Replayed: true`; with other parameters 400
 * `idempotency_error`; while the first is still running 409). The hosted pages are in
 * fakes/stripe/page-routes.ts, the webhooks in fakes/stripe/webhooks.ts.
 */

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000
/** A first request still "running" after this long died with its process: its key is free again. */
const ABANDONED_MS = 60 * 1000

/** An answer other than 200 with the object (a 402 card error sent after its change was committed). */
class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

type Call = { c: AppContext; params: FormParams; context: FakeStripeContext }
type Outcome = { status: number; body: unknown; replayed: boolean }

const errorAnswer = (status: number, error: StripeErrorBody) => new Answer(status, { error })

const paymentIntentAnswer = ({ paymentIntent, cardError }: PaymentIntentResult) => (cardError ? errorAnswer(402, cardError) : paymentIntent)

function hashOf(method: string, path: string, params: FormParams): string {
  // Sorted keys: the same parameters in another order are the same request.
  const canonical = JSON.stringify(params, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  )
  return createHash('sha256').update(`${method} ${path}\n${canonical}`).digest('hex')
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function registerFakeStripeRoutes(api: Api, services: Services, webhooks: WebhookSender | undefined): void {
  const { db, config, clock, log, background } = services
  const secretKey = config.stripe.secretKey!

  function authenticate(c: AppContext): void {
    const header = c.req.header('authorization') ?? ''
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1]
    const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1]
    const key = bearer ?? (basic ? Buffer.from(basic, 'base64').toString('utf8').split(':')[0] : undefined)
    if (!key) {
      throw new FakeStripeError(401, {
        type: 'invalid_request_error',
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      })
    }
    if (!sameSecret(key, secretKey)) {
      throw new FakeStripeError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}` })
    }
  }

  /** Runs `run` once per idempotency key; the same key again gets the stored answer. */
  async function idempotent(key: string, requestHash: string, run: () => Promise<Omit<Outcome, 'replayed'>>): Promise<Outcome> {
    if (key.length > 255) throw invalidRequest('Idempotency-Key must be at most 255 characters.', { param: 'Idempotency-Key' })
    const now = clock()
    await db
      .delete(fakeStripeIdempotencyKeys)
      .where(
        and(
          eq(fakeStripeIdempotencyKeys.key, key),
          or(lt(fakeStripeIdempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_WINDOW_MS)), and(isNull(fakeStripeIdempotencyKeys.status), lt(fakeStripeIdempotencyKeys.createdAt, new Date(now - ABANDONED_MS)))),
        ),
      )
    const claimed = await db.insert(fakeStripeIdempotencyKeys).values({ key, requestHash, createdAt: new Date(now) }).onConflictDoNothing().returning({ key: fakeStripeIdempotencyKeys.key })
    if (claimed.length === 0) {
      const [first] = await db.select().from(fakeStripeIdempotencyKeys).where(eq(fakeStripeIdempotencyKeys.key, key))
      if (first && first.requestHash !== requestHash) {
        throw new FakeStripeError(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        })
      }
      if (!first || first.status === null) {
        throw new FakeStripeError(409, {
          type: 'invalid_request_error',
          code: 'idempotency_key_in_use',
          message: 'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ' + key + '. Please try again later.',
        })
      }
      return { status: first.status, body: first.body, replayed: true }
    }
    try {
      const outcome = await run()
      await db.update(fakeStripeIdempotencyKeys).set({ status: outcome.status, body: outcome.body }).where(eq(fakeStripeIdempotencyKeys.key, key))
      return { ...outcome, replayed: false }
    } catch (error) {
      // Nothing was changed (the change's transaction rolled back): the key may be used again.
      await db.delete(fakeStripeIdempotencyKeys).where(eq(fakeStripeIdempotencyKeys.key, key))
      throw error
    }
  }

  function respond(c: AppContext, requestId: string, outcome: Omit<Outcome, 'replayed'> & { replayed?: boolean }, idempotencyKey?: string) {
    return c.json(outcome.body as object, outcome.status as 200, {
      'Request-Id': requestId,
      'Stripe-Version': FAKE_API_VERSION,
      'Cache-Control': 'no-cache, no-store',
      ...(idempotencyKey && { 'Idempotency-Key': idempotencyKey }),
      ...(outcome.replayed && { 'Idempotent-Replayed': 'true' }),
    })
  }

  function route(handler: (call: Call) => Promise<unknown>): Handler {
    return async (c) => {
      const requestId = newId('req', 14)
      const method = c.req.method
      const idempotencyKey = method === 'POST' ? c.req.header('idempotency-key') || undefined : undefined
      try {
        authenticate(c)
        const raw = method === 'POST' ? await c.req.text() : new URL(c.req.url).search.slice(1)
        const params = parseStripeForm(raw)
        const context: FakeStripeContext = {
          db,
          now: clock(),
          publicUrl: config.providerPublicUrl,
          webhookUrl: config.stripe.fakeWebhookUrl,
          request: { id: requestId, idempotencyKey },
        }
        const run = async () => {
          const result = await handler({ c, params, context })
          return result instanceof Answer ? { status: result.status, body: result.body } : { status: 200, body: result }
        }
        const outcome = idempotencyKey ? await idempotent(idempotencyKey, hashOf(method, c.req.path, params), run) : await run()
        // The events a change wrote go out after the answer, as Stripe's do (or, as there, a moment before it arrives).
        if (method === 'POST' && webhooks) {
          background.run('fake stripe webhooks', () => webhooks.deliverDue())
        }
        return respond(c, requestId, outcome, idempotencyKey)
      } catch (error) {
        if (error instanceof FakeStripeError) return respond(c, requestId, { status: error.status, body: { error: error.body } }, idempotencyKey)
        log({ level: 'error', msg: 'fake stripe failed', path: c.req.path, error: error instanceof Error ? error.message : String(error) })
        return respond(c, requestId, { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred in the fake Stripe.' } } })
      }
    }
  }

  const id = (c: AppContext) => pathParam(c, 'id')

  api.endpoint('/v1/customers', {
    POST: route(({ params, context }) => createCustomer(context, params)),
  })
  api.endpoint('/v1/customers/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'customer')),
  })

  api.endpoint('/v1/payment_intents', {
    POST: route(async ({ params, context }) => paymentIntentAnswer(await createPaymentIntent(context, params))),
    GET: route(async ({ params }) => {
      onlyKnown(params, ['customer', 'limit', 'starting_after'])
      const customer = text(params, 'customer')
      return listObjects(db, { type: 'payment_intent', url: '/v1/payment_intents', ...listParams(params), where: customer ? fieldIs('customer', customer) : undefined })
    }),
  })
  api.endpoint('/v1/payment_intents/:id', {
    GET: route(({ c, context }) => retrievePaymentIntent(context, id(c))),
    POST: route(({ c, params, context }) => updatePaymentIntent(context, id(c), params)),
  })
  api.endpoint('/v1/payment_intents/:id/confirm', {
    POST: route(async ({ c, params, context }) => paymentIntentAnswer(await confirmPaymentIntent(context, id(c), params))),
  })
  api.endpoint('/v1/payment_intents/:id/cancel', {
    POST: route(({ c, params, context }) => cancelPaymentIntent(context, id(c), params)),
  })

  api.endpoint('/v1/payment_methods/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'payment_method')),
  })
  api.endpoint('/v1/charges/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'charge')),
  })

  api.endpoint('/v1/refunds', {
    POST: route(({ params, context }) => createRefund(context, params)),
    GET: route(async ({ params }) => {
      onlyKnown(params, ['payment_intent', 'charge', 'limit', 'starting_after'])
      const paymentIntent = text(params, 'payment_intent')
      const charge = text(params, 'charge')
      const where = paymentIntent ? fieldIs('payment_intent', paymentIntent) : charge ? fieldIs('charge', charge) : undefined
      return listObjects(db, { type: 'refund', url: '/v1/refunds', ...listParams(params), where })
    }),
  })
  api.endpoint('/v1/refunds/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'refund')),
  })

  api.endpoint('/v1/events', {
    GET: route(async ({ params }) => {
      onlyKnown(params, ['type', 'limit', 'starting_after'])
      const type = text(params, 'type')
      return listObjects(db, { type: 'event', url: '/v1/events', ...listParams(params), where: type ? fieldIs('type', type) : undefined })
    }),
  })
  api.endpoint('/v1/events/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'event')),
  })

  api.endpoint('/v1/products', {
    POST: route(({ params, context }) => createProduct(context, params)),
  })
  api.endpoint('/v1/products/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'product')),
  })
  api.endpoint('/v1/prices', {
    POST: route(({ params, context }) => createPrice(context, params)),
    GET: route(async ({ params }) => {
      onlyKnown(params, ['product', 'lookup_keys', 'limit', 'starting_after'])
      const product = text(params, 'product')
      const lookupKey = Array.isArray(params.lookup_keys) && typeof params.lookup_keys[0] === 'string' ? params.lookup_keys[0] : undefined
      const where = product ? fieldIs('product', product) : lookupKey ? fieldIs('lookup_key', lookupKey) : undefined
      return listObjects(db, { type: 'price', url: '/v1/prices', ...listParams(params), where })
    }),
  })
  api.endpoint('/v1/prices/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'price')),
  })

  api.endpoint('/v1/checkout/sessions', {
    POST: route(({ params, context }) => createCheckoutSession(context, params)),
    GET: route(async ({ params }) => {
      onlyKnown(params, ['payment_intent', 'customer', 'limit', 'starting_after'])
      const paymentIntent = text(params, 'payment_intent')
      const customer = text(params, 'customer')
      const where = paymentIntent ? fieldIs('payment_intent', paymentIntent) : customer ? fieldIs('customer', customer) : undefined
      const page = await listObjects(db, { type: 'checkout.session', url: '/v1/checkout/sessions', ...listParams(params), where })
      return { ...page, data: page.data.map(publicSession) }
    }),
  })
  api.endpoint('/v1/checkout/sessions/:id', {
    GET: route(({ c, context }) => retrieveCheckoutSession(context, id(c))),
  })
  api.endpoint('/v1/checkout/sessions/:id/expire', {
    POST: route(({ c, params, context }) => expireCheckoutSession(context, id(c), params)),
  })
  api.endpoint('/v1/checkout/sessions/:id/line_items', {
    GET: route(async ({ c, context }) => ({ object: 'list', url: `/v1/checkout/sessions/${id(c)}/line_items`, has_more: false, data: await lineItemsOf(context, id(c)) })),
  })

  api.endpoint('/v1/setup_intents/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'setup_intent')),
  })

  api.endpoint('/v1/subscriptions', {
    POST: route(({ params, context }) => createSubscription(context, params)),
    GET: route(async ({ params }) => {
      onlyKnown(params, ['customer', 'status', 'limit', 'starting_after'])
      const customer = text(params, 'customer')
      const status = text(params, 'status')
      const where = and(customer ? fieldIs('customer', customer) : undefined, status && status !== 'all' ? fieldIs('status', status) : undefined)
      return listObjects(db, { type: 'subscription', url: '/v1/subscriptions', ...listParams(params), where })
    }),
  })
  api.endpoint('/v1/subscriptions/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'subscription')),
    POST: route(({ c, params, context }) => updateSubscription(context, id(c), params)),
    DELETE: route(({ c, params, context }) => cancelSubscription(context, id(c), params)),
  })
  api.endpoint('/v1/invoices', {
    GET: route(async ({ params }) => {
      onlyKnown(params, ['customer', 'subscription', 'status', 'limit', 'starting_after'])
      const customer = text(params, 'customer')
      const subscription = text(params, 'subscription')
      const status = text(params, 'status')
      const where = and(
        customer ? fieldIs('customer', customer) : undefined,
        subscription ? pathIs(['parent', 'subscription_details', 'subscription'], subscription) : undefined,
        status ? fieldIs('status', status) : undefined,
      )
      return listObjects(db, { type: 'invoice', url: '/v1/invoices', ...listParams(params), where })
    }),
  })
  api.endpoint('/v1/invoices/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'invoice')),
  })
  api.endpoint('/v1/invoices/:id/pay', {
    POST: route(async ({ c, params, context }) => {
      const { invoice, cardError } = await payInvoice(context, id(c), params)
      return cardError ? errorAnswer(402, cardError) : invoice
    }),
  })
  api.endpoint('/v1/invoice_payments', {
    GET: route(({ params }) => listInvoicePayments(db, params)),
  })
  api.endpoint('/v1/invoice_payments/:id', {
    GET: route(({ c }) => getObject(db, id(c), 'invoice_payment')),
  })

  // Anything else under /v1/ is answered as Stripe answers an unknown URL.
  api.app.all('/v1/*', (c) =>
    c.json(
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${c.req.method}: ${c.req.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` } },
      404,
    ),
  )
}

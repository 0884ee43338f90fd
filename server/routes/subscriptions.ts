import { z } from 'zod'
import { authenticate, authenticateWithRole, roleOf, type Caller } from '#server/auth/authenticate.ts'
import { idParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { notFound, validationError } from '#server/http/errors.ts'
import { choiceField, idempotencyKeyField, idField, toFieldErrors } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { findProductViews } from '#server/products/repository.ts'
import { urlField } from '#server/purchases/input.ts'
import { PURCHASE_METHODS } from '#server/db/schema.ts'
import { countSubscriptionsOf, findSubscription, paymentsOf, subscriptionsPageOf, type SubscriptionRow } from '#server/subscriptions/repository.ts'
import { serializeSubscription } from '#server/subscriptions/serializers.ts'
import { CANCEL_AT, cancellationQuoteOf, cancelSubscription, payNextPeriod, resumeSubscription, startCardUpdate, startSubscription } from '#server/subscriptions/service.ts'
import type { Services } from '#server/services.ts'
import { enforceThrottle } from '#server/routes/throttling.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
const URL_REQUIRED_FOR_CARD = 'This field is required for a card payment.'

const createSchema = z.object({
  product_id: idField(),
  method: choiceField(PURCHASE_METHODS),
  idempotency_key: idempotencyKeyField(),
  success_url: urlField().optional(),
  cancel_url: urlField().optional(),
})

const cardSchema = z.object({ success_url: urlField(), cancel_url: urlField() })
/** `at`: within the 7 days `now` withdraws (refunded) and `period_end` keeps the period; left out, the withdrawal while it lasts (decision 0081). */
const cancelSchema = z.object({ at: choiceField(CANCEL_AT).optional() })

/**
 * Subscriptions (issue 24, decision 0052): thin handlers over server/subscriptions/service.ts.
 * Patients subscribe, cancel, resume, pay a PIX period and change a renewing card (decision 0055); anyone signed in reads their own (an
 * admin any); someone else's is a 404. Every answer is private, no-store. The periods' payments are
 * purchases (`/purchases/`), and Stripe's events come through the purchases' one webhook.
 */
export function registerSubscriptionRoutes(api: Api, services: Services): void {
  const { db, clock } = services

  async function visible(c: AppContext, caller: Caller, { adminReads }: { adminReads: boolean }): Promise<SubscriptionRow> {
    const subscription = await findSubscription(db, idParam(c, 'id'))
    if (!subscription || (subscription.userId !== caller.user.id && !(adminReads && roleOf(caller.groups) === 'admin'))) throw notFound()
    return subscription
  }

  async function view(subscription: SubscriptionRow) {
    const now = clock()
    const [[plan], payments, { quote }] = await Promise.all([findProductViews(db, [subscription.productId]), paymentsOf(db, subscription.id), cancellationQuoteOf(services, subscription, now)])
    return serializeSubscription(subscription, { plan: plan!.product, payments, quote, now })
  }

  api.endpoint('/subscriptions/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      const page = paginate(c, await countSubscriptionsOf(db, user.id))
      const rows = await subscriptionsPageOf(db, user.id, page)
      return c.json(page.envelope(await Promise.all(rows.map(view))), 200, PRIVATE)
    },
  })

  api.endpoint('/subscriptions/create/', {
    POST: async (c) => {
      const { user } = await authenticateWithRole(c, services, 'paciente')
      const parsed = createSchema.safeParse(await readFields(c.req.raw))
      if (!parsed.success) throw validationError(toFieldErrors(parsed.error) as Record<string, string[]>)
      const input = parsed.data
      if (input.method === 'card' && (!input.success_url || !input.cancel_url)) {
        throw validationError({ ...(!input.success_url && { success_url: [URL_REQUIRED_FOR_CARD] }), ...(!input.cancel_url && { cancel_url: [URL_REQUIRED_FOR_CARD] }) })
      }
      await enforceThrottle(services, 'purchasePerUser', String(user.id))
      const { subscription, created } = await startSubscription(
        services,
        { id: user.id, email: user.email },
        { productId: input.product_id, method: input.method, idempotencyKey: input.idempotency_key, successUrl: input.success_url ?? null, cancelUrl: input.cancel_url ?? null },
      )
      return c.json(await view((await findSubscription(db, subscription.id))!), created ? 201 : 200, PRIVATE)
    },
  })

  api.endpoint('/subscriptions/:id{[0-9]+}/', {
    GET: async (c) => c.json(await view(await visible(c, await authenticate(c, services), { adminReads: true })), 200, PRIVATE),
  })

  const action = (path: string, run: (subscription: SubscriptionRow, caller: Caller, c: AppContext) => Promise<unknown>) =>
    api.endpoint(`/subscriptions/:id{[0-9]+}/${path}/`, {
      POST: async (c) => {
        const caller = await authenticateWithRole(c, services, 'paciente')
        const subscription = await visible(c, caller, { adminReads: false })
        await enforceThrottle(services, 'purchasePerUser', String(caller.user.id))
        await run(subscription, caller, c)
        return c.json(await view((await findSubscription(db, subscription.id))!), 200, PRIVATE)
      },
    })
  action('cancel', async (subscription, _caller, c) => {
    const parsed = cancelSchema.safeParse(await readFields(c.req.raw))
    if (!parsed.success) throw validationError(toFieldErrors(parsed.error) as Record<string, string[]>)
    return cancelSubscription(services, subscription, parsed.data.at)
  })
  action('resume', (subscription) => resumeSubscription(services, subscription))
  action('pay-next', (subscription, caller) => payNextPeriod(services, subscription, { id: caller.user.id, email: caller.user.email }))

  /** Stripe's page to save a new card (`url`, valid until `expires_at`); the subscriber comes back to `success_url`. */
  api.endpoint('/subscriptions/:id{[0-9]+}/card/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente')
      const subscription = await visible(c, caller, { adminReads: false })
      const parsed = cardSchema.safeParse(await readFields(c.req.raw))
      if (!parsed.success) throw validationError(toFieldErrors(parsed.error) as Record<string, string[]>)
      await enforceThrottle(services, 'purchasePerUser', String(caller.user.id))
      const { url, expiresAt } = await startCardUpdate(services, subscription, { successUrl: parsed.data.success_url, cancelUrl: parsed.data.cancel_url })
      return c.json({ url, expires_at: new Date(expiresAt).toISOString() }, 201, PRIVATE)
    },
  })
}

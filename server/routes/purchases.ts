import { authenticate, authenticateWithRole, roleOf, type Caller } from '#server/auth/authenticate.ts'
import { idParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { z } from 'zod'
import { choiceField, idField, validate } from '#server/http/fields.ts'
import { PURCHASE_STATUSES } from '#server/db/schema.ts'
import { ApiError, apiError, notFound } from '#server/http/errors.ts'
import { findMaterialsDir, readMaterial } from '#server/products/materials.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { findProductViews } from '#server/products/repository.ts'
import { parseCreateInput } from '#server/purchases/input.ts'
import { cancelPurchase, renewPix } from '#server/billing/cancellation.ts'
import { createPurchase, PIX_LIFETIME_SECONDS } from '#server/billing/checkout.ts'
import { receiveWebhook } from '#server/billing/webhook.ts'
import { refreshPurchase } from '#server/billing/stripe-news.ts'
import { refundQuoteOf } from '#server/purchases/refunds.ts'
import {
  appointmentIdOf,
  countOwnedGrants,
  countPurchasesOf,
  creditsOfPurchases,
  findPurchase,
  findPurchaseByKey,
  itemsOf,
  ownedGrantsPage,
  purchasesPageOf,
  refundsOf,
  transitionsOf,
  type PurchaseRow,
} from '#server/purchases/repository.ts'
import { readItems } from '#server/purchases/consultation-lines.ts'
import { replacingPurchases } from '#server/purchases/replacements.ts'
import { CARD_REFUND_BILLING_CYCLES, PIX_REFUND_BUSINESS_DAYS, WITHDRAWAL_DAYS } from '#server/purchases/refund-rules.ts'
import { serializeOwnedProduct, serializePurchase, serializePurchaseDetail } from '#server/purchases/serializers.ts'
import type { Services } from '#server/services.ts'
import { enforceThrottle } from '#server/routes/throttling.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const productIdStatusQuery = z.object({ product_id: idField().optional(), status: choiceField(PURCHASE_STATUSES).optional() })
const productIdQuery = z.object({ product_id: idField() })

/**
 * Purchases (issue 24; docs/product.md §7, decision 0048): thin handlers over
 * server/billing/ (checkout, cancellation, stripe-news, webhook). Every answer is the caller's own (private, no-store); another
 * user's purchase is a 404, as if it did not exist (admins read any). Patients buy; any signed-in
 * user reads their own purchases and products. The webhook is Stripe's, signed, and needs no user.
 */
export function registerPurchaseRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services

  /** The purchase in the path, when the caller may see it (`adminReads`: an admin sees any). */
  async function visiblePurchase(c: AppContext, caller: Caller, { adminReads }: { adminReads: boolean }): Promise<PurchaseRow> {
    const purchase = await findPurchase(db, idParam(c, 'id'))
    if (!purchase) throw notFound()
    if (purchase.userId !== caller.user.id && !(adminReads && roleOf(caller.groups) === 'admin')) throw notFound()
    return purchase
  }

  /** One purchase for its caller: a consultation's line in the caller's time zone (decision 0077). */
  async function detail(c: AppContext, caller: Caller, purchase: PurchaseRow, status: 200 | 201 = 200) {
    const items = await itemsOf(db, [purchase.id])
    const [transitions, refunds, quote, appointmentId, read, replacing] = await Promise.all([
      transitionsOf(db, purchase.id),
      refundsOf(db, purchase.id),
      refundQuoteOf(services, purchase, items, clock()),
      purchase.holdsTime ? appointmentIdOf(db, purchase.id) : null,
      readItems(db, items, caller.user.timeZone),
      // The buyer's paid purchase that holds its course, material or program now, for one ended unpaid (decision 0076).
      replacingPurchases(db, [purchase], items),
    ])
    const replacedBy = replacing.get(purchase.id) ?? null
    return c.json(serializePurchaseDetail(purchase, { items: read, transitions, refunds, quote, appointmentId, replacedBy }), status, PRIVATE)
  }

  api.endpoint('/purchases/payment-methods/', {
    GET: async (c) => {
      await authenticate(c, services)
      return c.json(
        {
          available: Boolean(services.stripe),
          currency: 'BRL',
          withdrawal_days: WITHDRAWAL_DAYS,
          methods: [
            { method: 'card', flow: 'hosted_checkout', refund: { key: 'refunds.deadline.card', billing_cycles: CARD_REFUND_BILLING_CYCLES, business_days: null } },
            { method: 'pix', flow: 'pix_code', code_lifetime_seconds: PIX_LIFETIME_SECONDS, refund: { key: 'refunds.deadline.pix', billing_cycles: null, business_days: PIX_REFUND_BUSINESS_DAYS } },
          ],
        },
        200,
        PRIVATE,
      )
    },
  })

  api.endpoint('/purchases/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      // `?product_id=&status=pending`: the caller's open checkout of a product (its page says so, decision 0072).
      const query = { product_id: c.req.query('product_id')?.trim() || undefined, status: c.req.query('status')?.trim() || undefined }
      const { product_id: productId, status } = validate(productIdStatusQuery, query)
      const filter = { productId, status }
      const page = paginate(c, await countPurchasesOf(db, user.id, filter))
      const rows = await purchasesPageOf(db, user.id, page, filter)
      const stored = await itemsOf(db, rows.map((row) => row.id))
      const [items, replacedBy] = await Promise.all([readItems(db, stored, user.timeZone), replacingPurchases(db, rows, stored)])
      return c.json(page.envelope(rows.map((row) => serializePurchase(row, items.filter((item) => item.purchaseId === row.id), replacedBy.get(row.id) ?? null))), 200, PRIVATE)
    },
  })

  api.endpoint('/purchases/create/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente')
      const { user } = caller
      const input = parseCreateInput(await readFields(c.req.raw))
      // A repeat of a used key (a retry after a lost answer) is that purchase again and costs nothing, as a booking's (decision 0034).
      if (!(await findPurchaseByKey(db, user.id, input.idempotencyKey))) await enforceThrottle(services, 'purchasePerUser', String(user.id))
      const { purchase, created } = await createPurchase(services, { id: user.id, email: user.email }, input)
      return detail(c, caller, purchase, created ? 201 : 200)
    },
  })

  api.endpoint('/purchases/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      return detail(c, caller, await visiblePurchase(c, caller, { adminReads: true }))
    },
  })

  api.endpoint('/purchases/:id{[0-9]+}/refresh-status/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      return detail(c, caller, await refreshPurchase(services, await visiblePurchase(c, caller, { adminReads: true })))
    },
  })

  api.endpoint('/purchases/:id{[0-9]+}/cancel/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente')
      const purchase = await visiblePurchase(c, caller, { adminReads: false })
      await enforceThrottle(services, 'purchasePerUser', String(caller.user.id))
      return detail(c, caller, await cancelPurchase(services, purchase))
    },
  })

  api.endpoint('/purchases/:id{[0-9]+}/renew-pix/', {
    POST: async (c) => {
      const caller = await authenticateWithRole(c, services, 'paciente')
      const purchase = await visiblePurchase(c, caller, { adminReads: false })
      await enforceThrottle(services, 'purchasePerUser', String(caller.user.id))
      return detail(c, caller, await renewPix(services, purchase, { id: caller.user.id, email: caller.user.email }))
    },
  })

  // Stripe's events: the raw body as sent (the signature covers its bytes), no user.
  api.endpoint('/purchases/webhook/', {
    POST: async (c) => {
      let outcome: Awaited<ReturnType<typeof receiveWebhook>>
      try {
        outcome = await receiveWebhook(services, await c.req.text(), c.req.header('stripe-signature'))
      } catch (error) {
        // A bad signature is refused (400); anything else fails, and Stripe sends the event again.
        services.metrics.webhook(error instanceof ApiError && error.status === 400 ? 'refused' : 'failed')
        throw error
      }
      services.metrics.webhook(outcome)
      return c.json({ received: true, outcome }, 200, PRIVATE)
    },
  })

  api.endpoint('/products/my-products/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      // `?product_id=`: whether the caller has that product (a product's page asks).
      const raw = c.req.query('product_id')?.trim()
      const productId = raw ? validate(productIdQuery, { product_id: raw }).product_id : undefined
      const page = paginate(c, await countOwnedGrants(db, user.id, productId))
      const grants = await ownedGrantsPage(db, user.id, page, productId)
      const views = new Map((await findProductViews(db, [...new Set(grants.map((grant) => grant.productId))])).map((view) => [view.product.id, view]))
      const credits = await creditsOfPurchases(db, [...new Set(grants.map((grant) => grant.purchaseId))])
      const results = grants.flatMap((grant) => {
        const view = views.get(grant.productId)
        if (!view) return []
        const credit = credits.find((row) => row.purchaseId === grant.purchaseId && row.productId === grant.productId)
        return [serializeOwnedProduct(grant, view, credit, config.providerPublicUrl)]
      })
      return c.json(page.envelope(results), 200, PRIVATE)
    },
  })

  // A digital material's file, to its buyer only, from when it is available (decision 0056).
  const materials = findMaterialsDir()
  api.endpoint('/products/my-products/:id{[0-9]+}/download/', {
    GET: async (c) => {
      const { user } = await authenticate(c, services)
      const productId = idParam(c, 'id')
      const [grant] = await ownedGrantsPage(db, user.id, { limit: 1, offset: 0 }, productId)
      if (!grant || grant.kind !== 'material') throw notFound()
      if (grant.availableAt.getTime() > clock()) throw apiError(409, 'This material is not available yet.', { code: 'not_available_yet', available_at: grant.availableAt.toISOString() })
      const [view] = await findProductViews(db, [productId])
      const file = view && (await readMaterial(materials, view.product.slug))
      if (!file) throw notFound()
      return c.body(new Uint8Array(file), 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${view.product.slug}.pdf"`,
        'Content-Length': String(file.length),
        'Cache-Control': PRIVATE_NO_STORE,
        'X-Content-Type-Options': 'nosniff',
      })
    },
  })
}

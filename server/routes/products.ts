import { z } from 'zod'
import { eq } from 'drizzle-orm'
import { authenticate, authenticateWithRole, roleOf } from '#server/auth/authenticate.ts'
import { actorOf, changedFields } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import { readFields } from '#server/http/body.ts'
import { CART_MAX_LINES, MAX_PRICE_CENTS, PRODUCT_TYPES, products } from '#server/db/schema.ts'
import { idParam, pathParam, type AppContext, type Api } from '#server/http/api.ts'
import { notFound, validationError, type FieldErrors } from '#server/http/errors.ts'
import { charField, choiceField, idField, integerField, validate } from '#server/http/fields.ts'
import { PRIVATE_NO_STORE, paginate, requestedRows } from '#server/http/pagination.ts'
import { standingOf } from '#server/purchases/repository.ts'
import { countListedProducts, findListedProduct, findProductViews, listedCategories, listedProductsPage, listedProductsPageWithCount, type ProductFilter } from '#server/products/repository.ts'
import { serializeProduct } from '#server/products/serializers.ts'
import { MIN_PURCHASE_CENTS } from '#server/db/schema.ts'
import { pillarsInOrder } from '#server/questionnaire/repository.ts'
import type { Services } from '#server/services.ts'
import { findPillarByKey } from '#server/routes/pillars.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }

const invalidChoice = (value: string) => `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}" is not a valid choice.`

/** The filters' shapes; whether a category, pillar or pillar id exists is checked against the database after. */
const filterFields = {
  product_type: choiceField(PRODUCT_TYPES),
  category: charField({ maxLength: 40 }),
  pillar: charField({ maxLength: 50 }),
  pillar_id: idField(),
  // django-filter's "in" lookup: comma-separated ids, at most a cart's 20 (the cart page reads its products in one call).
  id__in: charField({ maxLength: 240 }),
}

type FilterName = keyof typeof filterFields

/** A price: Stripe's smallest charge in BRL (R$ 0,50) up to the shop's largest price. */
const priceChangeSchema = z.object({ price_cents: integerField({ min: MIN_PURCHASE_CENTS, max: MAX_PRICE_CENTS }) })

/** The most ids `id__in` takes: a cart's lines (CART_MAX_LINES). */
const MAX_IDS = CART_MAX_LINES

/**
 * The solutions catalogue (issue 24, decision 0045): public content, like the pillars. Anyone may
 * read it, signed in or not, and everyone reads the same answer: the Authorization header is not
 * looked at. Only active products are shown. Texts come in the three languages; the app picks one.
 */
export function registerProductRoutes(api: Api, services: Services): void {
  const { db, config } = services
  const photoBase = config.providerPublicUrl

  /**
   * The filters of a list, as django-filter reads them: an empty value is no filter, and every
   * problem is told at once as a field error. `names`: the filters this list takes.
   */
  async function filterOf(c: AppContext, names: FilterName[]): Promise<ProductFilter> {
    // Each filter on its own, so one bad value does not hide another's problem.
    const errors: FieldErrors = {}
    const input: { [Name in FilterName]?: z.output<(typeof filterFields)[Name]> } = {}
    for (const name of names) {
      const value = c.req.query(name)?.trim() || undefined
      if (value === undefined) continue
      const parsed = filterFields[name].safeParse(value)
      if (parsed.success) Object.assign(input, { [name]: parsed.data })
      else errors[name] = parsed.error.issues.map((issue) => issue.message)
    }
    const filter: ProductFilter = {}
    if (input.product_type) filter.productType = input.product_type
    if (input.id__in !== undefined) {
      const ids = input.id__in.split(',').map((part) => idField().safeParse(part.trim()))
      if (ids.length > MAX_IDS) errors.id__in = [`Ensure this field has no more than ${MAX_IDS} elements.`]
      else if (ids.some((id) => !id.success)) errors.id__in = ['Enter a whole number.']
      else filter.ids = ids.map((id) => id.data as number)
    }
    if (input.category !== undefined) {
      if ((await listedCategories(db)).includes(input.category)) filter.category = input.category
      else errors.category = [invalidChoice(input.category)]
    }
    if (input.pillar !== undefined || input.pillar_id !== undefined) {
      const known = await pillarsInOrder(db)
      if (input.pillar !== undefined) {
        if (known.some((pillar) => pillar.slug === input.pillar)) filter.pillarSlug = input.pillar
        else errors.pillar = [invalidChoice(input.pillar)]
      }
      if (input.pillar_id !== undefined) {
        if (known.some((pillar) => pillar.id === input.pillar_id)) filter.pillarId = input.pillar_id
        else errors.pillar_id = [`Invalid pk "${input.pillar_id}" - object does not exist.`]
      }
    }
    if (Object.keys(errors).length > 0) throw validationError(errors)
    return filter
  }

  /** A DRF page of the listed products the filter keeps, in the shop's order. */
  /** A page and its count in one statement (the catalogue, on every visit); past the end, "last" or a bad page number, the count first and paginate decides. */
  async function pageOf(c: AppContext, filter: ProductFilter) {
    const wanted = requestedRows(c)
    const found = wanted ? await listedProductsPageWithCount(db, filter, wanted) : undefined
    if (found?.total !== undefined) return c.json(paginate(c, found.total).envelope(found.views.map((view) => serializeProduct(view, photoBase))))
    const page = paginate(c, await countListedProducts(db, filter))
    const views = await listedProductsPage(db, filter, page)
    return c.json(page.envelope(views.map((view) => serializeProduct(view, photoBase))))
  }

  api.endpoint('/products/', {
    GET: async (c) => pageOf(c, await filterOf(c, ['product_type', 'category', 'pillar', 'pillar_id', 'id__in'])),
  })

  api.endpoint('/products/:id{[0-9]+}/', {
    /**
     * Public. With a bearer token (the product's page for someone signed in) the answer adds the
     * caller's `viewer` standing, in the same call (decision 0095): a patient's `owned` (in force)
     * and `open_purchase_id` (their newest payment of it still open, decision 0072); null for
     * anyone else. Then it is private to the caller.
     */
    GET: async (c) => {
      const id = idParam(c, 'id')
      const caller = c.req.header('authorization') === undefined ? null : await authenticate(c, services)
      const [view, standing] = await Promise.all([
        findListedProduct(db, id),
        caller && roleOf(caller.groups) === 'paciente' ? standingOf(db, caller.user.id, id) : null,
      ])
      if (!view) throw notFound()
      if (!caller) return c.json(serializeProduct(view, photoBase))
      const viewer = standing && { owned: standing.owned, open_purchase_id: standing.openPurchaseId }
      return c.json({ ...serializeProduct(view, photoBase), viewer }, 200, PRIVATE)
    },
    /**
     * An admin changes a product's price (decision 0053): new buyers pay it at once; a plan's live
     * subscribers are told by the subscriptions' tick and pay it from the renewal its notice allows.
     * Inactive products too (they may come back). Everyone else: 401/403.
     */
    PATCH: async (c) => {
      const caller = await authenticateWithRole(c, services, 'admin')
      const id = idParam(c, 'id')
      const { price_cents: priceCents } = validate(priceChangeSchema, await readFields(c.req.raw))
      const now = services.clock()
      // The change and its audit entry (product.price, before and after) together, under the row's lock.
      await db.transaction(async (tx) => {
        const [before] = await tx.select({ priceCents: products.priceCents }).from(products).where(eq(products.id, id)).for('update')
        if (!before) throw notFound()
        await tx.update(products).set({ priceCents, updatedAt: new Date(now) }).where(eq(products.id, id))
        const change = changedFields({ price_cents: before.priceCents }, { price_cents: priceCents })
        await recordAudit(tx, { ...actorOf(caller), action: 'product.price', targetType: 'product', targetId: id, ...change, at: now })
      })
      const [view] = await findProductViews(db, [id])
      return c.json(serializeProduct(view!, photoBase))
    },
  })

  // The pillar as /pillars/{id or slug}/ names it; the list takes the other filters.
  api.endpoint('/pillars/:key/products/', {
    GET: async (c) => {
      const pillar = await findPillarByKey(db, pathParam(c, 'key'))
      if (!pillar) throw notFound()
      return pageOf(c, { ...(await filterOf(c, ['product_type', 'category'])), pillarSlug: pillar.slug })
    },
  })
}

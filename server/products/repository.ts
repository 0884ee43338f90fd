import { and, asc, count, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { pillars, products, professionalProfiles, users, type ProductType } from '#server/db/schema.ts'

export type ProductRow = typeof products.$inferSelect

/** The named professional of a package, as the catalogue shows them. */
type ProductProfessional = { id: number; firstName: string; lastName: string; photoName: string | null; profession: string }
/** A product with what its answer names beside it: its pillar's id and its professional. */
export type ProductView = { product: ProductRow; pillarId: number | null; professional: ProductProfessional | null }

/** The catalogue's filters, already validated: each narrows the list, all of them together. */
/** `ids`: only these products (a cart's, at most 20), in the shop's order like any list. */
export type ProductFilter = { productType?: ProductType; category?: string; pillarSlug?: string; pillarId?: number; ids?: readonly number[] }

/**
 * What the public catalogue shows: active products, and of the packages with a named
 * professional only those whose professional can still be seen (an active account).
 */
const listed = or(isNull(products.professionalId), eq(users.isActive, true))!

function filterCondition({ productType, category, pillarSlug, pillarId, ids }: ProductFilter): SQL {
  const conditions: SQL[] = [eq(products.active, true), listed]
  if (productType) conditions.push(eq(products.productType, productType))
  if (category) conditions.push(eq(products.category, category))
  if (pillarSlug) conditions.push(eq(products.pillarSlug, pillarSlug))
  if (pillarId !== undefined) conditions.push(eq(pillars.id, pillarId))
  if (ids) conditions.push(ids.length > 0 ? inArray(products.id, [...ids]) : sql`false`)
  return and(...conditions)!
}

const viewColumns = {
  product: products,
  pillarId: pillars.id,
  professional: {
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    photoName: users.photoName,
    profession: professionalProfiles.profession,
  },
}

/** One statement reads a product with its pillar and professional (both optional). */
/** The listed products' views, with `extra` columns beside them when asked (a window's count). */
function selectViews<Extra extends Record<string, SQL> = Record<never, never>>(db: Database, extra?: Extra) {
  return db
    .select({ ...viewColumns, ...(extra as Extra) })
    .from(products)
    .leftJoin(pillars, eq(pillars.slug, products.pillarSlug))
    .leftJoin(users, eq(users.id, products.professionalId))
    .leftJoin(professionalProfiles, eq(professionalProfiles.userId, products.professionalId))
}

type SelectedView = { product: ProductRow; pillarId: number | null; professional: { id: number | null; firstName: string | null; lastName: string | null; photoName: string | null; profession: string | null } | null }

function toView({ product, pillarId, professional }: SelectedView): ProductView {
  return {
    product,
    pillarId,
    professional:
      product.professionalId === null || !professional || professional.id === null
        ? null
        : {
            id: professional.id,
            firstName: professional.firstName ?? '',
            lastName: professional.lastName ?? '',
            photoName: professional.photoName,
            profession: professional.profession ?? '',
          },
  }
}

/** How many listed products the filter keeps. */
export async function countListedProducts(db: Database, filter: ProductFilter): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(products)
    .leftJoin(pillars, eq(pillars.slug, products.pillarSlug))
    .leftJoin(users, eq(users.id, products.professionalId))
    .where(filterCondition(filter))
  return Number(row?.total ?? 0)
}

/** A page of the listed products the filter keeps, in the shop's order (sort order, then id: stable across pages). */
export async function listedProductsPage(db: Database, filter: ProductFilter, { limit, offset }: { limit: number; offset: number }): Promise<ProductView[]> {
  const rows = await selectViews(db).where(filterCondition(filter)).orderBy(asc(products.sortOrder), asc(products.id)).limit(limit).offset(offset)
  return rows.map(toView)
}

/**
 * listedProductsPage and how many products the filter keeps, in one statement (the count a window,
 * taken before LIMIT). `total` is undefined when the page has no rows (past the end): then
 * countListedProducts says how many, and the page number is judged on that.
 */
export async function listedProductsPageWithCount(db: Database, filter: ProductFilter, { limit, offset }: { limit: number; offset: number }): Promise<{ views: ProductView[]; total: number | undefined }> {
  const rows = await selectViews(db, { total: sql<number>`count(*) over ()` })
    .where(filterCondition(filter))
    .orderBy(asc(products.sortOrder), asc(products.id))
    .limit(limit)
    .offset(offset)
  return { views: rows.map(toView), total: rows[0] ? Number(rows[0].total) : undefined }
}

/** A listed product by id; an inactive one, or one whose professional is gone, is as good as missing. */
export async function findListedProduct(db: Database, id: number): Promise<ProductView | undefined> {
  const [row] = await selectViews(db).where(and(eq(products.id, id), filterCondition({})))
  return row ? toView(row) : undefined
}

/** The listed products among these ids (a purchase's: unknown, inactive and hidden ones are left out), in no order. */
export async function findListedProducts(db: Database, ids: number[]): Promise<ProductView[]> {
  if (ids.length === 0) return []
  const rows = await selectViews(db).where(and(inArray(products.id, ids), filterCondition({})))
  return rows.map(toView)
}

/** Products by id whatever their state (a purchase's items, shown after the product left the catalogue). */
export async function findProductViews(db: Database, ids: number[]): Promise<ProductView[]> {
  if (ids.length === 0) return []
  return (await selectViews(db).where(inArray(products.id, ids))).map(toView)
}

/** The categories the public catalogue has: the choices of its `category` filter. */
export async function listedCategories(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({ category: products.category })
    .from(products)
    .leftJoin(users, eq(users.id, products.professionalId))
    .where(filterCondition({}))
    .orderBy(asc(products.category))
  return rows.map((row) => row.category)
}

import { and, asc, eq, max } from 'drizzle-orm'
import { z } from 'zod'
import type { Caller } from '#server/auth/authenticate.ts'
import { actorOf, changedFields } from '#server/audit/entries.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Database, Writer } from '#server/db/client.ts'
import { databaseError, UNIQUE_VIOLATION } from '#server/db/errors.ts'
import {
  courses,
  MAX_PRICE_CENTS,
  PACKAGE_SIZES,
  PLAN_INTERVALS,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_TYPES,
  products,
  professionalProfiles,
  SLUG_PATTERN,
  SORT_ORDER_MAX,
  users,
  type LocalizedText,
  type PlanInterval,
  type ProductType,
} from '#server/db/schema.ts'
import { ApiError, notFound, validationError, type FieldErrors } from '#server/http/errors.ts'
import { booleanField, charField, choiceField, idField, integerField } from '#server/http/fields.ts'
import { MIN_PURCHASE_CENTS } from '#server/db/schema.ts'
import { validateContent } from '#server/content/catalogue-fields.ts'
import { discardDraft, listDrafts, readDraft, saveDraft, type ContentDraft } from '#server/content/drafts.ts'
import { draftTextField, requireAllLanguages } from '#server/content/languages.ts'

/** A text of a draft: a language, or the whole text, may be missing (empty). */
const draftText = (maxLength: number) => draftTextField(maxLength).default({ pt: '', en: '', es: '' })

/**
 * The solutions catalogue in the admin content editor (decision 0065, on 0064's drafts). An
 * existing product's name, description, category, pillar, place in the list and whether it is on
 * sale go through a draft; its price keeps its own form and rule (decision 0053). A new product's
 * draft, named by its slug, also holds its type, the type's fields and its price; publishing it
 * inserts the row, the database's CHECKs and unique index having the last word.
 */

const PRODUCT_SLUG_MAX = 80
const CATEGORY_MAX = 40
const SLUG = new RegExp(SLUG_PATTERN)
/**
 * Types an admin may create here (decision 0065). A course's product starts off sale and goes on
 * sale once a course sells through it (the course editor links them); a material's product comes
 * with a file the editor cannot make.
 */
const CREATABLE_TYPES = ['consultation_package', 'program', 'subscription', 'course'] as const satisfies readonly ProductType[]
const COURSE_NOT_LINKED = 'Link a course to this product (the course editor) before putting it on sale.'

const SLUG_MESSAGE = 'Enter a valid "slug": lowercase letters and digits in words joined by single hyphens.'
const REQUIRED = 'This field is required.'

/** A value left out, null or blank is absent: a draft may hold any part of the form. */
const optional = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value), schema.optional())

const slugText = (maxLength: number) => charField({ maxLength }).regex(SLUG, SLUG_MESSAGE)

const productDraftSchema = z.object({
  name: draftText(PRODUCT_NAME_MAX),
  description: draftText(PRODUCT_DESCRIPTION_MAX),
  category: optional(slugText(CATEGORY_MAX)),
  pillar: optional(slugText(50)),
  sort_order: optional(integerField({ min: 0, max: SORT_ORDER_MAX })),
  active: optional(booleanField()),
  // A new product's: its type and the type's fields, and its first price.
  product_type: optional(choiceField(PRODUCT_TYPES)),
  price_cents: optional(integerField({ min: MIN_PURCHASE_CENTS, max: MAX_PRICE_CENTS })),
  consultations: optional(integerField({ min: 1, max: 8 })),
  professional_id: optional(idField()),
  weeks: optional(integerField({ min: 8, max: 12 })),
  plan_interval: optional(choiceField(PLAN_INTERVALS)),
  trial_days: optional(integerField({ min: 0, max: 90 })),
})
type ProductDraft = z.output<typeof productDraftSchema>

/** The fields that make a draft a new product's. */
const CREATION_FIELDS = ['product_type', 'price_cents', 'consultations', 'professional_id', 'weeks', 'plan_interval', 'trial_days'] as const

type ProductRow = typeof products.$inferSelect

const localized = (text: LocalizedText): LocalizedText => ({ pt: text.pt, en: text.en, es: text.es })

/** A product as the editor shows it: every field, on sale or not. */
const serializeAdminProduct = (product: ProductRow) => ({
  id: product.id,
  slug: product.slug,
  product_type: product.productType,
  category: product.category,
  pillar: product.pillarSlug,
  name: localized(product.name),
  description: localized(product.description),
  price_cents: product.priceCents,
  active: product.active,
  sort_order: product.sortOrder,
  consultations: product.consultations,
  professional_id: product.professionalId,
  weeks: product.weeks,
  plan_interval: product.planInterval,
  trial_days: product.trialDays,
})

/** What a publish of an existing product may change, as the audit log records it. */
const editable = (product: ProductRow) => ({
  name: localized(product.name),
  description: localized(product.description),
  category: product.category,
  pillar: product.pillarSlug,
  sort_order: product.sortOrder,
  active: product.active,
})

const draftBody = (body: ProductDraft): Record<string, unknown> => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined))
const serializeDraft = (draft: ContentDraft) => ({ ...draftBody(productDraftSchema.parse(draft.body)), updated_at: draft.updatedAt.toISOString() })

/** A product's key is its slug: anything else names nothing. */
function checkKey(slug: string): void {
  if (slug.length > PRODUCT_SLUG_MAX || !SLUG.test(slug)) throw notFound()
}

async function findProduct(db: Writer, slug: string, lock = false): Promise<ProductRow | undefined> {
  const query = db.select().from(products).where(eq(products.slug, slug))
  const [row] = lock ? await query.for('update') : await query
  return row
}

const isCreation = (body: ProductDraft) => body.product_type !== undefined

/** Every product, on sale or not, in the shop's order, each with its draft's time; and the drafts of products not yet published. */
export async function listAdminProducts(db: Database) {
  const [rows, drafts] = await Promise.all([db.select().from(products).orderBy(asc(products.sortOrder), asc(products.id)), listDrafts(db, 'product')])
  const draftOf = new Map(drafts.map((draft) => [draft.key, draft]))
  const slugs = new Set(rows.map((row) => row.slug))
  return {
    results: rows.map((row) => {
      const draft = draftOf.get(row.slug)
      return { ...serializeAdminProduct(row), draft: draft ? { updated_at: draft.updatedAt.toISOString() } : null }
    }),
    new_drafts: drafts.filter((draft) => !slugs.has(draft.key)).map((draft) => ({ key: draft.key, ...serializeDraft(draft) })),
  }
}

/** One product and its draft; a 404 when there is neither. */
export async function adminProduct(db: Database, slug: string) {
  checkKey(slug)
  const [row, draft] = await Promise.all([findProduct(db, slug), readDraft(db, 'product', slug)])
  if (!row && !draft) throw notFound()
  return { published: row ? serializeAdminProduct(row) : null, draft: draft ? serializeDraft(draft) : null }
}

/**
 * The draft a body makes: an existing product's keeps only what may change (a new product's
 * fields there are a mistake: 400 on `slug`, the name is taken); a new product's names its type.
 */
async function draftFor(db: Database, slug: string, input: unknown): Promise<ProductDraft> {
  checkKey(slug)
  const body = validateContent(productDraftSchema, input)
  const exists = Boolean(await findProduct(db, slug))
  if (exists && isCreation(body)) throw slugTaken()
  if (!exists && !isCreation(body)) throw validationError({ product_type: [REQUIRED] })
  if (exists) for (const field of CREATION_FIELDS) delete body[field]
  return body
}

const slugTaken = () => validationError({ slug: ['A product with this slug already exists.'] })

/** Saves a product's draft (languages may be empty; a new product's draft needs its type). */
export async function saveProductDraft(db: Database, caller: Caller, slug: string, input: unknown, now: number) {
  const body = await draftFor(db, slug, input)
  return serializeDraft(await saveDraft(db, 'product', slug, draftBody(body), caller.user.id, now))
}

/** Discards a product's draft, audited; a 404 when there is none. */
export async function discardProductDraft(db: Database, caller: Caller, slug: string, now: number): Promise<void> {
  checkKey(slug)
  await db.transaction(async (tx) => {
    if (!(await discardDraft(tx, 'product', slug))) throw notFound()
    await recordAudit(tx, { ...actorOf(caller), action: 'product.discard', targetType: 'product', targetId: slug, at: now })
  })
}

/** The columns of a new product from a complete draft, or a 400 naming every missing or impossible field. */
function newProductColumns(slug: string, body: ProductDraft): Omit<typeof products.$inferInsert, 'id' | 'createdAt' | 'updatedAt' | 'sortOrder'> & { sortOrder?: number } {
  const errors: FieldErrors = {}
  const need = <Value>(field: string, value: Value | undefined): Value | null => {
    if (value === undefined) errors[field] = [REQUIRED]
    return value ?? null
  }
  const type = body.product_type!
  if (!(CREATABLE_TYPES as readonly string[]).includes(type)) errors.product_type = ['Digital materials are created with their file, not here.']
  const category = need('category', body.category)
  const priceCents = need('price_cents', body.price_cents)
  let consultations: number | null = null
  let weeks: number | null = null
  let planInterval: PlanInterval | null = null
  let trialDays: number | null = null
  if (type === 'consultation_package') {
    consultations = need('consultations', body.consultations)
    if (consultations !== null && !(PACKAGE_SIZES as readonly number[]).includes(consultations)) errors.consultations = [`"${consultations}" is not a valid choice.`]
  }
  if (type === 'program') weeks = need('weeks', body.weeks)
  if (type === 'subscription') {
    planInterval = need('plan_interval', body.plan_interval)
    trialDays = need('trial_days', body.trial_days)
    if (planInterval === 'trial' && trialDays === 0) errors.trial_days = ['Ensure this value is greater than or equal to 1.']
    if (planInterval === 'program') weeks = need('weeks', body.weeks)
  }
  if (Object.keys(errors).length > 0) throw validationError(errors)
  return {
    slug,
    productType: type,
    category: category!,
    pillarSlug: body.pillar ?? null,
    name: { pt: '', en: '', es: '' },
    description: { pt: '', en: '', es: '' },
    priceCents: priceCents!,
    // A course's product sells nothing until a course is linked to it.
    active: type === 'course' ? false : (body.active ?? true),
    sortOrder: body.sort_order,
    consultations,
    professionalId: type === 'consultation_package' ? (body.professional_id ?? null) : null,
    weeks,
    planInterval,
    trialDays,
  }
}

const CHECK_VIOLATION = '23514'
const FOREIGN_KEY_VIOLATION = '23503'

/** Which field a refused write is about: the constraint the database named. */
const CONSTRAINT_FIELDS: Record<string, string> = {
  products_slug_unique: 'slug',
  products_slug_check: 'slug',
  products_category_check: 'category',
  products_price_check: 'price_cents',
  products_sort_order_check: 'sort_order',
  products_consultations_check: 'consultations',
  products_professional_check: 'professional_id',
  products_plan_check: 'plan_interval',
  products_weeks_check: 'weeks',
  products_name_check: 'name',
  products_description_check: 'description',
  products_pillar_slug_pillars_slug_fk: 'pillar',
  products_professional_id_users_id_fk: 'professional_id',
}

/** A database refusal of a product's write as a 400 on its field; anything else is rethrown. */
function refusalOf(error: unknown): never {
  const found = databaseError(error)
  if (found?.code === UNIQUE_VIOLATION) throw slugTaken()
  if (found && (found.code === CHECK_VIOLATION || found.code === FOREIGN_KEY_VIOLATION)) {
    const field = (found.constraint && CONSTRAINT_FIELDS[found.constraint]) || 'non_field_errors'
    throw validationError({ [field]: [found.code === FOREIGN_KEY_VIOLATION ? 'Select a valid choice. That choice is not one of the available choices.' : 'This value is not allowed for this product.'] })
  }
  throw error
}

/** A consultation package's named professional must be an accredited professional with an active account. */
async function checkProfessional(db: Writer, id: number | null): Promise<void> {
  if (id === null) return
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(professionalProfiles, eq(professionalProfiles.userId, users.id))
    .where(and(eq(users.id, id), eq(users.isActive, true), eq(professionalProfiles.accredited, true)))
  if (!row) throw validationError({ professional_id: [`Invalid pk "${id}" - object does not exist.`] })
}

/**
 * Publishes a product's draft: the form is saved as the draft first (nothing typed is lost), then,
 * in one transaction, every language is required, the row updated (or, for a new product,
 * inserted), the draft removed and the change audited. A refusal by the database (a taken slug,
 * an impossible combination, an unknown pillar) is a 400 on its field, the draft kept.
 */
export async function publishProduct(db: Database, caller: Caller, slug: string, input: unknown, now: number): Promise<{ product: ReturnType<typeof serializeAdminProduct>; created: boolean }> {
  const body = await draftFor(db, slug, input)
  await saveDraft(db, 'product', slug, draftBody(body), caller.user.id, now)
  try {
    return await db.transaction(async (tx) => {
      const texts = requireAllLanguages({ name: body.name, description: body.description })
      if (isCreation(body)) {
        const columns = newProductColumns(slug, body)
        await checkProfessional(tx, columns.professionalId ?? null)
        const sortOrder = columns.sortOrder ?? Math.min(((await tx.select({ last: max(products.sortOrder) }).from(products))[0]?.last ?? 0) + 10, SORT_ORDER_MAX)
        const [row] = await tx
          .insert(products)
          .values({ ...columns, sortOrder, name: texts.name, description: texts.description, updatedAt: new Date(now) })
          .returning()
        await discardDraft(tx, 'product', slug)
        const after = serializeAdminProduct(row!)
        const recorded: Record<string, unknown> = { ...after }
        delete recorded.id
        await recordAudit(tx, { ...actorOf(caller), action: 'product.create', targetType: 'product', targetId: row!.id, before: null, after: recorded, at: now })
        return { product: after, created: true }
      }
      const before = await findProduct(tx, slug, true)
      if (!before) throw notFound()
      if (body.category === undefined) throw validationError({ category: [REQUIRED] })
      const active = body.active ?? before.active
      if (before.productType === 'course' && active && !before.active) {
        const [linked] = await tx.select({ id: courses.id }).from(courses).where(eq(courses.productId, before.id))
        if (!linked) throw validationError({ active: [COURSE_NOT_LINKED] })
      }
      const [row] = await tx
        .update(products)
        .set({
          name: texts.name,
          description: texts.description,
          category: body.category,
          pillarSlug: body.pillar ?? null,
          sortOrder: body.sort_order ?? before.sortOrder,
          active,
          updatedAt: new Date(now),
        })
        .where(eq(products.id, before.id))
        .returning()
      await discardDraft(tx, 'product', slug)
      await recordAudit(tx, { ...actorOf(caller), action: 'product.publish', targetType: 'product', targetId: before.id, ...changedFields(editable(before), editable(row!)), at: now })
      return { product: serializeAdminProduct(row!), created: false }
    })
  } catch (error) {
    if (error instanceof ApiError) throw error
    return refusalOf(error)
  }
}

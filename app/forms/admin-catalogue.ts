import { z } from 'zod'
import { type Cents, MONEY_INPUT_MAX_LENGTH, parseMoney } from '#app/domain/money.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { contentIntentField, languagesBeforePublishing, localizedDraftField, SORT_ORDER_MAX } from './localized-text.ts'
import { MAX_PRICE_CENTS, MIN_PRICE_CENTS } from './product-price-form.ts'

/**
 * The catalogue's editor forms (decision 0065): a pillar's texts, a product's texts and shelf, and
 * a new product's slug, type and price. Used by the server and, deferred, the browser
 * (forms/form-validation.ts). A draft may leave a language empty; "publish" needs them all.
 */

const PILLAR_NAME_MAX = 60
const PILLAR_DESCRIPTION_MAX = 2000
const PRODUCT_NAME_MAX = 120
const PRODUCT_DESCRIPTION_MAX = 2000
const PRODUCT_SLUG_MAX = 80
const CATEGORY_MAX = 40
/** The types a product may be created as here (a course's starts off sale: a course is linked to it first); materials come with a file this editor cannot make. */
export const CREATABLE_TYPES = ['consultation_package', 'program', 'subscription', 'course'] as const
type CreatableType = (typeof CREATABLE_TYPES)[number]
const PACKAGE_SIZES = ['1', '4', '8'] as const
const PLAN_INTERVALS = ['monthly', 'yearly', 'trial', 'program'] as const
/** `/admin/products/new` is the creation page: no product may take that slug. */
const RESERVED_SLUGS = ['new']

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/
const NS = 'admin-catalogue:validation'

const slugText = (maxLength: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(maxLength, { error: message })
    .regex(SLUG, { error: message })

const wholeNumber = (min: number, max: number, message: string) => z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message })

export const adminPillarSchema = z
  .object({
    intent: contentIntentField(),
    name: localizedDraftField(PILLAR_NAME_MAX),
    description: localizedDraftField(PILLAR_DESCRIPTION_MAX),
  })
  .superRefine(languagesBeforePublishing(['name', 'description']))

/** A price as people type it ("99,90", "R$ 1.234,56"), from R$ 0,50 to R$ 100.000,00. */
const priceField = () =>
  z
    .string({ error: 'admin:products.validation.price' })
    .max(MONEY_INPUT_MAX_LENGTH, { error: 'admin:products.validation.price' })
    .transform((text, context) => {
      const cents = parseMoney(text)
      if (cents === undefined || cents < MIN_PRICE_CENTS || cents > MAX_PRICE_CENTS) {
        context.addIssue({ code: 'custom', message: 'admin:products.validation.price' })
        return z.NEVER
      }
      return cents as Cents
    })

/**
 * A new product's type and the type's fields: consultations (1, 4 or 8) and maybe a professional
 * for a package; 8 to 12 weeks for a program; a plan's interval and trial days (and weeks for a
 * program's plan). Fields of another type are dropped.
 */
const typeFields = {
  product_type: z.enum(CREATABLE_TYPES, { error: `${NS}.type` }),
  consultations: z.enum(PACKAGE_SIZES, { error: `${NS}.consultations` }).optional(),
  professional_id: z.coerce.number({ error: `${NS}.professional` }).int().positive().max(2_147_483_647).optional(),
  weeks: wholeNumber(8, 12, `${NS}.weeks`).optional(),
  plan_interval: z.enum(PLAN_INTERVALS, { error: `${NS}.interval` }).optional(),
  trial_days: wholeNumber(0, 90, `${NS}.trialDays`).optional(),
  price: priceField(),
}

type TypeValues = { product_type?: CreatableType; consultations?: string; weeks?: number; plan_interval?: string; trial_days?: number }

/** Each type's required fields, on their inputs. */
function requireTypeFields(value: TypeValues, context: z.RefinementCtx) {
  const need = (field: keyof TypeValues, message: string) => {
    if (value[field] === undefined) context.addIssue({ code: 'custom', path: [field], message })
  }
  if (value.product_type === 'consultation_package') need('consultations', `${NS}.consultations`)
  if (value.product_type === 'program') need('weeks', `${NS}.weeks`)
  if (value.product_type === 'subscription') {
    need('plan_interval', `${NS}.interval`)
    need('trial_days', `${NS}.trialDays`)
    if (value.plan_interval === 'program') need('weeks', `${NS}.weeks`)
    if (value.plan_interval === 'trial' && value.trial_days === 0) context.addIssue({ code: 'custom', path: ['trial_days'], message: `${NS}.trialDaysForTrial` })
  }
}

export const adminNewProductSchema = z
  .object({
    slug: slugText(PRODUCT_SLUG_MAX, `${NS}.slug`).refine((slug) => !RESERVED_SLUGS.includes(slug), { error: `${NS}.slugTaken` }),
    ...typeFields,
  })
  .superRefine(requireTypeFields)

/**
 * A product's editor: its texts, its shelf (category), its pillar, its place in the list and
 * whether it is on sale; for a product not yet published, also its type's fields and price.
 */
export const adminProductSchema = z
  .object({
    intent: contentIntentField(),
    name: localizedDraftField(PRODUCT_NAME_MAX),
    description: localizedDraftField(PRODUCT_DESCRIPTION_MAX),
    category: slugText(CATEGORY_MAX, `${NS}.category`).optional(),
    pillar: z.enum(PILLAR_ORDER, { error: `${NS}.pillar` }).optional(),
    sort_order: wholeNumber(0, SORT_ORDER_MAX, `${NS}.sortOrder`).optional(),
    active: z.enum(['on']).optional(),
    // Only in a new product's form (its draft named the type).
    product_type: typeFields.product_type.optional(),
    consultations: typeFields.consultations,
    professional_id: typeFields.professional_id,
    weeks: typeFields.weeks,
    plan_interval: typeFields.plan_interval,
    trial_days: typeFields.trial_days,
    price: priceField().optional(),
  })
  .superRefine(languagesBeforePublishing(['name', 'description']))
  .superRefine((value, context) => {
    if (value.intent === 'publish' && value.category === undefined) context.addIssue({ code: 'custom', path: ['category'], message: `${NS}.category` })
    if (value.product_type === undefined) return
    requireTypeFields(value, context)
    if (value.price === undefined) context.addIssue({ code: 'custom', path: ['price'], message: 'admin:products.validation.price' })
  })

export type NewProductValues = z.output<typeof adminNewProductSchema>
export type ProductValues = z.output<typeof adminProductSchema>

/** What the provider keeps of a new product's type fields: only the type's own, as numbers. */
export function typeFieldsBody(value: Partial<Omit<NewProductValues, 'slug'>>) {
  const type = value.product_type
  return {
    product_type: type,
    price_cents: value.price,
    consultations: type === 'consultation_package' && value.consultations ? Number(value.consultations) : undefined,
    professional_id: type === 'consultation_package' ? value.professional_id : undefined,
    weeks: type === 'program' || (type === 'subscription' && value.plan_interval === 'program') ? value.weeks : undefined,
    plan_interval: type === 'subscription' ? value.plan_interval : undefined,
    trial_days: type === 'subscription' ? value.trial_days : undefined,
  }
}

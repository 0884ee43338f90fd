import { type Submission, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { type z } from 'zod'
import { type AdminProduct, type ProductDraft } from '#app/provider/admin-catalogue-schemas.ts'
import { type ProductValues, typeFieldsBody } from '#app/forms/admin-catalogue.ts'
import { MISSING_LANGUAGE_KEY, MISSING_LANGUAGES_KEY } from '#app/forms/localized-text.ts'
import { localizedFieldTargets } from './localized-text.server.ts'
import { type FieldTarget, replyToFailure } from '#app/utils/provider-reply.server.ts'

/**
 * The catalogue editor's actions (decision 0065), shared by the pillar and product pages: a
 * publish refused for a missing language still keeps what was typed as the draft (decision 0064),
 * and every refusal comes back with what was typed and the reason beside its field.
 */

/** The form as if another button had been pressed. */
function withIntent(formData: FormData, intent: 'save' | 'publish'): FormData {
  const copy = new FormData()
  for (const [name, value] of formData) if (name !== 'intent') copy.append(name, value)
  copy.append('intent', intent)
  return copy
}

/**
 * A submission the form's schema refused. A publish refused only for missing languages is saved
 * as the draft first (nothing typed is lost, as when the provider refuses it); then the refusal,
 * with the form's message, comes back as a 400.
 */
export async function refusedSubmission<Schema extends z.ZodType>(
  submission: Submission<unknown>,
  formData: FormData,
  schema: Schema,
  save: (value: z.output<Schema>) => Promise<unknown>,
) {
  const asDraft = parseWithZod(withIntent(formData, 'save'), { schema })
  if (formData.get('intent') === 'publish' && asDraft.status === 'success') await save(asDraft.value).catch(() => undefined)
  return data({ result: submission.reply() }, { status: 400 })
}

/** The provider's refusal on the form: each field's errors on its input, a missing language also said for the form. */
export function refusal(submission: Submission<unknown>, error: unknown, t: TFunction, texts: readonly string[], others: Record<string, FieldTarget> = {}) {
  const { result, init } = replyToFailure(submission, error, t, { fields: { ...localizedFieldTargets(texts), ...others } })
  const missing = Object.values(result.error ?? {}).some((messages) => messages?.includes(MISSING_LANGUAGE_KEY))
  const withForm: SubmissionResult<string[]> = missing ? { ...result, error: { ...result.error, '': [MISSING_LANGUAGES_KEY] } } : result
  return data({ result: withForm }, init)
}

const NS = 'admin-catalogue:validation'
/** Each product field's provider name, its input, and our message for it (the provider's are in English, for developers). */
const PRODUCT_FIELDS: Record<string, [field: string, key: string]> = {
  category: ['category', `${NS}.category`],
  pillar: ['pillar', `${NS}.pillar`],
  sort_order: ['sort_order', `${NS}.sortOrder`],
  product_type: ['product_type', `${NS}.type`],
  consultations: ['consultations', `${NS}.consultations`],
  professional_id: ['professional_id', `${NS}.professional`],
  weeks: ['weeks', `${NS}.weeks`],
  plan_interval: ['plan_interval', `${NS}.interval`],
  trial_days: ['trial_days', `${NS}.trialDays`],
  active: ['active', `${NS}.courseNotLinked`],
  price_cents: ['price', 'admin:products.validation.price'],
}

/** Where the provider's product errors go: `slugField` is the slug's input ('' where the page has none: the form's message). */
export function productFieldTargets(slugField: string): Record<string, FieldTarget> {
  const targets: Record<string, FieldTarget> = { slug: { field: slugField, messages: (provided) => provided.map((message) => (message.includes('already exists') ? `${NS}.slugTaken` : `${NS}.slug`)) } }
  for (const [name, [field, key]] of Object.entries(PRODUCT_FIELDS)) targets[name] = { field, messages: () => [key] }
  return targets
}

/** A product form's values as the provider's draft body (a new product's type fields only where its draft named a type). */
export function productBody(value: ProductValues) {
  const body: Record<string, unknown> = {
    name: value.name,
    description: value.description,
    category: value.category ?? '',
    pillar: value.pillar ?? '',
    sort_order: value.sort_order,
    active: value.active === 'on',
  }
  if (value.product_type) Object.assign(body, typeFieldsBody(value))
  return body
}

/** The editor's first values: the draft as saved, else the published product. */
export function productFormValues(published: AdminProduct | null, draft: ProductDraft | null) {
  const source = draft ?? published
  const price = draft?.price_cents ?? published?.price_cents
  return {
    name: source?.name,
    description: source?.description,
    category: source?.category ?? '',
    pillar: source?.pillar ?? '',
    sort_order: source?.sort_order === undefined ? '' : String(source.sort_order),
    active: (source?.active ?? true) ? 'on' : '',
    product_type: draft?.product_type ?? published?.product_type,
    consultations: draft?.consultations === undefined ? '' : String(draft.consultations),
    professional_id: draft?.professional_id === undefined ? '' : String(draft.professional_id),
    weeks: draft?.weeks === undefined ? '' : String(draft.weeks),
    plan_interval: draft?.plan_interval ?? '',
    trial_days: draft?.trial_days === undefined ? '' : String(draft.trial_days),
    price: price === undefined ? '' : (price / 100).toFixed(2).replace('.', ','),
  }
}

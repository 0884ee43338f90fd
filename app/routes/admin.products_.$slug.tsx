import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { formatShortDateTime } from '#app/domain/appointments.ts'
import { type Cents, formatMoney } from '#app/domain/money.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { adminProductSchema } from '#app/forms/admin-catalogue.ts'
import { productBody, productFieldTargets, productFormValues, refusal, refusedSubmission } from '#app/features/admin/admin-catalogue.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { discardProductDraft, getAdminProduct, publishProduct, saveProductDraft } from '#app/provider/admin-catalogue.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { nullWhileResubmitting, orNull } from '#app/provider/responses.server.ts'
import { listProfessionals } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { TypeFields } from '#app/ui/admin-catalogue-parts.tsx'
import { CheckboxInput, DiscardDraftForm, SelectInput, StateBadges, TextInput } from '#app/ui/content-editor-parts.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { FormError } from '#app/ui/forms.tsx'
import { ContentSubmitButtons, LocalizedFields } from '#app/ui/localized-fields.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-catalogue', 'shop'] }

const slugOf = (params: Record<string, string | undefined>) => params.slug ?? ''

/**
 * One product for an admin (`/admin/products/{slug}`, decision 0065): its name and description in
 * pt, en and es, its shelf, pillar, place in the list and whether it is on sale, kept as a draft or
 * published. A product not yet published also has its type's fields and price here; a published
 * one's price has its own form on the list (decision 0053). Forms that work without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const slug = slugOf(params)
  const [t, language, item, pillars, professionals] = await Promise.all([
    getFixedT(request, 'admin-catalogue'),
    languageOf(request),
    getAdminProduct(auth, slug).catch(nullWhileResubmitting),
    pillarsForDisplay().catch(() => []),
    listProfessionals(auth).catch(orNull),
  ])
  const published = item?.published ?? null
  const draft = item?.draft ?? null
  const name = published?.name[language] || draft?.name[language] || draft?.name.pt || slug
  return data(
    {
      meta: { title: `${t('products.editTitle', { name })} · Innera`, description: t('products.editLead') },
      slug,
      name,
      found: item !== null,
      published: published && {
        type: published.product_type,
        price: formatMoney(published.price_cents as Cents, language),
        active: published.active,
        consultations: published.consultations,
        weeks: published.weeks,
        interval: published.plan_interval,
        trialDays: published.trial_days,
        professional: professionals?.find((person) => person.id === published.professional_id) ?? null,
      },
      newType: published ? null : (draft?.product_type ?? null),
      values: productFormValues(published, draft),
      draftSince: draft ? formatShortDateTime(draft.updated_at, user.time_zone, language) : null,
      pillars: PILLAR_ORDER.map((pillar) => ({ value: pillar, label: pillars.find((known) => known.slug === pillar)?.name[language] ?? pillar })),
      professionals: professionals?.map((person) => ({ id: person.id, name: `${person.first_name} ${person.last_name}`.trim() || person.username })) ?? null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const slug = slugOf(params)
  const [formData, language] = await Promise.all([readFormData(request), languageOf(request)])
  const here = `/admin/products/${slug}`
  if (formData.get('intent') === 'discard') {
    await discardProductDraft(auth, slug).catch(() => undefined)
    const left = await getAdminProduct(auth, slug).catch(() => null)
    return redirectWithToast(left ? here : '/admin/products', { type: 'success', message: { key: 'admin:content.draftDiscarded', values: { name: left?.published?.name[language] ?? slug } } })
  }
  const submission = parseWithZod(formData, { schema: adminProductSchema })
  if (submission.status !== 'success') return refusedSubmission(submission, formData, adminProductSchema, (value) => saveProductDraft(auth, slug, productBody(value)))
  const value = submission.value
  const name = value.name[language] || value.name.pt || slug
  try {
    if (value.intent === 'publish') {
      const product = await publishProduct(auth, slug, productBody(value))
      return redirectWithToast('/admin/products', { type: 'success', message: { key: 'admin:content.published', values: { name: product.name[language] } } })
    }
    await saveProductDraft(auth, slug, productBody(value))
  } catch (error) {
    return refusal(submission, error, await getFixedT(request, ['common', 'admin']), ['name', 'description'], productFieldTargets(''))
  }
  return redirectWithToast(here, { type: 'success', message: { key: 'admin:content.draftSaved', values: { name } } })
}

export default function AdminProductEditor() {
  const { slug, name, found, published, newType, values, draftSince, pillars, professionals } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('admin-catalogue')
  const { t: tAdmin } = useTranslation('admin')
  const validation = useDeferredValidation('adminProduct')
  const [form, fields] = useForm<FormInput<'adminProduct'>, FormOutput<'adminProduct'>>({
    id: 'product-form',
    lastResult: reply?.result,
    defaultValue: values,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <main id="main">
      <p>
        <Link className="link" to="/admin/products">
          {t('products.backToList')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('products.editTitle', { name })}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('products.editLead')}</p>
      {found ? (
        <p className="mt-3">
          <StateBadges published={published !== null} draft={draftSince !== null} offSale={published?.active === false} />
        </p>
      ) : (
        <p role="status" className="mt-4 text-muted">
          {t('unavailable')}
        </p>
      )}
      {published ? <Facts slug={slug} facts={published} /> : null}
      {draftSince ? <DiscardDraftForm name={name} since={t('draftSince', { date: draftSince })} /> : null}
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 max-w-3xl space-y-6">
        <FormError id={form.errorId} errors={form.errors} />
        <LocalizedFields meta={fields.name} label={t('fields.name')} hint={t('fields.nameHint')} />
        <LocalizedFields meta={fields.description} label={t('fields.description')} hint={t('fields.descriptionHint')} multiline rows={5} />
        <fieldset className="space-y-4 rounded-xl border border-gray-300 p-4">
          <legend className="px-1 font-semibold text-ink">{t('fields.placeLegend')}</legend>
          <TextInput meta={fields.category} label={t('fields.category')} hint={t('fields.categoryHint')} />
          <SelectInput meta={fields.pillar} label={t('fields.pillar')} options={[{ value: '', label: t('fields.noPillar') }, ...pillars]} />
          <TextInput meta={fields.sort_order as never} label={t('fields.sortOrder')} hint={t('fields.sortOrderHint')} numeric />
          <CheckboxInput meta={fields.active} label={t('fields.active')} hint={t('fields.activeHint')} />
        </fieldset>
        {newType ? (
          <fieldset className="space-y-4 rounded-xl border border-gray-300 p-4">
            <legend className="px-1 font-semibold text-ink">{t('fields.typeLegend', { type: t(`types.${newType}`) })}</legend>
            <p className="text-sm text-muted">{t('fields.typeFixed')}</p>
            <input type="hidden" name="product_type" value={newType} />
            <TypeFields type={newType} fields={fields as never} professionals={professionals} />
          </fieldset>
        ) : null}
        <ContentSubmitButtons name={name} />
      </Form>
      {published ? null : <p className="mt-4 max-w-3xl text-sm text-muted">{tAdmin('content.unpublished')}</p>}
    </main>
  )
}

type FactsOf = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['published']>

/** What the editor does not change: the type and its fields, and the price (its own form, on the list). */
function Facts({ slug, facts }: { slug: string; facts: FactsOf }) {
  const { t } = useTranslation('admin-catalogue')
  const { t: tShop } = useTranslation('shop')
  const row = 'grid gap-1 border-t border-brand-100 py-2 sm:grid-cols-[12rem_1fr]'
  return (
    <section aria-labelledby="facts-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="facts-title" className="text-xl font-semibold">
        {t('products.facts')}
      </h2>
      <dl className="mt-2">
        <div className={row}>
          <dt className="text-muted">{t('fields.slug')}</dt>
          <dd className="break-all">{slug}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('fields.type')}</dt>
          <dd>{tShop(`types.${facts.type}`)}</dd>
        </div>
        {facts.consultations !== null ? (
          <div className={row}>
            <dt className="text-muted">{t('fields.consultations')}</dt>
            <dd>
              {facts.consultations}
              {facts.professional ? ` · ${facts.professional.first_name} ${facts.professional.last_name}` : ''}
            </dd>
          </div>
        ) : null}
        {facts.interval !== null ? (
          <div className={row}>
            <dt className="text-muted">{t('fields.interval')}</dt>
            <dd>
              {t(`intervals.${facts.interval}`)} · {t('products.trialDaysValue', { count: facts.trialDays ?? 0 })}
            </dd>
          </div>
        ) : null}
        {facts.weeks !== null ? (
          <div className={row}>
            <dt className="text-muted">{t('fields.weeks')}</dt>
            <dd>{facts.weeks}</dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-muted">{t('products.price')}</dt>
          <dd>
            {facts.price} ·{' '}
            <Link className="link" to="/admin/products">
              {t('products.priceElsewhere')}
            </Link>
          </dd>
        </div>
      </dl>
    </section>
  )
}

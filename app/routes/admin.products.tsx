import { type SubmissionResult, getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { formatShortDateTime } from '#app/domain/appointments.ts'
import { formatMoney } from '#app/domain/money.ts'
import { productPriceSchema } from '#app/forms/product-price-form.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listAdminProducts } from '#app/provider/admin-catalogue.server.ts'
import { setProductPrice } from '#app/provider/products.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { StateBadges } from '#app/ui/content-editor-parts.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-catalogue', 'shop'] }

/**
 * Every product, on sale or not, and the new ones not yet published (decision 0065): each with its
 * state, a link to its editor and, once published, the form that changes its price (decision 0053).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const [t, language, list] = await Promise.all([getFixedT(request, 'admin'), languageOf(request), listAdminProducts(auth).catch(errorResponseFor)])
  return data(
    {
      meta: { title: `${t('products.title')} · Innera`, description: t('products.lead') },
      count: list.results.length,
      products: list.results.map((product) => ({
        id: product.id,
        slug: product.slug,
        name: product.name[language],
        type: product.product_type,
        active: product.active,
        draftSince: product.draft ? formatShortDateTime(product.draft.updated_at, user.time_zone, language) : null,
        renews: product.plan_interval === 'monthly' || product.plan_interval === 'yearly',
        price: formatMoney(product.price_cents, language),
      })),
      newDrafts: list.new_drafts.map((draft) => ({
        slug: draft.key,
        name: draft.name[language] || draft.name.pt || draft.key,
        type: draft.product_type ?? null,
        draftSince: formatShortDateTime(draft.updated_at, user.time_zone, language),
      })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

/** A new price for a published product (decision 0053); texts and the rest go through the editor. */
export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const formData = await readFormData(request)
  const submission = parseWithZod(formData, { schema: productPriceSchema })
  const productId = Number(formData.get('product_id')) || 0
  if (submission.status !== 'success') return data({ productId, result: submission.reply() }, { status: 400 })
  let name: string
  try {
    const product = await setProductPrice(auth, submission.value.product_id, submission.value.price)
    name = product.name[await languageOf(request)]
  } catch (error) {
    const t = await getFixedT(request, ['common', 'admin'])
    const { result, init } = replyToFailure(submission, error, t, { fields: { price_cents: 'price' } })
    return data({ productId, result }, init)
  }
  return redirectWithToast('/admin/products', { type: 'success', message: { key: 'admin:products.saved', values: { name } } })
}

export default function AdminProducts() {
  const { products, newDrafts } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('admin')
  const { t: tCatalogue } = useTranslation('admin-catalogue')
  const { t: tShop } = useTranslation('shop')
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('products.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('products.lead')}</p>
      <p className="mt-2 max-w-3xl text-muted">{t('products.notice')}</p>
      <p className="mt-4">
        <Link className="btn-primary" to="/admin/products/new">
          {tCatalogue('products.new')}
        </Link>
      </p>
      {newDrafts.length > 0 ? (
        <section aria-labelledby="new-drafts-title" className="mt-6">
          <h2 id="new-drafts-title" className="text-xl font-semibold">
            {tCatalogue('products.newDrafts')}
          </h2>
          <ul className="mt-3 space-y-3">
            {newDrafts.map((draft) => (
              <li key={draft.slug} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
                <div>
                  <h3 className="text-lg font-semibold">{draft.name}</h3>
                  {draft.type ? <p className="text-sm text-muted">{tShop(`types.${draft.type}`)}</p> : null}
                  <p className="mt-1">
                    <StateBadges published={false} draft />
                  </p>
                  <p className="mt-1 text-sm text-muted">{t('content.draftSince', { date: draft.draftSince })}</p>
                </div>
                <Link className="btn-secondary" to={`/admin/products/${draft.slug}`}>
                  {tCatalogue('products.edit')}
                  <span className="sr-only"> ({draft.name})</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {products.length > 0 ? (
        <ul className="mt-6 space-y-3">
          {products.map((product) => (
            <li key={product.id} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
              <div className="flex flex-wrap items-start justify-between gap-4">
                <div>
                  <h2 className="text-lg font-semibold">{product.name}</h2>
                  <p className="text-sm text-muted">{tShop(`types.${product.type}`)}</p>
                  <p className="mt-1">
                    <StateBadges published draft={product.draftSince !== null} offSale={!product.active} />
                  </p>
                  <p className="mt-1">
                    {t('products.current')} <strong>{product.price}</strong>
                  </p>
                  {product.renews ? <p className="text-sm text-muted">{t('products.subscribersTold')}</p> : null}
                  <p className="mt-2">
                    <Link className="link" to={`/admin/products/${product.slug}`}>
                      {tCatalogue('products.edit')}
                      <span className="sr-only"> ({product.name})</span>
                    </Link>
                  </p>
                </div>
                <PriceForm productId={product.id} name={product.name} lastResult={actionData?.productId === product.id ? actionData.result : undefined} />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-6 rounded-2xl bg-white p-6 text-muted">{t('products.empty')}</p>
      )}
    </main>
  )
}

/** One product's new price: what was typed comes back with the reason on any refusal. */
function PriceForm({ productId, name, lastResult }: { productId: number; name: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin')
  const validation = useDeferredValidation('productPrice')
  const [form, fields] = useForm<FormInput<'productPrice'>, FormOutput<'productPrice'>>({
    id: `price-${productId}`,
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="flex w-full max-w-xs flex-col gap-2">
      <FormError id={form.errorId} errors={form.errors} />
      <input type="hidden" name="product_id" value={productId} />
      <Field
        labelProps={{
          children: (
            <>
              {t('products.newPrice')}
              <span className="sr-only"> ({name})</span>
            </>
          ),
        }}
        hint={t('products.priceHint')}
        inputProps={{ ...getInputProps(fields.price, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }}
        errors={fields.price.errors}
      />
      <SubmitButton className="btn-secondary" pendingText={t('products.saving')}>
        {t('products.save')}
        <span className="sr-only"> ({name})</span>
      </SubmitButton>
    </Form>
  )
}

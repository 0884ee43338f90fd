import { type SubmissionResult, getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { formatMoney } from '#app/domain/money.ts'
import { productPriceSchema } from '#app/forms/product-price-form.ts'
import { replyToFailure } from '#app/forms/provider-reply.server.ts'
import { isLanguage } from '#app/i18n/config.ts'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { listProducts, setProductPrice } from '#app/provider/products.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { Pagination } from '#app/ui/list-controls.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

const PAGE_SIZE = 50
const querySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1) })

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'shop'] }

/** The products on sale and their prices, each with a form to change it (decision 0053). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, { role: 'admin' })
  const query = querySchema.parse({ page: new URL(request.url).searchParams.get('page') ?? 1 })
  const [t, locale, list] = await Promise.all([
    getFixedT(request, 'admin'),
    i18nServer().getLocale(request),
    listProducts({ page: query.page, pageSize: PAGE_SIZE }).catch(errorResponseFor),
  ])
  const language = isLanguage(locale) ? locale : 'pt'
  return data({
    meta: { title: `${t('products.title')} · Innera`, description: t('products.lead') },
    page: query.page,
    count: list.count,
    products: list.results.map((product) => ({
      id: product.id,
      name: product.name[language],
      type: product.product_type,
      renews: product.plan_interval === 'monthly' || product.plan_interval === 'yearly',
      price: formatMoney(product.price_cents, language),
    })),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const page = querySchema.parse({ page: new URL(request.url).searchParams.get('page') ?? 1 }).page
  const formData = await readFormData(request)
  const submission = parseWithZod(formData, { schema: productPriceSchema })
  const productId = Number(formData.get('product_id')) || 0
  if (submission.status !== 'success') return data({ productId, result: submission.reply() }, { status: 400 })
  let name: string
  try {
    const product = await setProductPrice(auth, submission.value.product_id, submission.value.price)
    const locale = await i18nServer().getLocale(request)
    name = product.name[isLanguage(locale) ? locale : 'pt']
  } catch (error) {
    const t = await getFixedT(request, ['common', 'admin'])
    const { result, init } = replyToFailure(submission, error, t, { fields: { price_cents: 'price' } })
    return data({ productId, result }, init)
  }
  return redirectWithToast(`/admin/products${page > 1 ? `?page=${page}` : ''}`, { type: 'success', message: { key: 'admin:products.saved', values: { name } } })
}

export default function AdminProducts() {
  const { products, count, page } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('admin')
  const { t: tShop } = useTranslation('shop')
  return (
    <main id="main">
      <h1 className="text-3xl font-bold">{t('products.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('products.lead')}</p>
      <p className="mt-2 max-w-3xl text-muted">{t('products.notice')}</p>
      {products.length > 0 ? (
        <ul className="mt-6 space-y-3">
          {products.map((product) => (
            <li key={product.id} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
              <div className="flex flex-wrap items-start justify-between gap-4">
                <div>
                  <h2 className="text-lg font-semibold">
                    <Link className="link" to={`/produto/${product.id}`}>
                      {product.name}
                    </Link>
                  </h2>
                  <p className="text-sm text-muted">{tShop(`types.${product.type}`)}</p>
                  <p className="mt-1">
                    {t('products.current')} <strong>{product.price}</strong>
                  </p>
                  {product.renews ? <p className="text-sm text-muted">{t('products.subscribersTold')}</p> : null}
                </div>
                <PriceForm productId={product.id} name={product.name} lastResult={actionData?.productId === product.id ? actionData.result : undefined} />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-6 rounded-2xl bg-white p-6 text-muted">{t('products.empty')}</p>
      )}
      <Pagination count={count} page={page} pageSize={PAGE_SIZE} />
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

import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { CREATABLE_TYPES, type NewProductValues, adminNewProductSchema, typeFieldsBody } from '#app/forms/admin-catalogue.ts'
import { productFieldTargets, refusal } from '#app/features/admin/admin-catalogue.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { saveProductDraft } from '#app/provider/admin-catalogue.server.ts'
import { orNull } from '#app/provider/responses.server.ts'
import { listProfessionals } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { TypeFields } from '#app/ui/admin-catalogue-parts.tsx'
import { SelectInput, TextInput } from '#app/ui/content-editor-parts.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-catalogue'] }

/** The shelf a new product starts on, by type (the editor changes it). */
const SHELF: Record<NewProductValues['product_type'], string> = { consultation_package: 'atendimento', program: 'programas', subscription: 'assinaturas', course: 'conteudos' }

/**
 * A new product (`/admin/products/new`, decision 0065): its slug, its type with the type's fields,
 * and its price first; saved as a draft named by the slug, it is then written and published in
 * its editor like any product.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const [t, professionals] = await Promise.all([getFixedT(request, 'admin-catalogue'), listProfessionals(auth).catch(orNull)])
  return data(
    {
      meta: { title: `${t('newProduct.title')} · Innera`, description: t('newProduct.lead') },
      professionals: professionals?.map((person) => ({ id: person.id, name: `${person.first_name} ${person.last_name}`.trim() || person.username })) ?? null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const formData = await readFormData(request)
  const submission = parseWithZod(formData, { schema: adminNewProductSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { slug, ...value } = submission.value
  try {
    await saveProductDraft(auth, slug, { ...typeFieldsBody(value), category: SHELF[value.product_type], active: true })
  } catch (error) {
    return refusal(submission, error, await getFixedT(request, ['common', 'admin']), [], productFieldTargets('slug'))
  }
  return redirectWithToast(`/admin/products/${slug}`, { type: 'success', message: { key: 'admin:content.draftSaved', values: { name: slug } } })
}

export default function AdminNewProduct() {
  const { professionals } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('admin-catalogue')
  const validation = useDeferredValidation('adminNewProduct')
  const [form, fields] = useForm<FormInput<'adminNewProduct'>, FormOutput<'adminNewProduct'>>({
    id: 'new-product-form',
    lastResult: reply?.result,
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
      <h1 className="mt-4 text-3xl font-bold">{t('newProduct.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('newProduct.lead')}</p>
      <p className="mt-2 max-w-3xl text-muted">{t('newProduct.typesNote')}</p>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 max-w-3xl space-y-6">
        <FormError id={form.errorId} errors={form.errors} />
        <TextInput meta={fields.slug} label={t('fields.slug')} hint={t('fields.slugHint')} />
        <SelectInput
          meta={fields.product_type}
          label={t('fields.type')}
          options={[{ value: '', label: t('fields.choose') }, ...CREATABLE_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))]}
        />
        <TypeFields type={fields.product_type.value} fields={fields as never} professionals={professionals} />
        <SubmitButton className="btn-primary" pendingText={t('saving')}>
          {t('newProduct.submit')}
        </SubmitButton>
      </Form>
    </main>
  )
}

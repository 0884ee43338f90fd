import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, useActionData, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { supportedLanguages } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { translatePasswordProblems } from '#app/provider/password-problems.ts'
import { changePassword } from '#app/provider/users.server.ts'
import { type RootLoader } from '#app/root.tsx'
import { replyToFailure } from '#app/forms/provider-reply.server.ts'
import { changePasswordSchema } from '#app/forms/account-forms.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field, FormError, SubmitButton, useSecretFieldKey } from '#app/ui/forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

// A throttled submission's Retry-After reaches the browser (Remix passes action headers only through `headers`).
export { headers } from '#app/forms/form-headers.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['account'] }

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  const t = await getFixedT(request, 'account')
  return data({ meta: { title: `${t('settings.title')} · Innera`, description: t('settings.lead') } })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request)
  const submission = parseWithZod(await readFormData(request), { schema: changePasswordSchema })
  const hideFields = ['old_password', 'new_password', 'confirm_password']
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }) }, { status: 400 })
  try {
    const renewed = await changePassword(auth, submission.value.old_password, submission.value.new_password)
    // Every other session has ended; this one goes on with the new pair.
    if (renewed) auth.renewTokens(renewed)
  } catch (error) {
    const t = await getFixedT(request, ['common', 'account'])
    const { result, init } = replyToFailure(submission, error, t, {
      fields: {
        old_password: { field: 'old_password', messages: () => [t('account:settings.wrongPassword')] },
        new_password: { field: 'new_password', messages: (messages) => translatePasswordProblems(t, messages) },
      },
      hideFields,
    })
    return data({ result }, init)
  }
  return redirectWithToast('/configuracoes', { type: 'success', message: { key: 'account:settings.passwordChanged' } })
}

export default function SettingsPage() {
  const { t } = useTranslation('account')
  const { t: tc } = useTranslation()
  const root = useRouteLoaderData<RootLoader>('root')
  const lastResult = useActionData<typeof action>()?.result
  const validation = useDeferredValidation('changePassword')
  const [form, fields] = useForm<FormInput<'changePassword'>, FormOutput<'changePassword'>>({
    id: 'password-form',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const secretKey = useSecretFieldKey(lastResult)
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('settings.title')}</h1>
      <p className="mt-2 text-muted">{t('settings.lead')}</p>
      <div className="mt-8 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby="password-title" className="rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="password-title" className="text-xl font-semibold">
            {t('settings.passwordTitle')}
          </h2>
          <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-4 space-y-5">
            <FormError id={form.errorId} errors={form.errors} />
            <Field key={`${secretKey}-settings.oldPassword`} labelProps={{ children: t('settings.oldPassword') }} inputProps={{ ...getInputProps(fields.old_password, { type: 'password' }), autoComplete: 'current-password' }} errors={fields.old_password.errors} />
            <Field key={`${secretKey}-settings.newPassword`} labelProps={{ children: t('settings.newPassword') }} inputProps={{ ...getInputProps(fields.new_password, { type: 'password' }), autoComplete: 'new-password' }} errors={fields.new_password.errors} />
            <Field key={`${secretKey}-settings.confirmPassword`} labelProps={{ children: t('settings.confirmPassword') }} inputProps={{ ...getInputProps(fields.confirm_password, { type: 'password' }), autoComplete: 'new-password' }} errors={fields.confirm_password.errors} />
            <SubmitButton className="btn-primary" pendingText={t('settings.saving')}>
              {t('settings.changePassword')}
            </SubmitButton>
          </Form>
        </section>
        <section aria-labelledby="language-title" className="rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="language-title" className="text-xl font-semibold">
            {t('settings.languageTitle')}
          </h2>
          <form method="post" action="/resources/locale" className="mt-4 space-y-4">
            <input type="hidden" name="redirectTo" value="/configuracoes" />
            <fieldset>
              <legend className="font-medium">{tc('language.label')}</legend>
              <div className="mt-2 space-y-2">
                {supportedLanguages.map((lng) => (
                  <label key={lng} className="flex min-h-11 items-center gap-3">
                    <input type="radio" name="lng" value={lng} defaultChecked={root?.locale === lng} className="size-5 accent-brand-700" />
                    <span lang={lng}>{tc(`language.${lng}`)}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <button type="submit" className="btn-primary">
              {t('settings.saveLanguage')}
            </button>
          </form>
        </section>
      </div>
    </main>
  )
}

import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { confirmPasswordReset } from '#app/provider/auth.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { translatePasswordProblems } from '#app/provider/password-problems.server.ts'
import { resetSchema } from '#app/forms/auth-forms.ts'
import { AuthCard } from '#app/ui/auth/common.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field, useSecretFieldKey } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { HoneypotField } from '#app/ui/special-fields.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['auth'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request, 'auth')
  return { meta: { title: `${t('reset.title')} · Innera`, description: t('reset.lead') } }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...pageMeta(data?.meta), { name: 'robots', content: 'noindex' }]

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: resetSchema })
  const hideFields = ['password', 'confirmPassword']
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }) }, { status: 400 })
  try {
    await confirmPasswordReset(params.uid ?? '', params.token ?? '', submission.value.password)
  } catch (error) {
    const t = await getFixedT(request, ['common', 'auth'])
    // A 400 that is not about the password is the link: expired, used, or never valid.
    const { result, init } = replyToFailure(submission, error, t, {
      fields: { new_password: { field: 'password', messages: (messages) => translatePasswordProblems(t, messages) } },
      statusMessages: { 400: 'auth:reset.invalidLink' },
      hideFields,
    })
    return data({ result }, init)
  }
  return redirectWithToast('/auth?mode=login', { type: 'success', message: { key: 'auth:reset.done' } })
}

export default function ResetPassword() {
  const { t } = useTranslation('auth')
  const lastResult = useActionData<typeof action>()?.result
  const validation = useDeferredValidation('reset')
  const [form, fields] = useForm<FormInput<'reset'>, FormOutput<'reset'>>({
    id: 'reset-form',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const secretKey = useSecretFieldKey(lastResult)
  return (
    <main id="main" className="container-page py-10 sm:py-16">
      <AuthCard title={t('reset.title')} lead={t('reset.lead')}>
        <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="space-y-5">
          <FormError id={form.errorId} errors={form.errors} />
          <HoneypotField />
          <Field
            key={`${secretKey}-fields.newPassword`}
            labelProps={{ children: t('fields.newPassword') }}
            hint={t('fields.passwordHint')}
            inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password' }}
            errors={fields.password.errors}
          />
          <Field
            key={`${secretKey}-fields.confirmPassword`}
            labelProps={{ children: t('fields.confirmPassword') }}
            inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password' }}
            errors={fields.confirmPassword.errors}
          />
          <SubmitButton pendingText={t('reset.pending')}>{t('reset.submit')}</SubmitButton>
          <p className="text-sm">
            <Link className="link" to="/auth?mode=forgot">
              {t('reset.requestNew')}
            </Link>
          </p>
        </Form>
      </AuthCard>
    </main>
  )
}

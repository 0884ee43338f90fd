import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { Form, Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { HoneypotField } from '#app/ui/special-fields.tsx'
import { useLastResult } from './common.tsx'

/** /auth?mode=forgot and ?mode=resend: one e-mail field; loaded when shown (see routes/auth.tsx). */
export default function EmailOnlyForm({ mode }: { mode: 'forgot' | 'resend' }) {
  const { t } = useTranslation('auth')
  const validation = useDeferredValidation(mode)
  const [form, fields] = useForm<FormInput<'forgot'>, FormOutput<'forgot'>>({
    id: `${mode}-form`,
    lastResult: useLastResult(mode),
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" action={`/auth?mode=${mode}`} {...getFormProps(form)} {...validation.formProps} noValidate className="space-y-5">
      <FormError id={form.errorId} errors={form.errors} />
      <HoneypotField />
      <Field labelProps={{ children: t('fields.email') }} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }} errors={fields.email.errors} />
      <SubmitButton pendingText={t(`${mode}.pending`)} formAction={`/auth?mode=${mode}`}>
        {t(`${mode}.submit`)}
      </SubmitButton>
      <p className="text-sm">
        <Link className="link" to="/auth?mode=login">
          {t('backToLogin')}
        </Link>
      </p>
    </Form>
  )
}

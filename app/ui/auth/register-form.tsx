import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field, useSecretFieldKey } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { CheckboxField, HoneypotField } from '#app/ui/special-fields.tsx'
import { RichText } from '#app/ui/rich-text.tsx'
import { useLastResult } from './common.tsx'

/** /auth?mode=register: loaded when shown (see routes/auth.tsx). */
export default function RegisterForm() {
  const { t } = useTranslation('auth')
  const lastResult = useLastResult('register')
  const validation = useDeferredValidation('register')
  const [form, fields] = useForm<FormInput<'register'>, FormOutput<'register'>>({
    id: 'register-form',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  const secretKey = useSecretFieldKey(lastResult)
  return (
    <Form method="post" action="/auth?mode=register" {...getFormProps(form)} {...validation.formProps} noValidate className="space-y-5">
      <FormError id={form.errorId} errors={form.errors} />
      <HoneypotField />
      <Field labelProps={{ children: t('fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name' }} errors={fields.name.errors} />
      <Field
        labelProps={{ children: t('fields.username') }}
        hint={t('fields.usernameHint')}
        inputProps={{ ...getInputProps(fields.username, { type: 'text' }), autoComplete: 'username', autoCapitalize: 'none' }}
        errors={fields.username.errors}
      />
      <Field labelProps={{ children: t('fields.email') }} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }} errors={fields.email.errors} />
      <Field
        key={`${secretKey}-fields.password`}
        labelProps={{ children: t('fields.password') }}
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
      <p className="rounded-lg bg-brand-50 p-3 text-sm text-ink">{t('register.ageRule')}</p>
      <input type="hidden" name={fields.acceptTerms.name} value="" />
      <CheckboxField
        labelProps={{
          children: (
            // The documents open in a new tab, so nothing typed here is lost.
            <RichText text={t('register.consent')} newTab />
          ),
        }}
        inputProps={getInputProps(fields.acceptTerms, { type: 'checkbox' })}
        errors={fields.acceptTerms.errors}
      />
      <SubmitButton pendingText={t('register.pending')} formAction="/auth?mode=register">
        {t('register.submit')}
      </SubmitButton>
    </Form>
  )
}

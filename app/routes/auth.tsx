import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { Suspense, lazy } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getEnv } from '#app/env.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import * as authApi from '#app/provider/auth.server.ts'
import { translatePasswordProblems } from '#app/provider/password-problems.server.ts'
import { getAuth, requireAnonymous } from '#app/session/auth.server.ts'
import { translateNameProblems } from '#app/domain/person-names.ts'
import { replyToFailure, sameNames } from '#app/utils/provider-reply.server.ts'
import { mergeCartAtSignIn } from '#app/features/cart/cart.server.ts'
import { authModeOf, forgotSchema, loginSchema, registerSchema, resendSchema } from '#app/forms/auth-forms.ts'
import { defaultRouteFor, roleFromGroups } from '#app/session/roles.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { AuthCard, useLastResult } from '#app/ui/auth/common.tsx'
import { Field, useSecretFieldKey } from '#app/ui/field.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { safeRedirect } from '#app/utils/safe-redirect.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['auth'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const mode = authModeOf(url.searchParams.get('mode'))
  const redirectTo = url.searchParams.get('redirectTo')
  const auth = await getAuth(request)
  if (auth.isSignedIn && auth.user) {
    throw redirect(safeRedirect(redirectTo, defaultRouteFor(roleFromGroups(auth.user.groups))))
  }
  const t = await getFixedT(request, 'auth')
  return data(
    {
      mode,
      redirectTo: redirectTo ? safeRedirect(redirectTo, '') : '',
      googleEnabled: Boolean(getEnv().GOOGLE_CLIENT_ID),
      meta: { title: `${t(`${mode}.title`)} · Innera`, description: t(`${mode}.lead`) },
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const mode = authModeOf(new URL(request.url).searchParams.get('mode'))
  const formData = await readFormData(request)
  const t = await getFixedT(request, ['common', 'auth'])

  if (mode === 'login') {
    const submission = parseWithZod(formData, { schema: loginSchema })
    if (submission.status !== 'success') {
      return data({ mode, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
    }
    const auth = await requireAnonymous(request, '/dashboard')
    try {
      const session = await authApi.login(submission.value.email, submission.value.password)
      auth.signIn(session)
      const destination = safeRedirect(submission.value.redirectTo, defaultRouteFor(roleFromGroups(session.user.groups)))
      // The visitor's cart and the account's become one (decision 0047).
      const cartCookie = await mergeCartAtSignIn(request, auth)
      return redirect(destination, { status: 303, headers: cartCookie ? { 'Set-Cookie': cartCookie } : undefined })
    } catch (error) {
      const { result, init } = replyToFailure(submission, error, t, { statusMessages: { 400: 'errors.loginFailed', 401: 'errors.loginFailed' }, hideFields: ['password'] })
      return data({ mode, result }, init)
    }
  }

  if (mode === 'register') {
    const submission = parseWithZod(formData, { schema: registerSchema })
    if (submission.status !== 'success') {
      return data({ mode, result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
    }
    await requireAnonymous(request, '/dashboard')
    const { email, password, name, username } = submission.value
    try {
      await authApi.register({ email, password, name, username })
    } catch (error) {
      const { result, init } = replyToFailure(submission, error, t, {
        fields: {
          ...sameNames(['email', 'username']),
          name: { field: 'name', messages: (messages) => translateNameProblems(t, messages) },
          password: { field: 'password', messages: (messages) => translatePasswordProblems(t, messages) },
        },
        hideFields: ['password', 'confirmPassword'],
      })
      return data({ mode, result }, init)
    }
    // The same outcome for a new and an already registered address (the provider answers both
    // alike and mails the owner of a known one), so nobody learns who has an account here: the
    // new user signs in once, as anyone else (docs/decisions/0010-account-enumeration.md).
    return redirectWithToast('/auth?mode=login', { type: 'success', message: { key: 'auth:register.done' }, durationMs: 10_000 })
  }

  const schema = mode === 'forgot' ? forgotSchema : resendSchema
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') return data({ mode, result: submission.reply() }, { status: 400 })
  try {
    if (mode === 'forgot') await authApi.requestPasswordReset(submission.value.email)
    else await authApi.sendConfirmation(submission.value.email)
  } catch (error) {
    const { result, init } = replyToFailure(submission, error, t)
    return data({ mode, result }, init)
  }
  // The same answer whether or not the address has an account: nobody learns who is registered.
  return redirectWithToast('/auth?mode=login', {
    type: 'success',
    message: { key: mode === 'forgot' ? 'auth:forgot.sent' : 'auth:resend.sent' },
    durationMs: 8_000,
  })
}

// Only the sign-in form is part of the page's first load: the other modes' forms and the Google
// button come as their own chunks when shown (server-rendered as usual, so they work before they arrive and without JS).
const RegisterForm = lazy(() => import('#app/ui/auth/register-form.tsx'))
const EmailOnlyForm = lazy(() => import('#app/ui/auth/email-only-form.tsx'))
const GoogleButton = lazy(() => import('#app/ui/auth/google-button.tsx'))

export default function AuthPage() {
  const { mode, googleEnabled, redirectTo } = useLoaderData<typeof loader>()
  const { t } = useTranslation('auth')
  return (
    <main id="main" className="container-page py-10 sm:py-16">
      <AuthCard mode={mode} title={t(`${mode}.title`)} lead={t(`${mode}.lead`)}>
        {mode === 'login' ? <LoginForm redirectTo={redirectTo} /> : null}
        <Suspense fallback={null}>
          {mode === 'register' ? <RegisterForm /> : null}
          {mode === 'forgot' || mode === 'resend' ? <EmailOnlyForm mode={mode} /> : null}
          {googleEnabled && (mode === 'login' || mode === 'register') ? <GoogleButton /> : null}
        </Suspense>
      </AuthCard>
    </main>
  )
}

function LoginForm({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation('auth')
  const lastResult = useLastResult('login')
  const validation = useDeferredValidation('login')
  const [form, fields] = useForm<FormInput<'login'>, FormOutput<'login'>>({
    id: 'login-form',
    lastResult,
    defaultValue: { redirectTo },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const secretKey = useSecretFieldKey(lastResult)
  return (
    <Form method="post" action="/auth?mode=login" {...getFormProps(form)} {...validation.formProps} noValidate className="space-y-5">
      <FormError id={form.errorId} errors={form.errors} />
      <input {...getInputProps(fields.redirectTo, { type: 'hidden' })} />
      <Field labelProps={{ children: t('fields.email') }} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }} errors={fields.email.errors} />
      <Field
        key={`${secretKey}-fields.password`}
        labelProps={{ children: t('fields.password') }}
        inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password' }}
        errors={fields.password.errors}
      />
      <SubmitButton pendingText={t('login.pending')} formAction="/auth?mode=login">
        {t('login.submit')}
      </SubmitButton>
      <p className="flex flex-wrap justify-between gap-2 text-sm">
        <Link className="link" to="/auth?mode=forgot">
          {t('login.forgot')}
        </Link>
        <Link className="link" to="/auth?mode=resend">
          {t('login.resend')}
        </Link>
      </p>
    </Form>
  )
}

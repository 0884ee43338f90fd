import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { confirmEmail } from '#app/provider/auth.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { AuthCard } from '#app/ui/auth/common.tsx'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { failureText } from '#app/utils/messages.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['auth'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request, 'auth')
  return { meta: { title: `${t('confirm.title')} · Innera`, description: t('confirm.lead') } }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...pageMeta(data?.meta), { name: 'robots', content: 'noindex' }]

// Confirming takes a click (a POST): mail scanners that open links must not confirm on their own.
export async function action({ request, params }: ActionFunctionArgs) {
  try {
    await confirmEmail(params.uid ?? '', params.token ?? '')
  } catch (error) {
    const t = await getFixedT(request, ['common', 'auth'])
    const invalid = error instanceof ProviderError && error.status === 400
    return data({ error: invalid ? t('auth:confirm.invalidLink') : failureText(t, error) }, { status: 400 })
  }
  const auth = await getAuth(request)
  return redirectWithToast(auth.isSignedIn ? '/dashboard' : '/auth?mode=login', { type: 'success', message: { key: 'auth:confirm.done' } })
}

export default function ConfirmEmail() {
  const { t } = useTranslation('auth')
  const actionData = useActionData<typeof action>()
  return (
    <main id="main" className="container-page py-10 sm:py-16">
      <AuthCard title={t('confirm.title')} lead={t('confirm.lead')}>
        <Form method="post" className="space-y-5">
          <FormError errors={actionData?.error ? [actionData.error] : null} />
          <SubmitButton pendingText={t('confirm.pending')}>{t('confirm.submit')}</SubmitButton>
          {actionData?.error ? (
            <p className="text-sm">
              <Link className="link" to="/auth?mode=resend">
                {t('login.resend')}
              </Link>
            </p>
          ) : null}
        </Form>
      </AuthCard>
    </main>
  )
}

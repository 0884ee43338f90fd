import { Link, useActionData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type SubmissionResult } from '@conform-to/react'
import { type AuthMode } from '#app/forms/auth-forms.ts'

/** What the sign-in route's action answers: which form it was, and that form's reply. */
type AuthReply = { mode: AuthMode; result: SubmissionResult<string[]> }

export function AuthCard({ mode, title, lead, children }: { mode?: string; title: string; lead: string; children: React.ReactNode }) {
  const { t } = useTranslation('auth')
  return (
    <div className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-sm sm:p-8">
      {mode === 'login' || mode === 'register' ? (
        <nav aria-label={t('tabs.label')} className="mb-6 grid grid-cols-2 gap-1 rounded-full bg-brand-50 p-1">
          {(['login', 'register'] as const).map((tab) => (
            <Link
              key={tab}
              to={`/auth?mode=${tab}`}
              aria-current={mode === tab ? 'page' : undefined}
              className="min-h-11 rounded-full px-3 py-2 text-center font-semibold text-brand-800 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white"
            >
              {t(`tabs.${tab}`)}
            </Link>
          ))}
        </nav>
      ) : null}
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mb-6 mt-2 text-muted">{lead}</p>
      {children}
    </div>
  )
}

/** The sign-in route's last answer, when it was for this mode's form. */
export function useLastResult(mode: AuthMode) {
  const actionData = useActionData<AuthReply>()
  return actionData?.mode === mode ? actionData.result : undefined
}

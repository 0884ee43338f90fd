import { Link, isRouteErrorResponse, useLocation, useRouteError } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type ErrorPageKind, errorPageKind } from '#app/utils/error-page.ts'

/**
 * The one error page of the app: 400, 401, 403, 404, 500, the network case and any other
 * status, in the user's language. Never a stack trace or a raw status dump.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  return <ErrorPage kind={errorPageKind(error)} status={isRouteErrorResponse(error) ? error.status : 500} />
}

export function ErrorPage({ kind, status }: { kind: ErrorPageKind; status: number }) {
  const location = useLocation()
  const { t } = useTranslation()
  const title = kind === 'other' ? t('errorPage.titleOther', { status }) : t(`errorPage.title${kind}`)
  const body = kind === 'other' ? t('errors.server') : t(`errorPage.body${kind}`, { path: location.pathname })
  const returnTo = `${location.pathname}${location.search}`

  return (
    <main id="main" className="container-page py-16">
      <div className="mx-auto max-w-xl rounded-2xl bg-white p-8 shadow-sm">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{kind === 'Network' ? '⚠' : status}</p>
        <h1 className="mt-2 text-3xl font-bold">{title}</h1>
        <p className="mt-4 text-lg text-muted">{body}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          {kind === '401' ? (
            <Link className="btn-primary" to={`/auth?mode=login&redirectTo=${encodeURIComponent(returnTo)}`}>
              {t('errorPage.signIn')}
            </Link>
          ) : null}
          {kind === 'Network' || kind === '500' || kind === '413' ? (
            <a className="btn-primary" href={returnTo}>
              {t('errorPage.retry')}
            </a>
          ) : null}
          <Link className="btn-secondary" to="/">
            {t('errorPage.home')}
          </Link>
        </div>
      </div>
    </main>
  )
}

import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { Outlet, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { requireUser } from '#app/session/auth.server.ts'
import { GeneralErrorBoundary } from '#app/ui/error-boundary.tsx'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin'] }

/**
 * Every /admin/* page sits under this layout: its loader lets only admins through (403 otherwise).
 * Every date and time of the console is in the admin's own zone, named above each page (decision 0077).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request, { role: 'admin' })
  const language = await languageOf(request)
  return data({ zone: timeZoneLabel(timeZoneOr(user.time_zone), language, new Date()) })
}

/** The admin sections are in the signed-in navigation under the header (app/ui/member-navigation.ts). */
export default function AdminLayout() {
  const loaded = useLoaderData<typeof loader>()
  return (
    <AdminFrame zone={loaded?.zone}>
      <Outlet />
    </AdminFrame>
  )
}

/**
 * A page of the console that fails shows the error page inside the layout: the zone above it as on
 * every page (the layout's loader answered; a child's failed), the header and navigation around it
 * (the root's layout). When the layout's own loader fails (a 403 for a non-admin), only the error.
 */
export function ErrorBoundary() {
  const loaded = useRouteLoaderData<typeof loader>('routes/admin')
  if (!loaded) return <GeneralErrorBoundary />
  return (
    <AdminFrame zone={loaded.zone}>
      <GeneralErrorBoundary />
    </AdminFrame>
  )
}

function AdminFrame({ zone, children }: { zone: string | undefined; children: React.ReactNode }) {
  const { t } = useTranslation('admin')
  return (
    <div className="container-page py-8">
      {zone ? (
        // A landmark of its own, outside each page's main.
        <aside aria-label={t('zoneLabel')} className="mb-4">
          <p data-testid="admin-zone" className="text-sm text-muted">
            {t('zone', { zone })}
          </p>
        </aside>
      ) : null}
      {children}
    </div>
  )
}

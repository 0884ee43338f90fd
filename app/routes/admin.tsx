import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { NavLink, Outlet } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { requireUser } from '#app/session/auth.server.ts'
import { GeneralErrorBoundary } from '#app/ui/error-boundary.tsx'

/** Every /admin/* page sits under this layout: its loader lets only admins through (403 otherwise). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  return data({}, { headers: await auth.headers() })
}

export default function AdminLayout() {
  const { t } = useTranslation('admin')
  const links = [
    { to: '/admin/dashboard', label: t('nav.dashboard') },
    { to: '/admin/users', label: t('nav.users') },
    { to: '/admin/messages', label: t('nav.messages') },
  ]
  return (
    <div className="container-page py-8">
      <nav aria-label={t('nav.label')} className="mb-6 flex flex-wrap gap-2">
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} className="rounded-full border border-brand-700 px-4 py-2 font-semibold text-brand-800 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white">
            {link.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

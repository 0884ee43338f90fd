import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { Outlet } from '@remix-run/react'
import { requireUser } from '#app/session/auth.server.ts'
import { GeneralErrorBoundary } from '#app/ui/error-boundary.tsx'

/** Every /admin/* page sits under this layout: its loader lets only admins through (403 otherwise). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, { role: 'admin' })
  return data({})
}

/** The admin sections are in the signed-in navigation under the header (app/ui/member-navigation.ts). */
export default function AdminLayout() {
  return (
    <div className="container-page py-8">
      <Outlet />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

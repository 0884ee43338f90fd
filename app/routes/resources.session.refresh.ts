import { type ActionFunctionArgs } from '@remix-run/node'
import { getAuth } from '#app/session/auth.server.ts'
import { toastHeader } from '#app/utils/toast.server.ts'

/**
 * The browser's scheduled refresh lands here (JavaScript on). The answer carries the new expiry,
 * never a token; the refreshed tokens travel in the session cookie.
 */
export async function action({ request }: ActionFunctionArgs) {
  const auth = await getAuth(request)
  const result = auth.isSignedIn ? await auth.refreshOnce() : 'failed'
  if (result === 'ok' && auth.accessExpiresAt) {
    return Response.json({ status: 'ok', accessExpiresAt: auth.accessExpiresAt }, { headers: { 'Cache-Control': 'no-store' } })
  }
  if (result === 'network') {
    return Response.json({ status: 'network' }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
  }
  auth.clear()
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  headers.append('Set-Cookie', await toastHeader({ type: 'error', message: { key: 'errors.sessionExpired' } }))
  return Response.json({ status: 'expired' }, { status: 401, headers })
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}

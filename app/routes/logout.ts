import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { forgetCartHeader } from '#app/features/cart/cart.server.ts'
import { log } from '#app/http/log.server.ts'
import { revokeSession } from '#app/provider/auth.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { sessionStorage, getSession } from '#app/session/session.server.ts'

const REVOKE_TIMEOUT_MS = 3_000

/**
 * Logout (docs/product.md §4) ends the session at the provider first, so that a copy of the cookie or of its
 * refresh token opens nothing afterwards, then clears the tokens and the user here and goes to the
 * sign-in page. The user is signed out here even when the provider cannot be told: the failure is
 * logged, and the tokens it still honours expire on their own.
 */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request)
  const refresh = session.get('refresh')
  if (refresh) {
    try {
      // Bounded: a hanging provider must not keep the user from signing out.
      await revokeSession(refresh, AbortSignal.timeout(REVOKE_TIMEOUT_MS))
    } catch (error) {
      // A token the provider already refuses (expired, revoked) is the outcome logout wants.
      const status = error instanceof ProviderError ? (error.status ?? 'network') : 'timeout'
      if (status !== 401) log('error', { type: 'logout-revoke', status })
    }
  }
  // The browser forgets the cart too: it stays with the account (decision 0047).
  const headers = new Headers()
  headers.append('Set-Cookie', await sessionStorage().destroySession(session))
  headers.append('Set-Cookie', await forgetCartHeader())
  return redirect('/auth?mode=login', { status: 303, headers })
}

export function loader() {
  return redirect('/')
}

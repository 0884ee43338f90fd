import { type LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'
import { googleLogin } from '#app/provider/auth.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { googleAuthenticator } from '#app/session/google.server.ts'
import { defaultRouteFor, isNewGoogleUser, roleFromGroups } from '#app/session/roles.ts'
import { type ToastInput, redirectWithToast } from '#app/utils/toast.server.ts'
import { mergeCartAtSignIn } from '#app/features/cart/cart.server.ts'

const backToLogin = (message: ToastInput['message']) => redirectWithToast('/auth?mode=login', { type: 'error', message, durationMs: 8_000 })

/** Google sends the user back here; the credential goes to the provider's /auth/google/. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (new URL(request.url).searchParams.get('error')) {
    return redirectWithToast('/auth?mode=login', { type: 'info', message: { key: 'auth:google.cancelled' } })
  }
  let idToken: string
  try {
    idToken = (await googleAuthenticator().authenticate('google', request)).idToken
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) throw error
    return backToLogin({ key: 'errors.googleOther' })
  }

  let answer: Awaited<ReturnType<typeof googleLogin>>
  try {
    answer = await googleLogin(idToken)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    if (error.failure.kind === 'network') return backToLogin({ key: 'errors.network' })
    if (error.failure.status === 400) return backToLogin({ key: 'errors.google400' })
    if (error.failure.status === 409) return backToLogin({ key: 'errors.google409' })
    return backToLogin(error.failure.detail ? { text: error.failure.detail } : { key: 'errors.googleOther' })
  }
  if (!answer.success || !answer.tokens || !answer.user) {
    return backToLogin(answer.message ? { text: answer.message } : { key: 'errors.googleUnsuccessful' })
  }

  const auth = await getAuth(request)
  const { user, tokens } = answer
  auth.signIn({ access: tokens.access, refresh: tokens.refresh, user: { ...user, photo: user.photo ?? null } })
  // The new session's cookie is written by the HTTP layer, like every session change; the cart's here (decision 0047).
  const cartCookie = await mergeCartAtSignIn(request, auth)
  const headers = cartCookie ? { 'Set-Cookie': cartCookie } : undefined
  if (isNewGoogleUser(user.groups)) {
    return redirectWithToast('/dashboard?welcome=1', { type: 'success', message: { key: 'auth:google.welcome', values: { name: user.first_name || user.username } } }, { headers })
  }
  return redirect(defaultRouteFor(roleFromGroups(user.groups)), { headers })
}

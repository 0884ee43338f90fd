import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { googleAuthenticator } from '#app/session/google.server.ts'

/** Starts the sign-in with Google: the strategy answers with a redirect to the consent page. */
export async function action({ request }: ActionFunctionArgs) {
  return googleAuthenticator().authenticate('google', request)
}

export function loader() {
  return redirect('/auth?mode=login')
}

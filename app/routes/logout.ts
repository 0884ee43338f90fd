import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { sessionStorage, getSession } from '#app/session/session.server.ts'

/** Logout clears the tokens and the user and goes to the sign-in page (SPEC §4). */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request)
  return redirect('/auth?mode=login', {
    status: 303,
    headers: { 'Set-Cookie': await sessionStorage().destroySession(session) },
  })
}

export function loader() {
  return redirect('/')
}

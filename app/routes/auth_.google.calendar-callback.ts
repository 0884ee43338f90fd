import { type LoaderFunctionArgs } from '@remix-run/node'
import { finishCalendarConnection } from '#app/features/calendar/calendar-connect.server.ts'
import { requireUser } from '#app/session/auth.server.ts'

/**
 * Google's return from the calendar consent (docs/product.md §2's `/auth/google/calendar-callback`, a
 * resource route): the `state` checked against the session, the code exchanged by the provider;
 * in the popup a page that tells its opener, otherwise a redirect to the calendar with a toast.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'profissional' })
  return finishCalendarConnection(request, auth)
}

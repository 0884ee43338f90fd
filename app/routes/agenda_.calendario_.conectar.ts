import { type LoaderFunctionArgs } from '@remix-run/node'
import { startCalendarConnection } from '#app/features/calendar/calendar-connect.server.ts'
import { requireUser } from '#app/session/auth.server.ts'

/**
 * Starts connecting Google Calendar: a `state` kept in the session, then a redirect to Google's
 * consent page. A plain link without JavaScript (the full-page flow); `?popup=1` in the popup.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'profissional' })
  return startCalendarConnection(request, auth)
}

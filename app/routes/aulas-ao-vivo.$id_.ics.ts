import { type LoaderFunctionArgs } from '@remix-run/node'
import { languageOf } from '#app/i18n/i18next.server.ts'
import { liveClassCalendar } from '#app/provider/classes.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/**
 * A live class as an .ics download (`/aulas-ao-vivo/{id}/ics`, decision 0058): the provider's file
 * passed through in the page's language (its times in UTC, the class's page, never the meeting's
 * link); the token stays on the server and nothing keeps a copy.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request)
  const id = routeId(params)
  const file = await liveClassCalendar(auth, id, await languageOf(request)).catch(errorResponseFor)
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      'Content-Type': file.contentType.startsWith('text/calendar') ? file.contentType : 'text/calendar; charset=utf-8',
      'Content-Disposition': file.disposition ?? `attachment; filename="aula-ao-vivo-${id}.ics"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

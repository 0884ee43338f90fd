import { type LoaderFunctionArgs } from '@remix-run/node'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { liveThreadStream } from '#app/features/messages/live-stream.server.ts'
import { threadMessageView } from '#app/features/messages/thread-view.server.ts'
import { languageOf } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { openMessageStream } from '#app/provider/messages.server.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { hasRole } from '#app/session/roles.ts'
import { parseId } from '#app/utils/ids.ts'

const PRIVATE = { 'Cache-Control': 'private, no-store' }
/** A cursor is a message id; anything else is no cursor. */
const CURSOR = /^\d{1,16}$/

/** The newest message the browser has: the EventSource's Last-Event-ID on a reconnect, else `?after=` from the page. */
function cursorOf(request: Request): number | undefined {
  const candidates = [request.headers.get('Last-Event-ID'), new URL(request.url).searchParams.get('after')]
  const ids = candidates.filter((value): value is string => value !== null && CURSOR.test(value)).map(Number).filter((id) => Number.isSafeInteger(id))
  return ids.length ? Math.max(...ids) : undefined
}

const refused = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers: { ...PRIVATE, ...headers } })

/**
 * `/mensagens/{id}/eventos` (issue 44, decision 0088): the live thread as server-sent events for
 * the page with JavaScript. The provider's stream of the signed-in user, narrowed to this
 * conversation, passed through as it comes (the token never leaves the server; the session's
 * refresh and retry as for any call), each message in the page's shape and time zone. Where it
 * takes up: Last-Event-ID (the browser's reconnect) or `?after=` (the page's newest message), so a
 * reconnect after a drop misses nothing. Ends with the provider's (after 5 minutes) and when the
 * browser goes, which closes the provider's too.
 *
 * Never a page: signed out 401, an admin 403, a conversation not theirs 404, the provider down
 * 503, throttled 429 with its wait; the page's script opens it again later.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = parseId(params.id)
  if (id === undefined) return refused(404)
  const auth = await getAuth(request)
  const user = auth.user
  if (!auth.isSignedIn || !user) return refused(401)
  if (!hasRole(user.groups, ['paciente', 'profissional'])) return refused(403)
  const after = cursorOf(request)
  try {
    const [language, upstream] = await Promise.all([languageOf(request), openMessageStream(auth, id, after)])
    if (!upstream.body) return refused(502)
    const zone = timeZoneOr(user.time_zone)
    const body = liveThreadStream(upstream.body, { conversationId: id, after: after ?? 0, view: (message) => threadMessageView(message, zone, language) })
    return new Response(body, {
      status: 200,
      headers: {
        ...PRIVATE,
        'Content-Type': 'text/event-stream; charset=utf-8',
        // Never held back by a buffering proxy on the way.
        'X-Accel-Buffering': 'no',
      },
    })
  } catch (error) {
    // The session could not be renewed: the script stops until the page is loaded again.
    if (error instanceof Response) return refused(401)
    if (!(error instanceof ProviderError)) throw error
    if (error.failure.kind === 'network') return refused(503)
    const { status, retryAfterSeconds } = error.failure
    if (status === 429) return refused(429, { 'Retry-After': String(retryAfterSeconds ?? 60) })
    if (status === 401 || status === 403 || status === 404) return refused(status)
    return refused(502)
  }
}

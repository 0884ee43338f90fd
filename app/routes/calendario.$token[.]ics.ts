import { type LoaderFunctionArgs } from '@remix-run/node'
import { appointmentsCalendar, calendarTexts } from '#app/domain/calendar-file.ts'
import { getEnv } from '#app/env.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { FEED_TOKEN_PATTERN, getCalendarFeed } from '#app/provider/calendar-feed.server.ts'
import { ProviderError } from '#app/provider/errors.ts'

/**
 * A user's private calendar feed, /calendario/<token>.ics (issue 12), for a phone's calendar to
 * subscribe to: no session, the token in the URL is the credential (created and revoked in
 * /configuracoes; the path is redacted in every log). The same events as the one-appointment
 * download (consultas.$id_.ics.ts): "Consulta Innera com {first name}", the time, the link.
 * Kept by no shared cache (`private`), and by the calendar for 5 minutes at most, so a revoked
 * feed stops answering soon.
 */
const FEED_CACHE_CONTROL = 'private, max-age=300'

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers } })

export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = params.token ?? ''
  if (!FEED_TOKEN_PATTERN.test(token)) return text(404, 'Not found')
  let feed
  try {
    feed = await getCalendarFeed(token, request.signal)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    // Unknown or revoked: gone. The provider unreachable: the calendar tries again later.
    if (error.status === 404) return text(404, 'Not found')
    if (error.isNetwork) return text(503, 'Service unavailable', { 'Retry-After': '300' })
    return text(502, 'Bad gateway')
  }
  const t = await getFixedT(request, 'schedule')
  const body = appointmentsCalendar({
    appointments: feed.appointments.map((appointment) => ({
      id: appointment.id,
      status: appointment.status,
      start: appointment.start_time,
      end: appointment.end_time,
      otherFirstName: appointment.other_first_name,
    })),
    origin: getEnv().APP_PUBLIC_URL,
    timeZone: feed.time_zone,
    texts: calendarTexts(t),
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="consultas-innera.ics"',
      'Cache-Control': FEED_CACHE_CONTROL,
      // A secret URL: never in a search index.
      'X-Robots-Tag': 'noindex, nofollow',
    },
  })
}

import { randomBytes, timingSafeEqual } from 'node:crypto'
import { redirect } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { getEnv } from '#app/env.server.ts'
import { type Language, languageTags } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { connectCalendar, getAuthorizationUrl } from '#app/provider/calendar.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type Auth } from '#app/session/auth.server.ts'
import { CALENDAR_POPUP_CHANNEL, type PopupOutcome, callbackParams, popupMessage } from '#app/utils/calendar-popup-message.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { CALENDAR_PATH, calendarFailureText } from './calendar.server.ts'

/**
 * Connecting Google Calendar (docs/product.md §4, decision 0025): the start (a random `state` kept in the
 * user's session, the provider's consent URL) and Google's return to the callback (the `state`
 * checked once, the code exchanged by the provider). In the popup the answer is a tiny page that
 * hands the outcome to the page that opened it; without one, a redirect with a toast.
 */

const CALLBACK_PATH = '/auth/google/calendar-callback'
/** How long an authorization may take, from the start to Google's return. */
export const STATE_TTL_MS = 15 * 60 * 1000

/** Absolute, from the configured origin: never from the request's Host, which the visitor chooses. */
const callbackUrl = () => new URL(CALLBACK_PATH, getEnv().APP_PUBLIC_URL).toString()

type Outcome = { outcome: PopupOutcome; key: string } | { outcome: 'error'; text: string }

/** The start: `?popup=1` when the page opened it in a popup. */
export async function startCalendarConnection(request: Request, auth: Auth): Promise<Response> {
  const popup = new URL(request.url).searchParams.get('popup') === '1'
  // 43 characters of [A-Za-z0-9_-]: decision 0025's 16-200.
  const state = randomBytes(32).toString('base64url')
  auth.beginCalendarOAuth({ state, popup, createdAt: Date.now() })
  try {
    const { authorization_url } = await getAuthorizationUrl(auth, { redirect_uri: callbackUrl(), state })
    return redirect(authorization_url)
  } catch (error) {
    auth.endCalendarOAuth()
    const t = await getFixedT(request, ['calendar', 'common'])
    return finish(request, popup, { outcome: 'error', text: calendarFailureText(t, error, 'calendar:errors.connect') })
  }
}

function sameState(expected: string, given: string): boolean {
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Google's return: a `state` that is not the one this session is waiting for (forged, missing,
 * used already, too old) is refused before anything else; a denied consent is "cancelled";
 * otherwise the provider exchanges the code (any 400: the code is bad, used or expired).
 */
export async function finishCalendarConnection(request: Request, auth: Auth): Promise<Response> {
  const search = new URL(request.url).searchParams
  const pending = auth.pendingCalendarOAuth
  const given = search.get('state')
  const now = Date.now()
  const popup = pending?.popup ?? false
  const fresh = pending !== null && now - pending.createdAt <= STATE_TTL_MS && pending.createdAt <= now + 60_000
  if (!pending || !fresh || !given || !sameState(pending.state, given)) {
    if (pending && !fresh) auth.endCalendarOAuth()
    return finish(request, popup, { outcome: 'error', key: 'calendar:errors.state' })
  }
  // One use: from here on this state opens nothing again.
  auth.endCalendarOAuth()
  const params = callbackParams(search)
  if (params.outcome === 'cancelled') return finish(request, popup, { outcome: 'cancelled', key: 'calendar:popup.cancelled' })
  if (params.outcome === 'error') return finish(request, popup, { outcome: 'error', key: 'calendar:errors.connect' })
  try {
    const answer = await connectCalendar(auth, { auth_code: params.code, redirect_uri: callbackUrl() })
    if (answer.success === false || answer.calendar_enabled === false) return finish(request, popup, { outcome: 'error', key: 'calendar:errors.connect' })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    // docs/product.md §8: a 400 is the code (bad, used or expired), whatever its detail; anything else, the connection.
    const key = error.status === 400 ? 'calendar:errors.invalidCode' : 'calendar:errors.connect'
    return finish(request, popup, { outcome: 'error', key })
  }
  return finish(request, popup, { outcome: 'success', key: 'calendar:connection.connectedToast' })
}

async function finish(request: Request, popup: boolean, result: Outcome): Promise<Response> {
  if (!popup) {
    const message = 'key' in result ? { key: result.key } : { text: result.text }
    const type = result.outcome === 'success' ? 'success' : result.outcome === 'cancelled' ? 'info' : 'error'
    return redirectWithToast(CALENDAR_PATH, { type, message, durationMs: type === 'error' ? 8_000 : undefined })
  }
  const [t, language] = await Promise.all([getFixedT(request, ['calendar', 'common']), languageOf(request)])
  const text = 'key' in result ? t(result.key) : result.text
  return popupPage({ outcome: result.outcome, text, t, language })
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
/** JSON inside a <script>: nothing in it may close the element or open a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')

/**
 * The page the popup ends on: it posts the outcome to its opener (same origin only) and on the
 * same-origin channel, then closes itself. Left open (a window the script may not close, or one
 * opened by hand), it says what happened and links back. Its one inline script runs by its nonce.
 */
function popupPage({ outcome, text, t, language }: { outcome: PopupOutcome; text: string; t: TFunction; language: Language }): Response {
  const nonce = randomBytes(16).toString('base64')
  // The opener shows its own texts; an error's text travels with it, being the callback's to say.
  const message = scriptJson(outcome === 'error' ? popupMessage(outcome, text) : popupMessage(outcome))
  const script = `(function(){var m=${message};try{if(window.opener)window.opener.postMessage(m,window.location.origin)}catch(e){}try{new BroadcastChannel(${scriptJson(CALENDAR_POPUP_CHANNEL)}).postMessage(m)}catch(e){}setTimeout(function(){window.close()},150)})()`
  const styles = 'body{font-family:system-ui,sans-serif;margin:0;padding:2rem;color:#1f2933;line-height:1.5}main{max-width:28rem;margin:0 auto}a{color:#0a6650}'
  const html = `<!doctype html>
<html lang="${languageTags[language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t('calendar:title'))} · Innera</title>
<style nonce="${nonce}">${styles}</style>
</head>
<body>
<main>
<h1>${escapeHtml(t('calendar:title'))}</h1>
<p role="status">${escapeHtml(text)}</p>
<p>${escapeHtml(t('calendar:popup.close'))}</p>
<p><a href="${CALENDAR_PATH}">${escapeHtml(t('calendar:popup.back'))}</a></p>
</main>
<script nonce="${nonce}">${script}</script>
</body>
</html>
`
  return new Response(html, {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'Cache-Control': 'no-store',
    },
  })
}

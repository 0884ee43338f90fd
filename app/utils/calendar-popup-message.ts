/**
 * What the Google Calendar callback tells the page that opened its popup (docs/product.md §4, decision 0025):
 * the callback reads Google's redirect (`callbackParams`) and posts the outcome (`popupMessage`) to
 * its opener and on the same-origin channel; the popup driver (ui/calendar-popup.ts) accepts only
 * such messages (`parsePopupMessage`). Shared by the callback's server code and the browser's.
 */

/** The `type` of the message the callback page posts to its opener. */
export const POPUP_MESSAGE_TYPE = 'innera:calendar'

/**
 * The BroadcastChannel the calendar callback page announces its outcome on, besides posting it to
 * `window.opener`. The app's pages are served with `Cross-Origin-Opener-Policy:
 * same-origin-allow-popups`: a popup that comes back to the app from Google's (cross-origin)
 * consent page lands in a new browsing context group and has no `opener` any more, but the
 * same-origin channel still reaches the page that opened it.
 */
export const CALENDAR_POPUP_CHANNEL = 'innera:calendar'

export type PopupOutcome = 'success' | 'cancelled' | 'error'
type PopupMessage = { type: typeof POPUP_MESSAGE_TYPE; outcome: PopupOutcome; message?: string }

const OUTCOMES: readonly string[] = ['success', 'cancelled', 'error']

/** The callback page's message, or null for anything else posted to the window. */
export function parsePopupMessage(data: unknown): PopupMessage | null {
  if (typeof data !== 'object' || data === null) return null
  const { type, outcome, message } = data as Record<string, unknown>
  if (type !== POPUP_MESSAGE_TYPE || typeof outcome !== 'string' || !OUTCOMES.includes(outcome)) return null
  const result: PopupMessage = { type: POPUP_MESSAGE_TYPE, outcome: outcome as PopupOutcome }
  if (typeof message === 'string' && message.length <= 500) result.message = message
  return result
}

/** The message the callback page posts to its opener. */
export function popupMessage(outcome: PopupOutcome, message?: string): PopupMessage {
  return message === undefined ? { type: POPUP_MESSAGE_TYPE, outcome } : { type: POPUP_MESSAGE_TYPE, outcome, message }
}

type CallbackParams =
  | { outcome: 'code'; code: string; state: string | null }
  | { outcome: 'cancelled' }
  | { outcome: 'error'; error: string }

/**
 * What Google's redirect to the callback says: a code to exchange, a denied consent
 * (`error=access_denied`: cancelled), or another error (also when there is no code).
 */
export function callbackParams(search: URLSearchParams): CallbackParams {
  const error = search.get('error')
  if (error === 'access_denied') return { outcome: 'cancelled' }
  if (error) return { outcome: 'error', error }
  const code = search.get('code')
  if (!code) return { outcome: 'error', error: 'missing_code' }
  return { outcome: 'code', code, state: search.get('state') }
}

/**
 * The BroadcastChannel the calendar callback page announces its outcome on, besides posting it to
 * `window.opener`. The app's pages are served with `Cross-Origin-Opener-Policy:
 * same-origin-allow-popups`: a popup that comes back to the app from Google's (cross-origin)
 * consent page lands in a new browsing context group and has no `opener` any more, but the
 * same-origin channel still reaches the page that opened it.
 */
export const CALENDAR_POPUP_CHANNEL = 'innera:calendar'

import { type PopupOutcome, parsePopupMessage } from '#app/utils/calendar-popup-message.ts'

/**
 * The Google Calendar connection popup (docs/product.md §4, §8, §9; issue 13): a pure reducer over its states
 * and a small driver that opens the 500x600 popup, checks every second whether it closed, gives up
 * after 5 minutes and listens for the answer the callback page posts to its opener. The window and
 * the timers are injected, so tests run on fake ones. Texts are the app's: each state has a key.
 * The messages themselves (what the callback page posts) are app/utils/calendar-popup-message.ts.
 */

export const POPUP_WIDTH = 500
export const POPUP_HEIGHT = 600
export const POPUP_CHECK_INTERVAL_MS = 1_000
export const POPUP_TIMEOUT_MS = 5 * 60 * 1000
/**
 * After the popup is seen closed, how long an answer may still arrive: the callback page posts
 * its message and closes itself, and the opener may notice the close first.
 */
export const POPUP_CLOSED_GRACE_MS = 500
const POPUP_NAME = 'innera-google-calendar'

type PopupStatus = 'idle' | 'connecting' | 'connected' | 'cancelled' | 'blocked' | 'timeout' | 'error'
export type PopupState = { status: PopupStatus; message?: string }

type PopupEvent =
  | { type: 'open' }
  | { type: 'blocked' }
  | { type: 'closed' }
  | { type: 'timeout' }
  | { type: 'answer'; outcome: PopupOutcome; message?: string }
  | { type: 'reset' }

/** The translation key to show for each state (none while idle). */
export const POPUP_MESSAGE_KEYS: Record<PopupStatus, string | null> = {
  idle: null,
  connecting: 'calendar:popup.connecting',
  connected: 'calendar:popup.connected',
  cancelled: 'calendar:popup.cancelled',
  blocked: 'calendar:popup.blocked',
  timeout: 'calendar:popup.timeout',
  error: 'calendar:popup.error',
}

export const INITIAL_POPUP_STATE: PopupState = { status: 'idle' }

/** Whether the connection attempt is over (success or not). */
function isSettled(status: PopupStatus): boolean {
  return status !== 'idle' && status !== 'connecting'
}

/**
 * idle → connecting (open) → connected | cancelled | blocked | timeout | error. Only a connecting
 * popup takes an outcome; a later one (the close after an answer, a late timer) changes nothing.
 * Opening again from a settled state starts over. A denied consent is "cancelled", not an error.
 */
export function popupReducer(state: PopupState, event: PopupEvent): PopupState {
  switch (event.type) {
    case 'open':
      return state.status === 'connecting' ? state : { status: 'connecting' }
    case 'reset':
      return state.status === 'idle' ? state : INITIAL_POPUP_STATE
    case 'blocked':
      return state.status === 'connecting' || state.status === 'idle' ? { status: 'blocked' } : state
  }
  if (state.status !== 'connecting') return state
  switch (event.type) {
    case 'closed':
      return { status: 'cancelled' }
    case 'timeout':
      return { status: 'timeout' }
    case 'answer':
      if (event.outcome === 'success') return { status: 'connected' }
      if (event.outcome === 'cancelled' || event.message === 'access_denied') return { status: 'cancelled' }
      return event.message ? { status: 'error', message: event.message } : { status: 'error' }
  }
}

/** The key to show for a state. */
export function popupMessageKey(state: PopupState): string | null {
  return POPUP_MESSAGE_KEYS[state.status]
}

type OpenerGeometry = { screenX: number; screenY: number; outerWidth: number; outerHeight: number }

/** window.open's features: 500x600, centred on the opener when its geometry is known. */
export function popupFeatures(opener?: OpenerGeometry): string {
  const features = [`popup=yes`, `width=${POPUP_WIDTH}`, `height=${POPUP_HEIGHT}`]
  if (opener) {
    const left = Math.max(0, Math.round(opener.screenX + (opener.outerWidth - POPUP_WIDTH) / 2))
    const top = Math.max(0, Math.round(opener.screenY + (opener.outerHeight - POPUP_HEIGHT) / 2))
    features.push(`left=${left}`, `top=${top}`)
  }
  return features.join(',')
}

type PopupHandle = { readonly closed: boolean; close(): void }
export type PopupMessageEvent = { origin: string; data: unknown; source?: unknown }
type PopupTimers = {
  setInterval(callback: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** What the driver needs of the page: its origin, window.open and its message events. */
export type PopupEnvironment = {
  origin: string
  open(url: string, name: string, features: string): PopupHandle | null
  /** Adds a message listener; returns its removal. */
  listen(listener: (event: PopupMessageEvent) => void): () => void
  features?: string
}

/** The page's own window as a popup environment. */
export function browserPopupEnvironment(win: Window): PopupEnvironment {
  return {
    origin: win.location.origin,
    open: (url, name, features) => win.open(url, name, features),
    listen(listener) {
      const handler = (event: MessageEvent) => listener(event)
      win.addEventListener('message', handler)
      return () => win.removeEventListener('message', handler)
    },
    features: popupFeatures(win),
  }
}

const globalTimers: PopupTimers = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof globalThis.setInterval>),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
}

type PopupOptions = {
  env: PopupEnvironment
  /** Called on every change of state. */
  onChange(state: PopupState): void
  timers?: PopupTimers
  timeoutMs?: number
  checkIntervalMs?: number
  closedGraceMs?: number
}

export type PopupConnection = { getState(): PopupState; dispose(): void }

/**
 * Opens the authorisation URL in the popup and follows it to an outcome: blocked when the browser
 * refuses the window; the answer posted by the callback page (same origin and, when the event
 * says, the popup itself, only); cancelled when it closes without one; timeout after 5 minutes
 * (the popup is closed then). Settling, or `dispose()`, stops the timers and the listener.
 */
export function connectCalendarPopup(url: string, options: PopupOptions): PopupConnection {
  const { env, onChange, timers = globalTimers } = options
  const timeoutMs = options.timeoutMs ?? POPUP_TIMEOUT_MS
  const checkIntervalMs = options.checkIntervalMs ?? POPUP_CHECK_INTERVAL_MS
  const closedGraceMs = options.closedGraceMs ?? POPUP_CLOSED_GRACE_MS
  let state = INITIAL_POPUP_STATE
  let popup: PopupHandle | null = null
  let interval: unknown
  let timeout: unknown
  let grace: unknown
  let unlisten: (() => void) | undefined

  const stop = () => {
    if (interval !== undefined) timers.clearInterval(interval)
    if (timeout !== undefined) timers.clearTimeout(timeout)
    if (grace !== undefined) timers.clearTimeout(grace)
    interval = timeout = grace = undefined
    unlisten?.()
    unlisten = undefined
    if (popup && !popup.closed) popup.close()
  }
  const dispatch = (event: PopupEvent) => {
    const next = popupReducer(state, event)
    if (next === state) return
    state = next
    if (isSettled(state.status)) stop()
    onChange(state)
  }

  dispatch({ type: 'open' })
  popup = env.open(url, POPUP_NAME, env.features ?? popupFeatures())
  if (!popup) {
    dispatch({ type: 'blocked' })
    return { getState: () => state, dispose: stop }
  }
  const opened = popup
  unlisten = env.listen((event) => {
    if (event.origin !== env.origin) return
    if (event.source !== undefined && event.source !== null && event.source !== opened) return
    const message = parsePopupMessage(event.data)
    if (message) dispatch({ type: 'answer', outcome: message.outcome, message: message.message })
  })
  interval = timers.setInterval(() => {
    if (!opened.closed || grace !== undefined) return
    grace = timers.setTimeout(() => dispatch({ type: 'closed' }), closedGraceMs)
  }, checkIntervalMs)
  timeout = timers.setTimeout(() => dispatch({ type: 'timeout' }), timeoutMs)
  return { getState: () => state, dispose: stop }
}

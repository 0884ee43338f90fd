import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type PopupEnvironment,
  type PopupMessageEvent,
  type PopupState,
  INITIAL_POPUP_STATE,
  POPUP_CHECK_INTERVAL_MS,
  POPUP_CLOSED_GRACE_MS,
  POPUP_HEIGHT,
  POPUP_MESSAGE_KEYS,
  POPUP_TIMEOUT_MS,
  POPUP_WIDTH,
  connectCalendarPopup,
  popupFeatures,
  popupMessageKey,
  popupReducer,
} from './calendar-popup'
import { popupMessage } from '#app/utils/calendar-popup-message.ts'

const ORIGIN = 'https://app.innera.test'
const URL_ = 'https://accounts.google.test/o/oauth2/auth?state=abc'

/** A page with a fake window.open and message events; the timers are Vitest's fake ones. */
function fakePage({ blocked = false } = {}) {
  const popup = { closed: false, close: vi.fn(() => (popup.closed = true)) }
  const listeners = new Set<(event: PopupMessageEvent) => void>()
  const open = vi.fn(() => (blocked ? null : popup))
  const env: PopupEnvironment = {
    origin: ORIGIN,
    open,
    listen(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const post = (data: unknown, origin = ORIGIN, source: unknown = popup) => listeners.forEach((listener) => listener({ origin, data, source }))
  const states: PopupState[] = []
  return { env, popup, open, listeners, post, states, onChange: (state: PopupState) => states.push(state) }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the popup driver', () => {
  it('opens a 500x600 popup and connects on a success answer from its own origin', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    expect(page.open).toHaveBeenCalledWith(URL_, 'innera-google-calendar', expect.stringContaining('width=500,height=600'))
    expect(connection.getState()).toEqual({ status: 'connecting' })
    vi.advanceTimersByTime(30_000)
    page.post(popupMessage('success'))
    expect(page.states).toEqual([{ status: 'connecting' }, { status: 'connected' }])
    // Settled: no timers left, no listener, and a late close changes nothing.
    expect(vi.getTimerCount()).toBe(0)
    expect(page.listeners.size).toBe(0)
    expect(page.popup.close).toHaveBeenCalled()
    vi.advanceTimersByTime(POPUP_TIMEOUT_MS)
    expect(connection.getState()).toEqual({ status: 'connected' })
  })

  it('is cancelled when the popup closes without an answer, seen by the check every second', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    vi.advanceTimersByTime(2_500)
    page.popup.closed = true
    vi.advanceTimersByTime(500) // the check at 3 s sees it closed
    expect(connection.getState().status).toBe('connecting')
    vi.advanceTimersByTime(POPUP_CLOSED_GRACE_MS)
    expect(page.states.at(-1)).toEqual({ status: 'cancelled' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('takes an answer that arrives just after the popup closed itself', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    page.popup.closed = true
    vi.advanceTimersByTime(POPUP_CHECK_INTERVAL_MS)
    page.post(popupMessage('success'), ORIGIN, null)
    vi.advanceTimersByTime(POPUP_CLOSED_GRACE_MS)
    expect(connection.getState()).toEqual({ status: 'connected' })
    expect(page.states).toEqual([{ status: 'connecting' }, { status: 'connected' }])
  })

  it('is cancelled when the consent is denied', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    page.post(popupMessage('cancelled'))
    expect(connection.getState()).toEqual({ status: 'cancelled' })

    const other = fakePage()
    const denied = connectCalendarPopup(URL_, { env: other.env, onChange: other.onChange })
    other.post(popupMessage('error', 'access_denied'))
    expect(denied.getState()).toEqual({ status: 'cancelled' })
  })

  it('reports an error answer with its message', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    page.post(popupMessage('error', 'invalid_grant'))
    expect(connection.getState()).toEqual({ status: 'error', message: 'invalid_grant' })
    expect(popupMessageKey(connection.getState())).toBe('calendar:popup.error')
  })

  it('is blocked when the browser refuses the window, with nothing left running', () => {
    const page = fakePage({ blocked: true })
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    expect(page.states).toEqual([{ status: 'connecting' }, { status: 'blocked' }])
    expect(popupMessageKey(connection.getState())).toBe('calendar:popup.blocked')
    expect(vi.getTimerCount()).toBe(0)
    expect(page.listeners.size).toBe(0)
  })

  it('times out (short test setting), closing the popup', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange, timeoutMs: 3_000 })
    vi.advanceTimersByTime(2_999)
    expect(connection.getState().status).toBe('connecting')
    vi.advanceTimersByTime(1)
    expect(connection.getState()).toEqual({ status: 'timeout' })
    expect(popupMessageKey(connection.getState())).toBe('calendar:popup.timeout')
    expect(page.popup.close).toHaveBeenCalledOnce()
    // The close it caused is not read as a cancel.
    vi.advanceTimersByTime(10_000)
    expect(page.states).toEqual([{ status: 'connecting' }, { status: 'timeout' }])
  })

  it('times out after 5 minutes by default', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    vi.advanceTimersByTime(POPUP_TIMEOUT_MS - 1)
    expect(connection.getState().status).toBe('connecting')
    vi.advanceTimersByTime(1)
    expect(connection.getState().status).toBe('timeout')
  })

  it('ignores messages from another origin, another window or of another shape', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange, timeoutMs: 10_000 })
    page.post(popupMessage('success'), 'https://evil.test')
    page.post(popupMessage('success'), ORIGIN, { closed: false })
    page.post({ type: 'other', outcome: 'success' })
    page.post('success')
    expect(connection.getState()).toEqual({ status: 'connecting' })
    vi.advanceTimersByTime(10_000)
    expect(connection.getState()).toEqual({ status: 'timeout' })
  })

  it('stops everything when disposed', () => {
    const page = fakePage()
    const connection = connectCalendarPopup(URL_, { env: page.env, onChange: page.onChange })
    connection.dispose()
    expect(vi.getTimerCount()).toBe(0)
    expect(page.listeners.size).toBe(0)
    expect(page.popup.close).toHaveBeenCalled()
  })
})

describe('popupReducer', () => {
  const connecting = popupReducer(INITIAL_POPUP_STATE, { type: 'open' })
  it('goes from idle to connecting, and to each outcome only from there', () => {
    expect(connecting).toEqual({ status: 'connecting' })
    expect(popupReducer(connecting, { type: 'open' })).toBe(connecting)
    expect(popupReducer(connecting, { type: 'closed' })).toEqual({ status: 'cancelled' })
    expect(popupReducer(connecting, { type: 'timeout' })).toEqual({ status: 'timeout' })
    expect(popupReducer(connecting, { type: 'blocked' })).toEqual({ status: 'blocked' })
    expect(popupReducer(connecting, { type: 'answer', outcome: 'success' })).toEqual({ status: 'connected' })
    expect(popupReducer(connecting, { type: 'answer', outcome: 'error' })).toEqual({ status: 'error' })
    expect(popupReducer(INITIAL_POPUP_STATE, { type: 'closed' })).toBe(INITIAL_POPUP_STATE)
  })

  it('keeps a settled outcome, and starts over on open or reset', () => {
    const connected = popupReducer(connecting, { type: 'answer', outcome: 'success' })
    expect(popupReducer(connected, { type: 'closed' })).toBe(connected)
    expect(popupReducer(connected, { type: 'timeout' })).toBe(connected)
    expect(popupReducer(connected, { type: 'blocked' })).toBe(connected)
    expect(popupReducer({ status: 'timeout' }, { type: 'open' })).toEqual({ status: 'connecting' })
    expect(popupReducer({ status: 'error' }, { type: 'reset' })).toEqual({ status: 'idle' })
  })

  it('has a translation key for every state but idle', () => {
    expect(POPUP_MESSAGE_KEYS).toEqual({
      idle: null,
      connecting: 'calendar:popup.connecting',
      connected: 'calendar:popup.connected',
      cancelled: 'calendar:popup.cancelled',
      blocked: 'calendar:popup.blocked',
      timeout: 'calendar:popup.timeout',
      error: 'calendar:popup.error',
    })
  })
})

describe('the popup window', () => {
  it('centres the 500x600 popup on the opener when it can', () => {
    expect([POPUP_WIDTH, POPUP_HEIGHT, POPUP_CHECK_INTERVAL_MS, POPUP_TIMEOUT_MS]).toEqual([500, 600, 1_000, 300_000])
    expect(popupFeatures()).toBe('popup=yes,width=500,height=600')
    expect(popupFeatures({ screenX: 100, screenY: 50, outerWidth: 1300, outerHeight: 900 })).toBe('popup=yes,width=500,height=600,left=500,top=200')
  })
})

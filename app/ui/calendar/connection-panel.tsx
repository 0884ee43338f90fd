import { Form, Link, useRevalidator } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import {
  INITIAL_POPUP_STATE,
  type PopupConnection,
  type PopupEnvironment,
  type PopupState,
  browserPopupEnvironment,
  connectCalendarPopup,
  popupMessageKey,
} from '#app/ui/calendar-popup.ts'
import { SubmitButton } from '#app/ui/forms.tsx'
import { CALENDAR_POPUP_CHANNEL } from '#app/utils/calendar-popup-message.ts'

/** The full-page start of the connection; `?popup=1` when it runs in the popup. */
const CONNECT_PATH = '/agenda/calendario/conectar'

type ConnectionView = {
  state: 'not-connected' | 'connected' | 'reconnect'
  email: string | null
  /** The synced calendar (GET /calendar/'s `primary_calendar_id`). */
  calendarId: string | null
  lastSync: string | null
  fromCache: boolean
  syncError: string | null
  stale: boolean
  syncInProgress: boolean
  eventsError: string | null
  confirmDisconnect: boolean
}

/**
 * The page's window as the popup driver's environment, listening on the same-origin channel too:
 * the callback page may have lost its opener on the way back from Google (see CALENDAR_POPUP_CHANNEL).
 */
function popupEnvironment(win: Window): PopupEnvironment {
  const base = browserPopupEnvironment(win)
  return {
    ...base,
    listen(listener) {
      const stopWindow = base.listen(listener)
      const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CALENDAR_POPUP_CHANNEL) : null
      if (channel) channel.onmessage = (event: MessageEvent) => listener({ origin: win.location.origin, data: event.data })
      return () => {
        stopWindow()
        channel?.close()
      }
    },
  }
}

/** The popup flow of docs/product.md §4: opens it, follows it, and revalidates the page once connected. */
function useCalendarPopup() {
  const revalidator = useRevalidator()
  const [state, setState] = useState<PopupState>(INITIAL_POPUP_STATE)
  const connection = useRef<PopupConnection | null>(null)
  useEffect(() => () => connection.current?.dispose(), [])
  const start = useCallback(() => {
    connection.current?.dispose()
    connection.current = connectCalendarPopup(`${CONNECT_PATH}?popup=1`, {
      env: popupEnvironment(window),
      onChange(next) {
        setState(next)
        if (next.status === 'connected') revalidator.revalidate()
      },
    })
  }, [revalidator])
  return { state, start }
}

/**
 * The connection (docs/product.md §4): connect (a plain link to the full-page flow; with JavaScript a 500x600
 * popup), or, connected, the Google account, its synced calendar, the last sync, sync buttons and disconnect with a
 * confirmation; a revoked grant offers "Reconnect". What the popup says stays in one live region.
 */
export function ConnectionPanel({ connection, error }: { connection: ConnectionView; error: string | null }) {
  const { t } = useTranslation('calendar')
  const popup = useCalendarPopup()
  const onConnect = (event: React.MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window (modifier keys, middle click) keeps the full-page flow.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    popup.start()
  }
  const popupKey = popupMessageKey(popup.state)
  const connectLink = (label: string, className = 'btn-primary') => (
    <a href={CONNECT_PATH} onClick={onConnect} className={className} aria-disabled={popup.state.status === 'connecting' || undefined}>
      {label}
    </a>
  )

  return (
    <section aria-labelledby="connection-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="connection-title" className="text-2xl font-semibold">
        {t('connection.title')}
      </h2>
      {error ? (
        <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          <p>{error}</p>
        </div>
      ) : null}
      {connection.state === 'not-connected' ? (
        <>
          <p className="mt-3 font-medium">{t('connection.notConnected')}</p>
          <p className="mt-1 max-w-2xl text-muted">{t('connection.notConnectedHint')}</p>
          <div className="mt-4 flex flex-wrap gap-3">{connectLink(t('connection.connect'))}</div>
        </>
      ) : (
        <>
          <p className="mt-3 font-medium">{connection.email ? t('connection.connectedAs', { email: connection.email }) : t('connection.connected')}</p>
          {connection.calendarId ? <p className="mt-1 text-muted">{t('connection.primaryCalendar', { calendar: connection.calendarId })}</p> : null}
          {connection.state === 'reconnect' ? (
            <div className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
              <p>{t('connection.reconnectNeeded')}</p>
              <div className="mt-3">{connectLink(t('connection.reconnect'))}</div>
            </div>
          ) : null}
          <p className="mt-2 text-muted">{connection.lastSync ? t('connection.lastSync', { when: connection.lastSync }) : t('connection.neverSynced')}</p>
          {connection.syncError ? (
            <p className="mt-2 rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-red-800">{connection.syncError}</p>
          ) : connection.eventsError ? (
            <p className="mt-2 rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-red-800">{connection.eventsError}</p>
          ) : connection.state === 'connected' ? (
            <p className="mt-1 text-sm text-muted">{connection.fromCache ? t('connection.fromCache') : t('connection.autoSynced')}</p>
          ) : null}
          {connection.stale && !connection.syncError ? <p className="mt-1 text-sm text-amber-900">{t('connection.stale')}</p> : null}
          {connection.syncInProgress ? <p className="mt-1 text-sm text-muted">{t('connection.syncing')}</p> : null}
          {connection.confirmDisconnect ? (
            <DisconnectConfirmation />
          ) : (
            <Form method="post" className="mt-4 flex flex-wrap gap-3">
              {connection.state === 'connected' ? (
                <>
                  <SubmitButton name="intent" value="sync" className="btn-primary" pendingText={t('connection.syncPending')}>
                    {t('connection.sync')}
                  </SubmitButton>
                  <SubmitButton name="intent" value="sync-full" className="btn-secondary" pendingText={t('connection.syncPending')}>
                    {t('connection.syncFull')}
                  </SubmitButton>
                </>
              ) : null}
              <Link to="?desconectar=1#connection-title" className="btn-secondary" preventScrollReset>
                {t('connection.disconnect')}
              </Link>
            </Form>
          )}
        </>
      )}
      <div role="status" aria-live="polite" className="mt-4 empty:hidden">
        {popupKey ? (
          <div className={`rounded-lg px-4 py-3 ${popup.state.status === 'connected' ? 'bg-brand-50 text-brand-800' : popup.state.status === 'connecting' ? 'bg-gray-50 text-ink' : 'border border-red-200 bg-red-50 text-red-800'}`}>
            <p>{popup.state.message ?? t(popupKey)}</p>
            {popup.state.status === 'blocked' ? (
              <p className="mt-2">
                <a href={CONNECT_PATH} className="link">
                  {t('connection.fullPage')}
                </a>
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  )
}

function DisconnectConfirmation() {
  const { t } = useTranslation('calendar')
  return (
    <div className="mt-4 rounded-2xl border border-red-200 p-5">
      <h3 className="text-xl font-semibold">{t('connection.disconnectTitle')}</h3>
      <p className="mt-2 max-w-2xl">{t('connection.disconnectLead')}</p>
      <Form method="post" className="mt-4 flex flex-wrap gap-3">
        <SubmitButton name="intent" value="disconnect" className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('connection.disconnectPending')}>
          {t('connection.disconnectConfirm')}
        </SubmitButton>
        <Link className="btn-secondary" to="?" preventScrollReset>
          {t('connection.keepConnected')}
        </Link>
      </Form>
    </div>
  )
}

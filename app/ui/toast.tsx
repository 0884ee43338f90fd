import { useEffect, useReducer } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Toast, type ToastMessage } from '#app/utils/toast-message.ts'
import { CLIENT_TOAST_EVENT, toastDuration, toastReducer } from './toast-state.ts'

function useMessage() {
  const { t } = useTranslation()
  return (message: ToastMessage) => ('text' in message ? message.text : t(message.key, message.values))
}

/**
 * The one toast region: a live region that is always in the page, so screen readers announce
 * what appears in it. Server toasts arrive through the root loader, the browser's own through
 * showClientToast; a new one replaces the current. It sits at the bottom of the screen, above the
 * cookie banner when that shows (root.tsx holds both), never over the header's controls (decision 0080).
 */
export function ToastRegion({ toast: incoming }: { toast: Toast | null }) {
  const [toast, dispatch] = useReducer(toastReducer, incoming)
  const { t } = useTranslation()
  const render = useMessage()

  useEffect(() => {
    if (incoming) dispatch({ type: 'show', toast: incoming })
  }, [incoming])

  // Toasts from the browser (showClientToast): a one-tap answer that the server refused, say.
  useEffect(() => {
    const show = (event: Event) => dispatch({ type: 'show', toast: (event as CustomEvent<Toast>).detail })
    window.addEventListener(CLIENT_TOAST_EVENT, show)
    return () => window.removeEventListener(CLIENT_TOAST_EVENT, show)
  }, [])

  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(() => dispatch({ type: 'expire', id: toast.id }), toastDuration(toast))
    return () => clearTimeout(timer)
  }, [toast])

  return (
    <div className="flex justify-center px-4" role="status" aria-live="polite" aria-atomic="true">
      {toast ? (
        // Keyed: a toast that replaces another is a new element, so its 5-second CSS expiry starts again.
        <div
          key={toast.id}
          data-toast-type={toast.type}
          className={`toast-expire pointer-events-auto mb-4 flex max-w-lg items-start gap-3 rounded-xl px-4 py-3 text-base shadow-lg ${
            toast.type === 'error' ? 'bg-red-800 text-white' : toast.type === 'success' ? 'bg-brand-800 text-white' : 'bg-ink text-white'
          }`}
        >
          <p className="flex-1">{render(toast.message)}</p>
          <button
            type="button"
            onClick={() => dispatch({ type: 'dismiss', id: toast.id })}
            className="-my-1 -mr-2 min-h-9 min-w-9 rounded-full text-xl leading-none hover:bg-white/15"
            aria-label={t('toast.dismiss')}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ) : null}
    </div>
  )
}

import { type Toast } from '#app/utils/toast-message.ts'

/** docs/product.md §2, §9: one toast at a time (a new one replaces the current: toastReducer); 5 seconds by default. */
export const DEFAULT_TOAST_DURATION_MS = 5_000

type ToastAction = { type: 'show'; toast: Toast } | { type: 'dismiss'; id: string } | { type: 'expire'; id: string }

export function toastReducer(current: Toast | null, action: ToastAction): Toast | null {
  switch (action.type) {
    case 'show':
      return action.toast
    // A timer or a close button only removes the toast it belongs to, never a newer one.
    case 'dismiss':
    case 'expire':
      return current?.id === action.id ? null : current
  }
}

export function toastDuration(toast: Toast) {
  return toast.durationMs ?? DEFAULT_TOAST_DURATION_MS
}

/** The browser event through which a component shows a toast the server did not send (a fetcher's failure). */
export const CLIENT_TOAST_EVENT = 'innera:toast'

let clientToasts = 0

/** Shows a toast from the browser, in the one toast region (replacing the current toast). */
export function showClientToast(toast: Omit<Toast, 'id'>) {
  clientToasts += 1
  window.dispatchEvent(new CustomEvent<Toast>(CLIENT_TOAST_EVENT, { detail: { ...toast, id: `client-${clientToasts}` } }))
}

/**
 * A toast as the server flashes it (toast.server.ts) and the page shows it (ui/toast.tsx): a
 * translation key with its values, or a text the server wrote.
 */
export type ToastMessage = { key: string; values?: Record<string, string | number> } | { text: string }
export type Toast = { id: string; type: 'info' | 'success' | 'error'; message: ToastMessage; durationMs?: number }

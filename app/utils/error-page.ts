import { isRouteErrorResponse } from '@remix-run/react'
import { NETWORK_ERROR_REASON } from '#app/provider/errors.ts'

export type ErrorPageKind = '400' | '401' | '403' | '404' | '413' | '500' | 'Network' | 'other'

export function errorPageKind(error: unknown): ErrorPageKind {
  if (isRouteErrorResponse(error)) {
    const data = error.data as { reason?: string } | undefined
    if (data && typeof data === 'object' && data.reason === NETWORK_ERROR_REASON) return 'Network'
    if ([400, 401, 403, 404, 413, 500].includes(error.status)) return String(error.status) as ErrorPageKind
    return 'other'
  }
  // In the browser, a navigation whose data request found no server at all.
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) return 'Network'
  return '500'
}

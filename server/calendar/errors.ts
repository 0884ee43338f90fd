import { apiError } from '#server/http/errors.ts'

/**
 * The calendar's answers that are not field errors (decision 0025): each carries a `code` the
 * app maps to docs/product.md §8's message, and a detail in the catalogue's words where it has some.
 */

const CALENDAR_NOT_CONNECTED = 'Calendar não está conectado'

export const calendarNotConnected = () => apiError(400, CALENDAR_NOT_CONNECTED, { code: 'calendar_not_connected' })

/** Google refused the grant (revoked or expired): only connecting again helps. */
export const calendarReconnect = () =>
  apiError(400, 'A autorização do Google Calendar foi revogada ou expirou. Conecte o Google Calendar novamente.', { code: 'calendar_reconnect' })

export const invalidAuthorizationCode = () => apiError(400, 'Código de autorização inválido ou expirado', { code: 'invalid_grant' })

export const syncInProgress = () => apiError(409, 'Sync already in progress', { code: 'sync_in_progress' })

export const syncFailed = () => apiError(502, 'Não foi possível sincronizar com Google Calendar', { code: 'sync_failed' })

/** Google failed (or answered what we cannot use) for something else than the grant. */
export const googleFailed = (detail: string) => apiError(502, detail, { code: 'google_error' })

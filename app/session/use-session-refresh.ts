import { useEffect } from 'react'
import { type RefreshOutcome, createRefreshScheduler } from './refresh-timing.ts'

const SESSION_REFRESH_PATH = '/resources/session/refresh'

async function refreshInBackground(): Promise<RefreshOutcome> {
  try {
    const response = await fetch(SESSION_REFRESH_PATH, { method: 'POST', headers: { Accept: 'application/json' } })
    const body = (await response.json().catch(() => null)) as { status?: string; accessExpiresAt?: number } | null
    if (response.ok && body?.status === 'ok' && typeof body.accessExpiresAt === 'number') {
      return { kind: 'ok', expiresAt: body.accessExpiresAt }
    }
    return body?.status === 'network' ? { kind: 'network' } : { kind: 'failed' }
  } catch {
    // The app itself could not be reached: a network failure, retried once.
    return { kind: 'network' }
  }
}

/**
 * The browser's share of docs/product.md §4's scheduled refresh: the server sends only the access token's
 * expiry time (never the token); at the scheduled time the resource route refreshes the session
 * cookie. A failure that is not the network's signs the user out.
 */
export function useSessionRefresh(accessExpiresAt: number | null) {
  useEffect(() => {
    if (!accessExpiresAt) return
    const scheduler = createRefreshScheduler({
      refresh: refreshInBackground,
      onLogout: () => window.location.assign('/auth?mode=login'),
      timers: {
        now: () => Date.now(),
        setTimeout: (callback, ms) => window.setTimeout(callback, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
      },
    })
    scheduler.start(accessExpiresAt)
    return () => scheduler.stop()
  }, [accessExpiresAt])
}

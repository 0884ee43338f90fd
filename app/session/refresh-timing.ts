/** docs/product.md §4, §9: refresh at the earlier of one minute before expiry or half the remaining lifetime. */
const REFRESH_LEAD_MS = 60_000
/** After a network failure, one more try this much later. */
const NETWORK_RETRY_MS = 30_000

/** Milliseconds from now until the refresh should run; 0 when that time has passed. */
export function refreshDelayMs(expiresAtSeconds: number, nowMs: number): number {
  const expiresAtMs = expiresAtSeconds * 1000
  const remaining = expiresAtMs - nowMs
  const at = Math.min(expiresAtMs - REFRESH_LEAD_MS, nowMs + remaining / 2)
  return Math.max(0, Math.floor(at - nowMs))
}

export type RefreshOutcome = { kind: 'ok'; expiresAt: number } | { kind: 'network' } | { kind: 'failed' }

type Timers = {
  now: () => number
  setTimeout: (callback: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

/**
 * The browser's refresh schedule: waits until refreshDelayMs, refreshes, and schedules the next
 * one from the new expiry. A network failure is retried once after 30 s; any other failure
 * (or a second network failure) forces the logout.
 */
export function createRefreshScheduler({
  refresh,
  onLogout,
  timers,
}: {
  refresh: () => Promise<RefreshOutcome>
  onLogout: () => void
  timers: Timers
}) {
  let handle: unknown
  let stopped = false

  const schedule = (ms: number, retrying: boolean) => {
    if (stopped) return
    timers.clearTimeout(handle)
    handle = timers.setTimeout(() => void run(retrying), ms)
  }

  const run = async (retrying: boolean) => {
    if (stopped) return
    const outcome = await refresh()
    if (stopped) return
    if (outcome.kind === 'ok') schedule(refreshDelayMs(outcome.expiresAt, timers.now()), false)
    else if (outcome.kind === 'network' && !retrying) schedule(NETWORK_RETRY_MS, true)
    else {
      stopped = true
      onLogout()
    }
  }

  return {
    start(expiresAtSeconds: number) {
      stopped = false
      schedule(refreshDelayMs(expiresAtSeconds, timers.now()), false)
    },
    stop() {
      stopped = true
      timers.clearTimeout(handle)
    },
  }
}

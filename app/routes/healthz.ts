import { getEnv } from '#app/env.server.ts'
import { providerFetch } from '#app/provider/fetch.server.ts'
import { isProviderError } from '#app/provider/errors.ts'

const startedAt = Date.now()

/** The app's state and the provider's, for load balancers and the container's HEALTHCHECK. */
export async function loader() {
  const started = performance.now()
  let provider: { status: 'ok' | 'unreachable' | 'error'; latency_ms: number; status_code?: number }
  try {
    await providerFetch('/healthz/', { signal: AbortSignal.timeout(Math.min(getEnv().PROVIDER_TIMEOUT_MS, 3_000)) })
    provider = { status: 'ok', latency_ms: Math.round(performance.now() - started) }
  } catch (error) {
    if (!isProviderError(error) && !(error instanceof DOMException)) throw error
    const latency_ms = Math.round(performance.now() - started)
    provider = isProviderError(error) && error.status
      ? { status: 'error', latency_ms, status_code: error.status }
      : { status: 'unreachable', latency_ms }
  }
  const body = {
    status: provider.status === 'ok' ? 'ok' : 'degraded',
    app: { status: 'ok', uptime_s: Math.round((Date.now() - startedAt) / 1000) },
    provider,
  }
  return Response.json(body, { status: 200, headers: { 'Cache-Control': 'no-store' } })
}

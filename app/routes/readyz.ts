import { getEnv } from '#app/env.server.ts'
import { providerFetch } from '#app/provider/fetch.server.ts'
import { isProviderError } from '#app/provider/errors.ts'

/**
 * Readiness, for load balancers and the container's HEALTHCHECK: 200 when this app can serve,
 * that is when the provider says it is ready (its /readyz/: migrated, its database answering);
 * 503 "not ready" while the provider starts, migrates, or cannot reach its database, or does not
 * answer. /healthz stays the cheap one, 200 while the process answers.
 */
export async function loader() {
  const headers = { 'Cache-Control': 'no-store' }
  try {
    await providerFetch('/readyz/', { signal: AbortSignal.timeout(Math.min(getEnv().PROVIDER_TIMEOUT_MS, 3_000)) })
  } catch (error) {
    if (!isProviderError(error) && !(error instanceof DOMException)) throw error
    const provider = isProviderError(error) && error.status ? 'not ready' : 'unreachable'
    return Response.json({ status: 'not ready', provider }, { status: 503, headers: { ...headers, 'Retry-After': '5' } })
  }
  return Response.json({ status: 'ready', provider: 'ready' }, { status: 200, headers })
}

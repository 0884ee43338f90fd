import { getConnInfo } from '@hono/node-server/conninfo'
import type { ThrottleScope } from '#server/config.ts'
import type { AppContext } from '#server/http/api.ts'
import { clientAddress } from '#server/http/client-address.ts'
import { throttled } from '#server/http/errors.ts'
import type { Services } from '#server/services.ts'

function socketAddress(c: AppContext): string | undefined {
  try {
    return getConnInfo(c).remote.address
  } catch {
    // No socket when the app is called in-process (tests, loopback fetches).
    return undefined
  }
}

/** Works out once per request (in the app's first middleware) whom per-address limits count. */
export function resolveRequestAddress(c: AppContext, forwardingSecret: string | undefined): string {
  return clientAddress(
    { forwardedFor: c.req.header('x-forwarded-for'), forwardingSecret: c.req.header('x-forwarding-secret'), socketAddress: socketAddress(c) },
    forwardingSecret,
  )
}

/** The request's address for per-address limits: see resolveRequestAddress and http/client-address.ts. */
export function requestAddress(c: AppContext): string {
  return c.get('clientAddress')
}

/** Counts a request against one of the configured limits; throws 429 with Retry-After when over it. */
export async function enforceThrottle({ throttle, config }: Services, scope: ThrottleScope, key: string): Promise<void> {
  const result = await throttle.hit(scope, key.toLowerCase(), config.throttle.rates[scope])
  if (!result.allowed) throw throttled(result.retryAfterSeconds)
}

import { getConnInfo } from '@hono/node-server/conninfo'
import type { ThrottleScope } from '../config'
import type { AppContext } from '../http/api'
import { clientAddress } from '../http/client-address'
import { throttled } from '../http/errors'
import type { Services } from '../services'

function socketAddress(c: AppContext): string | undefined {
  try {
    return getConnInfo(c).remote.address
  } catch {
    // No socket when the app is called in-process (tests, loopback fetches).
    return undefined
  }
}

export function requestAddress(c: AppContext): string {
  return clientAddress(c.req.header('x-forwarded-for'), socketAddress(c))
}

/** Counts a request against one of the configured limits; throws 429 with Retry-After when over it. */
export function enforceThrottle({ throttle, config }: Services, scope: ThrottleScope, key: string): void {
  const result = throttle.hit(`${scope}:${key.toLowerCase()}`, config.throttle.rates[scope])
  if (!result.allowed) throw throttled(result.retryAfterSeconds)
}

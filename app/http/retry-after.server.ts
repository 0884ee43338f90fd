import { type RequestContext } from './request-context.server.ts'

/**
 * Writes the wait of a throttled answer (429) into its response, whichever route answered and
 * however (a form's reply in a document, a data request), as the session cookie is: Remix passes
 * an action's own headers into a document only through a route's `headers` export, which every
 * form route would otherwise have to remember. A response with its own Retry-After keeps it.
 */
export function passRetryAfter(context: RequestContext | undefined, status: number, headers: Headers): void {
  if (status !== 429 || context?.retryAfterSeconds === undefined || headers.has('Retry-After')) return
  headers.set('Retry-After', String(context.retryAfterSeconds))
}

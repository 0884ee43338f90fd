import { AsyncLocalStorage } from 'node:async_hooks'

/** What the app knows about the request being served, for logs and Server-Timing. */
export type RequestContext = {
  requestId: string
  /** The HTTP method: after a document POST, the page's loaders run on the same request. */
  method?: string
  /** The visitor's address, passed on to the provider so its throttles count visitors, not the app. */
  clientAddress?: string
  /**
   * Set by the HTTP server when the body is over the size limit: Remix then gets an empty body,
   * and readFormData answers 413 instead of parsing anything.
   */
  bodyTooLarge?: boolean
  /**
   * Set on the first provider call of this request that could not reach the provider (timeout,
   * refused): the request's later calls fail at once instead of each waiting for the timeout.
   */
  providerUnreachable?: boolean
  providerTimings: { name: string; durationMs: number }[]
  /**
   * The request's session, once something asked for it: the HTTP layer writes its changes (a
   * refreshed token, a sign-in, a sign-out) into the response, so no route has to remember to.
   */
  session?: PendingSession
  /**
   * Set when a form's reply is a throttled 429: the HTTP layer writes the wait into the response's
   * Retry-After, whichever route answered (Remix drops an action's own headers from a document).
   */
  retryAfterSeconds?: number
}

/** What the HTTP layer needs of the session: its Set-Cookie when this request changed it. */
type PendingSession = { setCookie(): Promise<string | undefined> }

// Kept on globalThis: the HTTP server and the Remix build are separate bundles, and both must see one store.
const key = Symbol.for('innera.request-context')
const globalStore = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestContext> | undefined>
export const requestContextStorage: AsyncLocalStorage<RequestContext> = (globalStore[key] ??=
  new AsyncLocalStorage<RequestContext>())

export function currentRequestContext(): RequestContext | undefined {
  return requestContextStorage.getStore()
}

/**
 * True while serving a form submission sent without JavaScript: the action has answered and the
 * page's loaders now render it again around what the user typed.
 */
export function isFormSubmission(): boolean {
  return currentRequestContext()?.method === 'POST'
}

/** What a response that depends on the visitor's session may be: kept by nobody, shown to nobody else. */
export const PRIVATE_NO_STORE = 'private, no-store'

const SESSION_COOKIE = /(?:^|;\s*)__session=/

/**
 * True when a response may differ per visitor: the request carries the session cookie, or the
 * response sets a cookie (a sign-in, a refresh, a flash). Such a response must never be cached by
 * a shared cache nor kept on disk by the browser (signed-in pages and their .data answers alike).
 */
export function dependsOnSession({ cookie, setsCookie }: { cookie: string | undefined; setsCookie: boolean }): boolean {
  return setsCookie || (cookie !== undefined && SESSION_COOKIE.test(cookie))
}

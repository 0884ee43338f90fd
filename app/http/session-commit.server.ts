import { type RequestContext } from './request-context.server.ts'

/**
 * Writes the request's session changes into its response: a refreshed access token, a sign-in or
 * a sign-out reach the browser whichever route answered and however it answered (data, redirect,
 * error page), without any route code. A response that already sets the session cookie itself
 * (the "session expired" redirect) keeps its own.
 */
export async function commitSession(context: RequestContext | undefined, headers: Headers): Promise<void> {
  const cookie = await context?.session?.setCookie()
  if (!cookie) return
  const name = cookie.slice(0, cookie.indexOf('=') + 1)
  if (headers.getSetCookie().some((existing) => existing.startsWith(name))) return
  headers.append('Set-Cookie', cookie)
}

import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { vi } from 'vitest'

/**
 * What the page tests share when they draw a route with createRemixStub over its real loader and
 * action (msw as the provider).
 */

/** The stub's router announces React Router 7's changes; the app's own build decides those. Call it in a beforeEach. */
export function ignoreRouterFutureWarnings(): void {
  const warn = console.warn
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('React Router Future Flag Warning')) warn(...args)
  })
}

export type ServerFunction = (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<unknown>

/**
 * The route's loader or action run with these cookies (the signed-in user's session: the stub's
 * requests carry none). A form the stub posts goes on as the browser sends it, urlencoded unless
 * it says otherwise.
 */
export function withCookie(fn: ServerFunction, cookie: string) {
  return async ({ request, params }: { request: Request; params: LoaderFunctionArgs['params'] }) => {
    const headers = new Headers(request.headers)
    headers.set('Cookie', cookie)
    const body = request.method === 'POST' ? await request.text() : undefined
    if (body !== undefined && !headers.has('Content-Type')) headers.set('Content-Type', 'application/x-www-form-urlencoded')
    return fn({ request: new Request(request.url, { method: request.method, headers, body }), params, context: {} })
  }
}

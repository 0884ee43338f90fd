import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { createRemixStub } from '@remix-run/testing'
import { render } from '@testing-library/react'
import { type ComponentType, createElement } from 'react'
import { vi } from 'vitest'
import { translationsFor } from '#app/i18n/i18next.server.ts'
import { TranslationsProvider } from '#app/i18n/react.tsx'

/**
 * The page tests' half of the route harness (the other, tests/mocks/route.ts, calls a loader or
 * action directly): a route drawn with createRemixStub over its real loader and action (msw as the
 * provider), in Portuguese, as a signed-in user's browser would send its requests.
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

/** A route of the stub: its pattern, its page, the loader and action it runs (the route module's own), its child routes. */
export type StubRoute = { id?: string; path?: string; index?: boolean; Component?: ComponentType; ErrorBoundary?: ComponentType; loader?: ServerFunction; action?: ServerFunction; children?: StubRoute[] }

/**
 * Draws `path` among these routes, in Portuguese; with a cookie (tests/mocks/session.ts'
 * `signedIn`) every loader and action runs as that user.
 */
export function renderRoute(path: string, routes: readonly StubRoute[], { cookie }: { cookie?: string } = {}) {
  const signed = (fn: ServerFunction | undefined) => (fn && cookie ? withCookie(fn, cookie) : fn)
  const stubbed = (list: readonly StubRoute[]): Parameters<typeof createRemixStub>[0] =>
    list.map(({ loader, action, children, ...route }) => ({ ...route, loader: signed(loader), action: signed(action), ...(children ? { children: stubbed(children) } : {}) }))
  const Stub = createRemixStub(stubbed(routes))
  return render(createElement(TranslationsProvider, { value: translationsFor('pt'), children: createElement(Stub, { initialEntries: [path] }) }))
}

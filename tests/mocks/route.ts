import { type RequestContext, currentRequestContext, requestContextStorage } from '#app/http/request-context.server.ts'
import { commitSession } from '#app/http/session-commit.server.ts'
import { getToast } from '#app/utils/toast.server.ts'

type Loaded = { status: number; headers: Headers; data: unknown; location: string | null }

// Loaders run with the same Request share one request context, as the loaders of one HTTP request do.
const contexts = new WeakMap<Request, RequestContext>()

/**
 * Calls a loader or action as the app's HTTP layer and Remix would: inside the request's context,
 * with the session's changes written into the outcome's headers afterwards. Reads the outcome the
 * same way whatever its form: plain data, data() with headers, a returned Response, or a thrown
 * one (redirects, errors).
 */
export async function run(
  fn: (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown,
  request: Request,
  params: Record<string, string> = {},
): Promise<Loaded> {
  const context = currentRequestContext() ?? contexts.get(request) ?? { requestId: 'test', method: request.method, providerTimings: [] }
  contexts.set(request, context)
  const loaded = await requestContextStorage.run(context, () => settle(fn, request, params))
  await commitSession(context, loaded.headers)
  return loaded
}

async function settle(
  fn: (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown,
  request: Request,
  params: Record<string, string>,
): Promise<Loaded> {
  let outcome: unknown
  try {
    outcome = await fn({ request, params, context: {} })
  } catch (thrown) {
    outcome = thrown
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) throw thrown
  }
  if (outcome instanceof Response) {
    const text = await outcome.text()
    let data: unknown = text
    try {
      data = JSON.parse(text)
    } catch {
      // not JSON
    }
    return { status: outcome.status, headers: new Headers(outcome.headers), data, location: outcome.headers.get('Location') }
  }
  if (isDataWithInit(outcome)) {
    const headers = new Headers(outcome.init?.headers)
    return { status: outcome.init?.status ?? 200, headers, data: outcome.data, location: headers.get('Location') }
  }
  return { status: 200, headers: new Headers(), data: outcome, location: null }
}

function isDataWithInit(value: unknown): value is { type: 'DataWithResponseInit'; data: unknown; init: ResponseInit | null } {
  return typeof value === 'object' && value !== null && (value as { type?: string }).type === 'DataWithResponseInit'
}

/** A GET of the url, with this Cookie header when one is given. */
export const getRequest = (url: string, cookie?: string) => new Request(url, { headers: cookie ? { Cookie: cookie } : {} })

/** The toast an outcome flashes (its `innera_toast` cookie), read as the next page's loader reads it; null when none. */
export async function toastOf(outcome: Headers | { headers: Headers }) {
  const headers = outcome instanceof Headers ? outcome : outcome.headers
  const cookie = headers.getSetCookie().find((value) => value.startsWith('innera_toast='))
  return (await getToast(new Request('http://app.test/', { headers: { Cookie: cookie?.split(';')[0] ?? '' } }))).toast
}

/** A POST of a form as a browser sends it (urlencoded). */
export function formRequest(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request(url, { method: 'POST', body: new URLSearchParams(fields), headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } })
}

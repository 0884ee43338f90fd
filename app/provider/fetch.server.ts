import { type z } from 'zod'
import { getEnv } from '#app/env.server.ts'
import { log, redactPath } from '#app/http/log.server.ts'
import { currentRequestContext } from '#app/http/request-context.server.ts'
import { ProviderError, errorCode, errorProductIds, parseErrorBody } from './errors.ts'
import { type ExchangeAnswer, exchange } from './transport.server.ts'

export type ProviderRequest = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Sent as a JSON body. */
  json?: unknown
  /** Sent as multipart/form-data (file uploads). */
  formData?: FormData
  query?: Record<string, string | number | boolean | undefined>
  accessToken?: string
  signal?: AbortSignal
  /** Which docs/product.md §8 row a network failure belongs to. */
  during?: 'refresh'
}

/**
 * What a provider module needs to call as the signed-in user: the session (session/auth.server.ts)
 * is one, adding the token, the one refresh and the retry on 401. Provider modules know no more.
 */
export type SignedInCaller = {
  call<Schema extends z.ZodType>(path: string, schema: Schema, init?: ProviderRequest): Promise<z.infer<Schema>>
  send(path: string, init?: ProviderRequest): Promise<void>
  file(path: string, init?: ProviderRequest): Promise<ProviderFile>
}

/**
 * The one door to the provider: every call goes through here. It adds the Bearer token, a
 * timeout, JSON handling, timing and a log line, and turns every failure into a ProviderError.
 * Session handling (refresh, retry on 401) sits one layer up, in session/auth.server.ts.
 */
export async function providerFetch(path: string, request: ProviderRequest = {}): Promise<unknown> {
  const { status, text } = await providerExchange(path, request, 'application/json')
  if (status === 204 || text === '') return null
  const parsed = parseJson(text)
  // A success that is not JSON (an HTML error page from a proxy, a truncated body) is a bad gateway.
  if (!parsed.ok) throw new ProviderError({ kind: 'http', status: 502 })
  return parsed.value
}

/** A file the provider answers for the caller (a digital material): its bytes, type and suggested name. */
export type ProviderFile = { bytes: Buffer; contentType: string; disposition: string | null }

/** providerFetch for a file: the same door, token, timeout and errors; the answer's bytes as they came. */
export async function providerFile(path: string, request: ProviderRequest = {}): Promise<ProviderFile> {
  const answer = await providerExchange(path, request, '*/*')
  const contentType = answer.headers['content-type']
  if (!contentType || contentType.startsWith('application/json') || contentType.startsWith('text/html')) throw new ProviderError({ kind: 'http', status: 502 })
  const disposition = answer.headers['content-disposition']
  return { bytes: answer.bytes, contentType, disposition: typeof disposition === 'string' ? disposition : null }
}

/** One exchange with the provider; a failure (network, or a status outside 2xx) is a ProviderError. */
async function providerExchange(path: string, request: ProviderRequest, accept: string): Promise<ExchangeAnswer> {
  const env = getEnv()
  const url = new URL(path.replace(/^\//, ''), env.PROVIDER_API_URL.endsWith('/') ? env.PROVIDER_API_URL : `${env.PROVIDER_API_URL}/`)
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value))
  }
  const headers: Record<string, string> = { Accept: accept }
  if (request.accessToken) headers.Authorization = `Bearer ${request.accessToken}`
  let body: string | FormData | undefined
  if (request.formData) body = request.formData
  else if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(request.json)
  }
  const context = currentRequestContext()
  if (context) headers['X-Request-Id'] = context.requestId
  if (context?.clientAddress) {
    headers['X-Forwarded-For'] = context.clientAddress
    if (env.PROVIDER_FORWARDING_SECRET) headers['X-Forwarding-Secret'] = env.PROVIDER_FORWARDING_SECRET
  }
  const method = request.method ?? 'GET'
  // One unreachable provider per visitor request is enough: every later call would wait as long.
  if (context?.providerUnreachable) throw new ProviderError({ kind: 'network', during: request.during })

  const timeoutMs = method === 'GET' ? env.PROVIDER_READ_TIMEOUT_MS : env.PROVIDER_TIMEOUT_MS
  const started = performance.now()
  const finish = (status: number | 'network') => {
    const durationMs = performance.now() - started
    context?.providerTimings.push({ name: path, durationMs })
    log('debug', {
      type: 'provider',
      request_id: context?.requestId,
      method,
      path: redactPath(url.pathname),
      status,
      duration_ms: Math.round(durationMs * 10) / 10,
    })
  }

  let answer: ExchangeAnswer
  try {
    answer = await exchange(url, { method, headers, body, signal: request.signal, timeoutMs })
  } catch (error) {
    finish('network')
    // The caller's own abort (the user navigated away) is not a provider failure.
    if (request.signal?.aborted) throw error
    if (context) context.providerUnreachable = true
    throw new ProviderError({ kind: 'network', during: request.during })
  }
  const { status } = answer
  finish(status)

  if (status < 200 || status > 299) {
    const parsed = parseJson(answer.text)
    const body = parsed.ok ? parsed.value : undefined
    const { detail, fieldErrors } = parseErrorBody(body)
    const code = errorCode(body)
    const productIds = errorProductIds(body)
    throw new ProviderError({
      kind: 'http',
      status,
      detail,
      fieldErrors,
      retryAfterSeconds: retryAfter(answer.headers['retry-after'] ?? null),
      ...(code ? { code } : {}),
      ...(productIds ? { productIds } : {}),
    })
  }
  return answer
}

/** providerFetch, then the response checked against its schema (a mismatch is a bad gateway). */
export async function providerJson<Schema extends z.ZodType>(path: string, schema: Schema, request: ProviderRequest = {}): Promise<z.infer<Schema>> {
  const body = await providerFetch(path, request)
  const result = schema.safeParse(body)
  if (!result.success) {
    log('error', { type: 'provider-schema', path: redactPath(path), issues: result.error.issues.slice(0, 3).map((i) => i.path.join('.')) })
    throw new ProviderError({ kind: 'http', status: 502 })
  }
  return result.data
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds))
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

/**
 * A file the provider serves under /media/ (profile photos), passed through to the browser so that
 * pages load images from this site only (CSP img-src 'self').
 */
export async function providerMedia(path: string): Promise<Response> {
  const env = getEnv()
  if (!/^[\w./-]+$/.test(path) || path.includes('..')) return new Response('Not found', { status: 404 })
  const base = env.PROVIDER_API_URL.endsWith('/') ? env.PROVIDER_API_URL : `${env.PROVIDER_API_URL}/`
  try {
    const response = await fetch(new URL(`media/${path}`, base), { signal: AbortSignal.timeout(env.PROVIDER_READ_TIMEOUT_MS) })
    if (!response.ok) return new Response('Not found', { status: response.status === 404 ? 404 : 502 })
    const headers = new Headers({ 'Cache-Control': response.headers.get('Cache-Control') ?? 'public, max-age=3600' })
    const type = response.headers.get('Content-Type')
    if (type?.startsWith('image/')) headers.set('Content-Type', type)
    else return new Response('Not found', { status: 404 })
    return new Response(response.body, { status: 200, headers })
  } catch {
    return new Response('Service unavailable', { status: 503 })
  }
}

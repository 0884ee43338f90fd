import { type z } from 'zod'
import { getEnv } from '#app/env.server.ts'
import { log, redactPath } from '#app/http/log.server.ts'
import { observeProviderCall } from '#app/http/metrics.server.ts'
import { currentRequestContext } from '#app/http/request-context.server.ts'
import { ProviderError, errorAttachmentIndex, errorCode, errorObjectId, errorProductIds, parseErrorBody } from './errors.ts'
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
  stream(path: string, init?: ProviderRequest): Promise<ProviderStream>
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

/** Where a call goes and what it carries: the URL and its query, the token, the body, the request's id and the visitor's address. */
function outgoing(path: string, request: ProviderRequest, accept: string) {
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
  /** The call's timing and log line, once its answer (or its failure) is known. */
  const finish = (status: number | 'network') => {
    const durationMs = performance.now() - started
    context?.providerTimings.push({ name: path, durationMs })
    observeProviderCall(`/${path.replace(/^\//, '')}`, method, status, durationMs / 1000)
    log('debug', {
      type: 'provider',
      request_id: context?.requestId,
      method,
      path: redactPath(url.pathname),
      status,
      duration_ms: Math.round(durationMs * 10) / 10,
    })
  }
  /** A network failure: the rest of this visitor request fails at once; the caller's own abort is no provider failure. */
  const unreachable = (error: unknown) => {
    finish('network')
    if (request.signal?.aborted) return error
    if (context) context.providerUnreachable = true
    return new ProviderError({ kind: 'network', during: request.during })
  }
  return { url, headers, body, method, timeoutMs, finish, unreachable }
}

/** The ProviderError of an answer outside 2xx: its DRF body's detail, field errors and code, and its Retry-After. */
function refusal(status: number, text: string, retryAfterHeader: string | null): ProviderError {
  const parsed = parseJson(text)
  const body = parsed.ok ? parsed.value : undefined
  const { detail, fieldErrors } = parseErrorBody(body)
  const code = errorCode(body)
  const productIds = errorProductIds(body)
  const purchaseId = errorObjectId(body, 'purchase_id')
  const subscriptionId = errorObjectId(body, 'subscription_id')
  const attachmentIndex = errorAttachmentIndex(body)
  return new ProviderError({
    kind: 'http',
    status,
    detail,
    fieldErrors,
    retryAfterSeconds: retryAfter(retryAfterHeader),
    ...(code ? { code } : {}),
    ...(productIds ? { productIds } : {}),
    ...(purchaseId ? { purchaseId } : {}),
    ...(subscriptionId ? { subscriptionId } : {}),
    ...(attachmentIndex !== undefined ? { attachmentIndex } : {}),
  })
}

/** One exchange with the provider; a failure (network, or a status outside 2xx) is a ProviderError. */
async function providerExchange(path: string, request: ProviderRequest, accept: string): Promise<ExchangeAnswer> {
  const { url, headers, body, method, timeoutMs, finish, unreachable } = outgoing(path, request, accept)
  let answer: ExchangeAnswer
  try {
    answer = await exchange(url, { method, headers, body, signal: request.signal, timeoutMs })
  } catch (error) {
    throw unreachable(error)
  }
  const { status } = answer
  finish(status)
  if (status < 200 || status > 299) {
    const header = answer.headers['retry-after']
    throw refusal(status, answer.text, typeof header === 'string' ? header : null)
  }
  return answer
}

/** A provider answer handed on as it arrives (an export of any length): its status, headers and unread body. */
export type ProviderStream = { status: number; headers: Headers; body: ReadableStream<Uint8Array> | null }

/**
 * providerFetch for an answer streamed through to the visitor: the same door (token, request id,
 * errors: a refusal's DRF body read into a ProviderError, so the one refresh and retry on 401
 * work), with the timeout bounding only the wait for the answer's headers: the body takes as long
 * as it takes, is never held whole here, and stops quietly when the visitor leaves.
 */
export async function providerStream(path: string, request: ProviderRequest = {}): Promise<ProviderStream> {
  const { url, headers, method, timeoutMs, finish, unreachable } = outgoing(path, request, '*/*')
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), timeoutMs)
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal
  let response: Response
  try {
    response = await fetch(url, { method, headers, signal })
  } catch (error) {
    throw unreachable(error)
  } finally {
    clearTimeout(timer)
  }
  finish(response.status)
  if (response.status < 200 || response.status > 299) throw refusal(response.status, await response.text(), response.headers.get('retry-after'))
  return { status: response.status, headers: response.headers, body: response.body && request.signal ? endsWhenAborted(response.body, request.signal) : response.body }
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

/** The request headers a media file's answer depends on, passed on to the provider. */
const MEDIA_REQUEST_HEADERS = ['Range', 'If-Range', 'If-None-Match']
/** The provider's answer headers passed back to the browser; no others (a message's attachment says how it is handed over: shown, or saved under its name). */
const MEDIA_RESPONSE_HEADERS = ['Content-Type', 'Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag', 'Last-Modified', 'Cache-Control', 'Content-Disposition']
/** The answers passed back as they are (a whole file, a range, not modified, no such range). */
const MEDIA_STATUSES = new Set([200, 206, 304, 416])
/** What /media/ may serve: images (photos, posters, attachments), the lessons' videos and captions, attachments' PDFs. */
const MEDIA_TYPE = /^(?:image\/[\w.+-]+|video\/mp4|text\/vtt|application\/pdf)\s*(?:;|$)/i
const MAX_MEDIA_HEADER_LENGTH = 1000

/**
 * A file the provider serves under /media/ (profile photos; lessons' posters, videos and captions,
 * decision 0057), passed through to the browser so that pages load media from this site only (CSP
 * img-src and media-src 'self').
 *
 * In: the signed URL's `expires` and `signature` (nothing else of the query), `Range`, `If-Range`
 * and `If-None-Match`; HEAD as HEAD. Out: 200 and 206 with the type (an image, MP4 or WebVTT,
 * anything else is a 404), 304 and 416 without a type or a body, each with the length, range and
 * caching headers, the body streamed; the provider's 403 (a bad or expired signature) and 404 as
 * they are, any other answer a 502.
 *
 * Captions are asked for whole: the app's compression would gzip a text range, which the
 * Content-Range would then no longer describe (a server may ignore Range, RFC 9110 §14.2).
 * The provider's timeout bounds the wait for the answer's headers only: a video takes as long as the
 * visitor's connection needs, and stops when the visitor leaves.
 */
export async function providerMedia(path: string, request: Request): Promise<Response> {
  const env = getEnv()
  if (!/^[\w./-]+$/.test(path) || path.includes('..')) return new Response('Not found', { status: 404 })
  const base = env.PROVIDER_API_URL.endsWith('/') ? env.PROVIDER_API_URL : `${env.PROVIDER_API_URL}/`
  const url = new URL(`media/${path}`, base)
  const query = new URL(request.url).searchParams
  const expires = query.get('expires')
  const signature = query.get('signature')
  if (expires && /^\d{1,16}$/.test(expires)) url.searchParams.set('expires', expires)
  if (signature && /^[0-9a-f]{1,128}$/i.test(signature)) url.searchParams.set('signature', signature)

  // Identity: the provider's bytes as they are, so Content-Length and Content-Range stay true.
  const headers = new Headers({ 'Accept-Encoding': 'identity' })
  const captions = path.endsWith('.vtt')
  for (const name of MEDIA_REQUEST_HEADERS) {
    if (captions && name !== 'If-None-Match') continue
    const value = request.headers.get(name)
    if (value !== null && value.length <= MAX_MEDIA_HEADER_LENGTH) headers.set(name, value)
  }
  const requestId = currentRequestContext()?.requestId
  if (requestId) headers.set('X-Request-Id', requestId)
  const method = request.method === 'HEAD' ? 'HEAD' : 'GET'

  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), env.PROVIDER_READ_TIMEOUT_MS)
  let response: Response
  const started = performance.now()
  try {
    response = await fetch(url, { method, headers, signal: AbortSignal.any([request.signal, timeout.signal]) })
  } catch {
    observeProviderCall(`/media/${path}`, method, 'network', (performance.now() - started) / 1000)
    return new Response('Service unavailable', { status: 503 })
  } finally {
    clearTimeout(timer)
  }
  observeProviderCall(`/media/${path}`, method, response.status, (performance.now() - started) / 1000)

  // Not awaited: a body read elsewhere too (a tee) is cancelled only once every reader lets go.
  const discard = () => void response.body?.cancel().catch(() => undefined)
  const refuse = (status: number, text: string) => {
    discard()
    return new Response(text, { status })
  }
  if (response.status === 403) return refuse(403, 'Forbidden')
  if (response.status === 404) return refuse(404, 'Not found')
  if (!MEDIA_STATUSES.has(response.status)) return refuse(502, 'Bad gateway')
  // The type is checked where it describes bytes passed on: a 304 and a 416 pass none, and the
  // provider's Node server names their empty body text/plain (a range past the end was a 404).
  const type = response.headers.get('Content-Type')
  const hasBody = response.status === 200 || response.status === 206
  if (hasBody && (type === null || !MEDIA_TYPE.test(type))) return refuse(404, 'Not found')

  const answer = new Headers()
  for (const name of MEDIA_RESPONSE_HEADERS) {
    const value = response.headers.get(name)
    if (value !== null) answer.set(name, value)
  }
  // fetch undoes a content coding, so the provider's length would no longer be the body's.
  if (response.headers.has('Content-Encoding')) answer.delete('Content-Length')
  if (!hasBody) answer.delete('Content-Type')
  if (!answer.has('Cache-Control')) answer.set('Cache-Control', 'public, max-age=3600')
  const body = hasBody && method === 'GET' && response.body ? endsWhenAborted(response.body, request.signal) : null
  if (!body) discard()
  return new Response(body, { status: response.status, headers: answer })
}

/**
 * The provider's body, ended quietly when the visitor leaves (the fetch is aborted with the
 * request): a player that seeks drops requests all the time, and that is no error to log.
 */
function endsWhenAborted(body: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  let ended = false
  let onAbort = () => {}
  const end = () => {
    ended = true
    signal.removeEventListener('abort', onAbort)
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        if (ended) return
        end()
        controller.close()
        reader.cancel().catch(() => undefined)
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (ended) return
        if (!done) return controller.enqueue(value)
        end()
        controller.close()
      } catch (error) {
        if (ended) return
        end()
        if (signal.aborted) controller.close()
        else controller.error(error)
      }
    },
    cancel(reason) {
      end()
      reader.cancel(reason).catch(() => undefined)
    },
  })
}

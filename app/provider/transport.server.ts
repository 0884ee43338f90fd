import http from 'node:http'
import https from 'node:https'

/**
 * The provider's HTTP exchange under providerFetch: one request, its whole answer as text.
 *
 * node:http with keep-alive agents rather than the global fetch: for a small JSON answer undici's
 * fetch costs about four times the CPU (its web streams, Headers and AbortSignal plumbing), and
 * the app pays it on every page a signed-in person opens (docs/decisions/0022). Nothing else
 * changes: msw intercepts node:http in tests as it does fetch.
 */
type ExchangeRequest = {
  method: string
  headers: Record<string, string>
  body?: string | FormData
  /** The caller's abort (the visitor went away). */
  signal?: AbortSignal
  /** The whole exchange, connection to last byte; then it fails as a network error. */
  timeoutMs: number
}

/** The answer; `text` is its bytes read as UTF-8 (a file's bytes are `bytes`). */
export type ExchangeAnswer = { status: number; headers: http.IncomingHttpHeaders; bytes: Buffer; readonly text: string }

export class ExchangeTimeout extends Error {
  constructor(ms: number) {
    super(`No answer within ${ms} ms`)
    this.name = 'TimeoutError'
  }
}

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
}

export async function exchange(url: URL, request: ExchangeRequest): Promise<ExchangeAnswer> {
  const headers = { ...request.headers }
  let body: string | Buffer | undefined
  if (typeof request.body === 'string') body = request.body
  else if (request.body) {
    // Multipart (a photo upload): encoded by the platform, boundary and all.
    const encoded = new Response(request.body)
    headers['Content-Type'] = encoded.headers.get('Content-Type') ?? 'multipart/form-data'
    body = Buffer.from(await encoded.arrayBuffer())
  }
  if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body))
  request.signal?.throwIfAborted()

  try {
    return await send(url, request, headers, body)
  } catch (error) {
    // The provider closed a kept-alive connection just as it was reused (its idle timeout, a
    // restart): nothing was answered, so the call goes once more on a new connection. Node's own
    // advice for agents with keepAlive; undici's pool did the same behind fetch.
    if (!(error instanceof StaleConnection)) throw error
    return send(url, request, headers, body)
  }
}

/** A reused connection that failed before any answer (ECONNRESET, EPIPE). */
class StaleConnection extends Error {
  constructor(cause: unknown) {
    super('The kept-alive connection was closed', { cause })
    this.name = 'StaleConnection'
  }
}

function send(url: URL, request: ExchangeRequest, headers: Record<string, string>, body: string | Buffer | undefined): Promise<ExchangeAnswer> {
  const transport = url.protocol === 'https:' ? https : http
  const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:']
  return new Promise<ExchangeAnswer>((resolve, reject) => {
    let answered = false
    const timer = setTimeout(() => outgoing.destroy(new ExchangeTimeout(request.timeoutMs)), request.timeoutMs)
    const fail = (error: unknown) => {
      clearTimeout(timer)
      reject(error)
    }
    const outgoing = transport.request(url, { method: request.method, headers, agent, signal: request.signal }, (incoming) => {
      answered = true
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => {
        clearTimeout(timer)
        const bytes = Buffer.concat(chunks)
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          bytes,
          get text() {
            return bytes.toString('utf8')
          },
        })
      })
      incoming.on('error', fail)
      incoming.on('aborted', () => fail(new Error('The answer was cut short')))
    })
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const stale = !answered && outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && !request.signal?.aborted
      fail(stale ? new StaleConnection(error) : error)
    })
    outgoing.end(body)
  })
}

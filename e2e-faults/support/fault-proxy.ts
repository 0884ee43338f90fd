/**
 * A fault-injecting HTTP proxy in front of a real embedded provider, on a free loopback port.
 * The app under test has PROVIDER_API_URL pointing here; the tests switch what goes wrong through
 * this object (in-process only: nothing else can reach the controls). Every token that passes
 * through (Bearer headers, login and refresh bodies) is remembered, so the suite can look for them
 * in pages and logs.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { type AddressInfo, type Socket } from 'node:net'

export type FaultMode =
  /** Forward everything to the provider. */
  | { kind: 'pass' }
  /** Accept the connection, then destroy the socket without answering. */
  | { kind: 'down' }
  /** Stop listening: new connections are refused (applies to every path). */
  | { kind: 'refused' }
  /** Hold the request this long before forwarding it (longer than the app's PROVIDER_TIMEOUT_MS). */
  | { kind: 'slow'; delayMs: number }
  /**
   * Hold the request this long, then forward it even if the app gave up meanwhile: a provider that
   * stalled (paused, swapping) with the request in its socket buffer carries it out when it resumes.
   */
  | { kind: 'stalled'; delayMs: number }
  /** Answer with this status and a DRF-style body. */
  | { kind: 'status'; status: number; body?: unknown }
  /** 200 application/json whose body is not JSON. */
  | { kind: 'malformed-json' }
  /** 200 text/html (a proxy's or a captive portal's page) instead of JSON. */
  | { kind: 'html' }
  /** Every authenticated call answers 401 token_not_valid, and so does the refresh. */
  | { kind: 'unauthorized' }
  /** The refresh answers 401 token_not_valid (an expired refresh token); the rest passes. */
  | { kind: 'expired-refresh' }

export type FaultTarget = {
  /** Exact paths (e.g. '/users/professionals/patients/') or patterns; all paths when absent. */
  paths?: (string | RegExp)[]
  methods?: string[]
}

export type ProxiedRequest = {
  method: string
  path: string
  fault: FaultMode['kind']
  status: number | 'destroyed' | 'refused'
  /** The visitor's address as the app names it (X-Forwarded-For), and the secret that vouches for it. */
  forwardedFor?: string
  forwardingSecret?: string
}

const REFRESH_PATH = '/authentication/token/refresh/'
const TOKEN_NOT_VALID = {
  detail: 'Given token not valid for any token type',
  code: 'token_not_valid',
  messages: [{ token_class: 'AccessToken', token_type: 'access', message: 'Token is invalid or expired' }],
}
const REFRESH_NOT_VALID = { detail: 'Token is invalid or expired', code: 'token_not_valid' }
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/g

export class FaultProxy {
  readonly requests: ProxiedRequest[] = []
  /** Every JWT seen in either direction. */
  readonly tokens = new Set<string>()
  #mode: FaultMode = { kind: 'pass' }
  #target: FaultTarget = {}
  #server: http.Server
  #sockets = new Set<Socket>()
  #port = 0
  #listening = false
  #pending = new Set<NodeJS.Timeout>()
  readonly upstream: URL

  private constructor(upstream: URL) {
    this.upstream = upstream
    this.#server = http.createServer((request, response) => void this.#handle(request, response))
    this.#server.keepAliveTimeout = 5_000
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket)
      socket.once('close', () => this.#sockets.delete(socket))
    })
  }

  static async start(upstream: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(new URL(upstream))
    await proxy.#listen(0)
    return proxy
  }

  get url() {
    return `http://127.0.0.1:${this.#port}/`
  }

  get mode() {
    return this.#mode
  }

  /** Switches the fault (and which requests it hits); 'pass' restores normal service. */
  async set(mode: FaultMode, target: FaultTarget = {}) {
    this.#mode = mode
    this.#target = target
    if (mode.kind === 'refused') {
      if (this.#listening) await this.#close()
    } else if (!this.#listening) {
      await this.#listen(this.#port)
    }
  }

  async reset() {
    await this.set({ kind: 'pass' })
  }

  /** The requests seen since `mark` (an index into `requests`), for counting calls. */
  since(mark: number) {
    return this.requests.slice(mark)
  }

  async close() {
    for (const timer of this.#pending) clearTimeout(timer)
    if (this.#listening) await this.#close()
  }

  async #listen(port: number) {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject)
      this.#server.listen(port, '127.0.0.1', () => {
        this.#server.off('error', reject)
        resolve()
      })
    })
    this.#port = (this.#server.address() as AddressInfo).port
    this.#listening = true
  }

  async #close() {
    this.#listening = false
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()))
    // Kept-alive connections would otherwise still reach us: the app's next call must be refused.
    for (const socket of this.#sockets) socket.destroy()
    await closed
  }

  #applies(request: IncomingMessage, path: string) {
    const { paths, methods } = this.#target
    if (methods && !methods.includes(request.method ?? 'GET')) return false
    if (!paths) return true
    return paths.some((pattern) => (typeof pattern === 'string' ? path === pattern : pattern.test(path)))
  }

  async #handle(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? '/', 'http://proxy.invalid').pathname
    const method = request.method ?? 'GET'
    const body = await readBody(request)
    this.#remember(request.headers.authorization ?? '')
    this.#remember(body.toString('latin1'))
    const mode = this.#applies(request, path) ? this.#mode : ({ kind: 'pass' } as const)
    const forwardedFor = header(request, 'x-forwarded-for')
    const forwardingSecret = header(request, 'x-forwarding-secret')
    const record = (status: ProxiedRequest['status']) => this.requests.push({ method, path, fault: mode.kind, status, forwardedFor, forwardingSecret })
    const answer = (status: number, type: string, text: string) => {
      record(status)
      response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text) })
      response.end(text)
    }

    switch (mode.kind) {
      case 'down':
      case 'refused': // a connection that was already open when the listener closed
        record('destroyed')
        request.socket.destroy()
        return
      case 'status':
        return answer(mode.status, 'application/json', JSON.stringify(mode.body ?? { detail: 'A server error occurred.' }))
      case 'malformed-json':
        return answer(200, 'application/json', '{"id": 1, "username": "paula", "email": ')
      case 'html':
        return answer(200, 'text/html; charset=utf-8', '<!doctype html><html><head><title>Gateway</title></head><body><h1>Please sign in to the Wi-Fi</h1></body></html>')
      case 'unauthorized':
        if (path === REFRESH_PATH) return answer(401, 'application/json', JSON.stringify(REFRESH_NOT_VALID))
        if (request.headers.authorization) return answer(401, 'application/json', JSON.stringify(TOKEN_NOT_VALID))
        break
      case 'expired-refresh':
        if (path === REFRESH_PATH) return answer(401, 'application/json', JSON.stringify(REFRESH_NOT_VALID))
        break
      case 'slow':
        await this.#hold(mode.delayMs)
        if (request.socket.destroyed) {
          record('destroyed')
          return
        }
        break
      case 'stalled':
        // Forwarded whatever became of the app's side: its answer, if any, goes nowhere.
        await this.#hold(mode.delayMs)
        break
      case 'pass':
        break
    }
    await this.#forward(request, body, response, record)
  }

  #hold(delayMs: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(timer)
        resolve()
      }, delayMs)
      this.#pending.add(timer)
    })
  }

  async #forward(request: IncomingMessage, body: Buffer, response: ServerResponse, record: (status: number) => void) {
    const headers = { ...request.headers, host: this.upstream.host }
    delete headers['content-length']
    delete headers.connection
    try {
      const upstream = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const outgoing = http.request(
          new URL(request.url ?? '/', this.upstream),
          { method: request.method, headers: { ...headers, 'content-length': String(body.length) } },
          (incoming) => {
            readBody(incoming).then((data) => resolve({ status: incoming.statusCode ?? 502, headers: incoming.headers, body: data }), reject)
          },
        )
        outgoing.on('error', reject)
        outgoing.end(body)
      })
      this.#remember(upstream.body.toString('latin1'))
      const out = { ...upstream.headers }
      delete out['content-length']
      delete out['transfer-encoding']
      delete out.connection
      delete out['keep-alive']
      record(upstream.status)
      response.writeHead(upstream.status, { ...out, 'content-length': String(upstream.body.length) })
      response.end(upstream.body)
    } catch {
      record(502)
      if (!response.headersSent) response.writeHead(502, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify({ detail: 'Fault proxy: the provider could not be reached.' }))
    }
  }

  #remember(text: string) {
    for (const match of text.matchAll(JWT)) this.tokens.add(match[0])
  }
}

function header(request: IncomingMessage, name: string) {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
    stream.on('aborted', () => resolve(Buffer.concat(chunks)))
  })
}

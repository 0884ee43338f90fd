/**
 * The app's HTTP server: Express around the Remix request handler. It adds what every response
 * needs (security headers, a cross-site write check, a request id, one JSON log line, Server-Timing)
 * and drains in-flight requests on SIGTERM. In development it serves through Vite's middleware.
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type ServerBuild,
  createRequestHandler,
  writeReadableStreamToWritable,
} from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import pLimit from 'p-limit'
import { EnvError, parseEnv } from '../env.server.ts'
import { BodyBudget, bodyLimitFor, bodyTimeoutFor, longestBodyTimeout, receiveBody } from './body-limit.server.ts'
import { PRIVATE_NO_STORE, dependsOnSession } from './cache.server.ts'
import { limitConnectionsPerAddress } from './connection-limit.server.ts'
import { log, redactPath } from './log.server.ts'
import { appMetrics, observeRequest, routeLabel, serveMetrics } from './metrics.server.ts'
import { passRetryAfter } from './retry-after.server.ts'
import { rememberRouteMatches } from './route-matching.server.ts'
import { commitSession } from './session-commit.server.ts'
import { type RequestContext, requestContextStorage } from './request-context.server.ts'
import { refuseCrossSiteWrites } from './cross-site.server.ts'
import { NON_DOCUMENT_CSP, baseSecurityHeaders } from './security.server.ts'
import { enableStageCosts, stageCostsSnapshot, timeStage, timedMiddleware } from './stage-costs.server.ts'

// A stop asked while the app starts (Vite, the build, the metrics port) ends the start at once, as
// a signal's default would: as a container's first process (PID 1) it would otherwise be ignored
// and the engine would kill the app after its grace period. Nothing is in flight yet. One listener
// for the process's whole life, its action changed once the server listens (never one taken off
// and another put on: a signal between the two would be lost, and the app would never stop).
let onStop: () => void = () => process.exit(0)
process.on('SIGTERM', () => onStop())
process.on('SIGINT', () => onStop())

let env: ReturnType<typeof parseEnv>
try {
  env = parseEnv(process.env)
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}

const production = env.NODE_ENV === 'production'
// app/http/server.ts in development, build/http/server.js in production: the project is two levels up.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

const viteDevServer = production
  ? undefined
  : await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } }))

const app = express()
app.disable('x-powered-by')
// The bench's view of each stage's cost (decision 0022): off unless it asks, then nothing is timed.
if (env.APP_BENCH_ROUTES) {
  enableStageCosts()
  app.get('/bench/costs', (req, res) => {
    res.json(stageCostsSnapshot({ reset: req.query.reset === '1' }))
  })
}
// Only the configured proxies may name the visitor (X-Forwarded-For/-Host/-Proto); by default
// nobody can, and the visitor is the socket's peer: the provider's throttles count real addresses.
app.set('trust proxy', env.TRUST_PROXY)
const trustsAddress = (address: string) => (app.get('trust proxy fn') as (address: string, hop: number) => boolean)(address, 0)
const trustsPeer = (req: express.Request) => trustsAddress(req.socket.remoteAddress ?? '')
/** The Host the visitor asked for; X-Forwarded-Host only from a trusted proxy. */
const requestHost = (req: express.Request) =>
  (trustsPeer(req) ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined) || req.get('host') || 'localhost'
const connections = limitConnectionsPerAddress({ perAddress: env.APP_MAX_CONNECTIONS_PER_ADDRESS, exempt: trustsAddress })
// A request that arrived on a connection refused for its address gets nothing more.
app.use(timedMiddleware('connection check', (req, _res, next) => (connections.isRefused(req.socket) ? undefined : next())))
app.use(timedMiddleware('compression', compression()))

const securityHeaders = baseSecurityHeaders({ production })
/** An incoming X-Request-Id kept as it is: up to 128 letters, digits, `_`, `.` and `-` (what the provider accepts too). */
const REQUEST_ID = /^[\w.-]{1,128}$/
/** The build's routes, for the requests' metrics label (their Remix route id); in development, the latest build's. */
let routes: ServerBuild['routes'] | undefined
app.use(timedMiddleware('request context, headers, log', (req, res, next) => {
  // The load balancer's id (or the client's) when it is one of ours to log, else a new one (decision 0089).
  const incoming = req.get('x-request-id')
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
  const started = performance.now()
  const context: RequestContext = { requestId, method: req.method, clientAddress: req.ip, providerTimings: [] }
  res.set(securityHeaders)
  res.set('X-Request-Id', requestId)
  const writeHead = res.writeHead
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    // Documents carry their own policy with a nonce (entry.server); everything else gets the strict one.
    if (!res.hasHeader('Content-Security-Policy')) res.setHeader('Content-Security-Policy', NON_DOCUMENT_CSP)
    // Set here, last, so no route's own Cache-Control can make a signed-in answer cacheable. The
    // provider's media are the same for everyone (photos and posters public, lessons' files by
    // their signed address), so they keep the provider's caching.
    const sameForEveryone = res.locals.staticFile || (req.path.startsWith('/media/') && !res.hasHeader('Set-Cookie'))
    if (!sameForEveryone && dependsOnSession({ cookie: req.get('cookie'), setsCookie: res.hasHeader('Set-Cookie') })) {
      res.setHeader('Cache-Control', PRIVATE_NO_STORE)
    }
    if (context.providerTimings.length > 0) {
      const total = context.providerTimings.reduce((sum, timing) => sum + timing.durationMs, 0)
      res.setHeader('Server-Timing', `provider;dur=${total.toFixed(1)};desc="${context.providerTimings.length} calls"`)
    }
    return writeHead.apply(this, args)
  } as typeof writeHead
  res.on('finish', () => {
    const route = res.locals.staticFile ? 'static' : routes ? routeLabel(routes, req.path) : 'unmatched'
    observeRequest(route, req.method, res.statusCode, (performance.now() - started) / 1000)
    if (req.path.startsWith('/assets/') && res.statusCode < 400) return
    timeStage('log line', () => log('info', {
      type: 'request',
      request_id: requestId,
      method: req.method,
      path: redactPath(req.originalUrl),
      status: res.statusCode,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    }))
  })
  requestContextStorage.run(context, next)
}))

app.use(timedMiddleware('cross-site check', refuseCrossSiteWrites({ publicOrigin: env.APP_PUBLIC_URL, requestHost })))

if (viteDevServer) {
  app.use(viteDevServer.middlewares)
} else {
  // The same for everyone, so they keep their own Cache-Control whoever asks.
  const markStatic = (res: express.Response) => (res.locals.staticFile = true)
  app.use('/assets', express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y', setHeaders: markStatic }))
  const publicFiles = express.static(path.join(root, 'build/client'), { maxAge: '1h', index: false, setHeaders: markStatic })
  // Pages have no file extension: only names like /favicon.svg are looked for on disk.
  app.use(timedMiddleware('static files check', (req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next())))
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  : ((await import(path.join(root, 'build/server/index.js'))) as ServerBuild)

rememberRouteMatches()
const handleRemixRequest = createRequestHandler(build, env.NODE_ENV)
if (typeof build !== 'function') routes = build.routes

/**
 * Admission: at most APP_MAX_CONCURRENT_REQUESTS renders at a time, the others queued in arrival
 * order. Under overload every visitor then waits their turn (instead of all renders sharing the CPU
 * and some starving), and the memory of requests in flight stays bounded by the heap cap. A visitor
 * who left while queued costs nothing. Static files are served above, never queued.
 *
 * Only a request whose body has arrived whole is admitted (decision 0038): a visitor who trickles a
 * body waits outside, for at most the body's time, and never holds a render slot. An oversized body
 * is not answered here: the request context says so and Remix gets no body, so the action's
 * readFormData answers 413 and the error page says it in the visitor's language. A body declared
 * at most DRAIN_FACTOR times the limit is read into nothing meanwhile and the connection kept (so
 * a client that sends everything before reading sees the answer); a larger one closes it.
 */
const admit = pLimit(env.APP_MAX_CONCURRENT_REQUESTS)
const bodyBudget = new BodyBudget(env.APP_MAX_BUFFERED_BODY_BYTES)
app.all('*', async (req, res, next) => {
  let body: Uint8Array | undefined
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const received = await receiveBody(req, {
      limit: bodyLimitFor(req.path),
      timeoutMs: bodyTimeoutFor(req.path, env.APP_BODY_TIMEOUT_MS),
      declaredLength: req.get('content-length'),
      budget: bodyBudget,
    })
    switch (received.kind) {
      case 'gone':
        return
      case 'too-slow':
        res.set('Connection', 'close').status(408).type('text/plain').send('The request body did not arrive in time.')
        return
      case 'busy':
        res.set({ Connection: 'close', 'Retry-After': '5' }).status(503).type('text/plain').send('Too many uploads at once; try again shortly.')
        return
      case 'too-large': {
        const context = requestContextStorage.getStore()
        if (context) context.bodyTooLarge = true
        if (!received.drain) res.set('Connection', 'close')
        body = new Uint8Array(0)
        break
      }
      case 'complete':
        body = received.body
        res.once('close', () => bodyBudget.release(received.body.byteLength))
    }
  }
  // A live stream (server-sent events) lasts minutes: its body is written outside the render
  // slots, which it would otherwise hold all that time (decision 0088).
  let stream: (() => Promise<void>) | undefined
  await admit(async () => {
    if (req.socket.destroyed) return
    stream = await handle(req, res, next, body)
  })
  await stream?.()
})

/**
 * Express to Remix and back (what @remix-run/express does), with two differences: the URL's host is
 * X-Forwarded-Host only from a trusted proxy, and the body is the one received whole above.
 */
async function handle(req: express.Request, res: express.Response, next: express.NextFunction, body: Uint8Array | undefined): Promise<(() => Promise<void>) | undefined> {
  try {
    const controller = new AbortController()
    // Abort loaders and actions when the visitor leaves before the answer is written.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    const request = timeStage('request for Remix', () => {
      const init: RequestInit = { method: req.method, headers: remixHeaders(req.headers), signal: controller.signal }
      // Buffers from the socket: their memory is an ArrayBuffer, never a shared one.
      if (body) init.body = body as Uint8Array<ArrayBuffer>
      return new Request(new URL(req.originalUrl, `${req.protocol}://${requestHost(req)}`), init)
    })
    if (typeof build === 'function') routes = (await build()).routes
    const response = await handleRemixRequest(request)
    const headers = new Headers(response.headers)
    const context = requestContextStorage.getStore()
    await commitSession(context, headers)
    timeStage('response headers', () => {
      passRetryAfter(context, response.status, headers)
      res.statusMessage = response.statusText
      res.status(response.status)
      for (const [name, value] of headers.entries()) res.append(name, value)
    })
    const responseBody = response.body
    if (!responseBody) {
      res.end()
      return undefined
    }
    if (headers.get('Content-Type')?.startsWith('text/event-stream')) {
      return () => writeReadableStreamToWritable(responseBody, res).catch((error: unknown) => next(error))
    }
    await writeReadableStreamToWritable(responseBody, res)
  } catch (error) {
    next(error)
  }
  return undefined
}

function remixHeaders(incoming: express.Request['headers']): Headers {
  const headers = new Headers()
  for (const [name, values] of Object.entries(incoming)) {
    if (values === undefined) continue
    for (const value of Array.isArray(values) ? values : [values]) headers.append(name, value)
  }
  return headers
}

app.use(((error, req, res, _next) => {
  log('error', { type: 'unhandled', path: redactPath(req.originalUrl), message: String(error?.message ?? error) })
  if (!res.headersSent) res.status(500).type('text/plain').send('Internal server error')
}) as express.ErrorRequestHandler)

const server = http.createServer(
  {
    // Headers within seconds, checked every second (Node's default check runs every 30 s). The
    // whole request is a backstop behind the body's own deadline above.
    headersTimeout: env.APP_HEADERS_TIMEOUT_MS,
    requestTimeout: env.APP_HEADERS_TIMEOUT_MS + longestBodyTimeout(env.APP_BODY_TIMEOUT_MS) + 5_000,
    connectionsCheckingInterval: 1_000,
  },
  app,
)
server.prependListener('connection', connections.onConnection)
server.listen(env.PORT, env.HOST, () => {
  console.log(`app listening on http://localhost:${env.PORT} (provider ${env.PROVIDER_API_URL})`)
})
server.keepAliveTimeout = 65_000
// Not public (decision 0089): its own port, on loopback unless METRICS_HOST names another interface.
const metricsServer = env.METRICS_PORT ? await serveMetrics(appMetrics().registry, { port: env.METRICS_PORT, host: env.METRICS_HOST }) : undefined

let stopping = false
onStop = () => {
  if (stopping) return
  stopping = true
  // Finish what is in flight, then go; a stuck connection cannot hold the process forever.
  setTimeout(() => process.exit(0), 10_000).unref()
  metricsServer?.close()
  server.close(() => {
    void viteDevServer?.close()
    process.exit(0)
  })
  server.closeIdleConnections()
}

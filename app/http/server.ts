/**
 * The app's HTTP server: Express around the Remix request handler. It adds what every response
 * needs (security headers, a cross-site write check, a request id, one JSON log line, Server-Timing)
 * and drains in-flight requests on SIGTERM. In development it serves through Vite's middleware.
 */
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import { type ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import { EnvError, parseEnv } from '../env.server.ts'
import { log, redactPath } from './log.server.ts'
import { requestContextStorage } from './request-context.server.ts'
import { NON_DOCUMENT_CSP, baseSecurityHeaders, isCrossSiteWrite } from './security.server.ts'

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
app.set('trust proxy', 'loopback, linklocal, uniquelocal')
app.use(compression())

const securityHeaders = baseSecurityHeaders({ production })
app.use((req, res, next) => {
  const requestId = randomUUID()
  const started = performance.now()
  const context = { requestId, method: req.method, clientAddress: req.ip, providerTimings: [] as { name: string; durationMs: number }[] }
  res.set(securityHeaders)
  res.set('X-Request-Id', requestId)
  const writeHead = res.writeHead
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    // Documents carry their own policy with a nonce (entry.server); everything else gets the strict one.
    if (!res.hasHeader('Content-Security-Policy')) res.setHeader('Content-Security-Policy', NON_DOCUMENT_CSP)
    if (context.providerTimings.length > 0) {
      const total = context.providerTimings.reduce((sum, timing) => sum + timing.durationMs, 0)
      res.setHeader('Server-Timing', `provider;dur=${total.toFixed(1)};desc="${context.providerTimings.length} calls"`)
    }
    return writeHead.apply(this, args)
  } as typeof writeHead
  res.on('finish', () => {
    if (req.path.startsWith('/assets/') && res.statusCode < 400) return
    log('info', {
      type: 'request',
      request_id: requestId,
      method: req.method,
      path: redactPath(req.originalUrl),
      status: res.statusCode,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    })
  })
  requestContextStorage.run(context, next)
})

app.use((req, res, next) => {
  const crossSite = isCrossSiteWrite({
    method: req.method,
    origin: req.get('origin'),
    host: req.get('x-forwarded-host') ?? req.get('host'),
    secFetchSite: req.get('sec-fetch-site'),
  })
  if (crossSite) {
    res.status(403).type('text/plain').send('Cross-site request refused.')
    return
  }
  next()
})

if (viteDevServer) {
  app.use(viteDevServer.middlewares)
} else {
  app.use('/assets', express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y' }))
  const publicFiles = express.static(path.join(root, 'build/client'), { maxAge: '1h', index: false })
  // Pages have no file extension: only names like /favicon.svg are looked for on disk.
  app.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()))
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  : ((await import(path.join(root, 'build/server/index.js'))) as ServerBuild)

app.all('*', createRequestHandler({ build, mode: env.NODE_ENV }))

app.use(((error, req, res, _next) => {
  log('error', { type: 'unhandled', path: redactPath(req.originalUrl), message: String(error?.message ?? error) })
  if (!res.headersSent) res.status(500).type('text/plain').send('Internal server error')
}) as express.ErrorRequestHandler)

const server = app.listen(env.PORT, env.HOST, () => {
  console.log(`app listening on http://localhost:${env.PORT} (provider ${env.PROVIDER_API_URL})`)
})
server.keepAliveTimeout = 65_000

let stopping = false
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    // Finish what is in flight, then go; a stuck connection cannot hold the process forever.
    setTimeout(() => process.exit(0), 10_000).unref()
    server.close(() => {
      void viteDevServer?.close()
      process.exit(0)
    })
    server.closeIdleConnections()
  })
}

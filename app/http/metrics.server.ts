import http from 'node:http'
import { matchRoutes } from '@remix-run/react'
import type { ServerBuild } from '@remix-run/node'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * The app's Prometheus series (docs/metrics.md, decision 0089), on their own port (serveMetrics).
 * Every label comes from a closed set, so no visitor can make a series: a page is its Remix route
 * id (the build's own list), a provider call its endpoint with the ids taken out and at most
 * MAX_ENDPOINTS of them, a method one of a few, a status a number from 100 to 599.
 */

/** Seconds, from a cached page's few milliseconds to a slow export's. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** The provider has about 200 endpoint patterns; past this many distinct ones, the rest count as `other`. */
export const MAX_ENDPOINTS = 300

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const methodLabel = (method: string) => (METHODS.has(method) ? method : 'other')
const statusLabel = (status: number) => (Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other')

export type AppMetrics = {
  registry: Registry
  requests: Counter<'route' | 'method' | 'status'>
  latency: Histogram<'route' | 'method'>
  providerCalls: Counter<'endpoint' | 'method' | 'outcome'>
  providerLatency: Histogram<'endpoint' | 'method'>
  endpoints: Set<string>
}

function createAppMetrics(): AppMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  return {
    registry,
    requests: new Counter({ name: 'innera_app_http_requests_total', help: 'Requests answered, by Remix route id (static, or unmatched), method and status.', labelNames: ['route', 'method', 'status'], registers: [registry] }),
    latency: new Histogram({ name: 'innera_app_http_request_duration_seconds', help: 'Time to answer a request in full, by Remix route id and method.', labelNames: ['route', 'method'], buckets: LATENCY_BUCKETS, registers: [registry] }),
    providerCalls: new Counter({ name: 'innera_app_provider_requests_total', help: 'Calls to the provider API, by endpoint pattern, method and outcome (2xx, 3xx, 4xx, 5xx, network).', labelNames: ['endpoint', 'method', 'outcome'], registers: [registry] }),
    providerLatency: new Histogram({ name: 'innera_app_provider_request_duration_seconds', help: "Time to the provider's answer (or failure), by endpoint pattern and method.", labelNames: ['endpoint', 'method'], buckets: LATENCY_BUCKETS, registers: [registry] }),
    endpoints: new Set(),
  }
}

// Kept on globalThis: the HTTP server and the Remix build (where provider calls are made) are
// separate bundles, and both must count into one registry.
const key = Symbol.for('innera.app-metrics')
const globalStore = globalThis as unknown as Record<symbol, AppMetrics | undefined>
export const appMetrics = (): AppMetrics => (globalStore[key] ??= createAppMetrics())

/** A request answered by the HTTP server. */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  const metrics = appMetrics()
  metrics.requests.inc({ route, method: methodLabel(method), status: statusLabel(status) })
  metrics.latency.observe({ route, method: methodLabel(method) }, seconds)
}

/** A provider call ended: its HTTP status, or `network` when no answer came. */
export function observeProviderCall(path: string, method: string, status: number | 'network', seconds: number): void {
  const metrics = appMetrics()
  const endpoint = endpointLabel(path, metrics.endpoints)
  const outcome = status === 'network' ? 'network' : status >= 200 && status <= 599 ? `${Math.floor(status / 100)}xx` : 'other'
  metrics.providerCalls.inc({ endpoint, method: methodLabel(method), outcome })
  metrics.providerLatency.observe({ endpoint, method: methodLabel(method) }, seconds)
}

/** A path segment that names a thing rather than a place: a number, or anything with a digit, an uppercase letter or a dot, or long. */
const PARAMETER = /^(?:.*[\d.A-Z].*|.{41,})$/

/**
 * A provider path as its endpoint pattern: `/purchases/42/refund/` is `/purchases/:id/refund/`,
 * a token or a file name is `:param`; the query never counts. Once MAX_ENDPOINTS patterns are
 * known, a new one is `other`: whatever paths come, the series stay bounded.
 */
export function endpointLabel(path: string, seen: Set<string>): string {
  const pattern = path
    .split('?')[0]!
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? ':id' : PARAMETER.test(segment) ? ':param' : segment))
    .join('/')
  if (seen.has(pattern)) return pattern
  if (seen.size >= MAX_ENDPOINTS) return 'other'
  seen.add(pattern)
  return pattern
}

type Routes = ServerBuild['routes']
type RouteObject = Parameters<typeof matchRoutes>[0][number]
type Matcher = { tree: RouteObject[]; staticSegments: Set<string>; labels: Map<string, string> }
const matchers = new WeakMap<Routes, Matcher>()
/** Labels remembered per build: matching ranks every route (about 0.8 ms for the app's hundred), a lookup costs nothing. */
const REMEMBERED_PATHS = 2_000

/** The build's routes as React Router's nested route objects, and their static segments, made once per build. */
function matcherOf(routes: Routes): Matcher {
  let matcher = matchers.get(routes)
  if (matcher) return matcher
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    Object.values(routes)
      .filter((route) => route && route.parentId === parentId)
      .map((route): RouteObject => (route!.index ? { id: route!.id, path: route!.path, index: true } : { id: route!.id, path: route!.path, caseSensitive: route!.caseSensitive, children: childrenOf(route!.id) }))
  const staticSegments = new Set(
    Object.values(routes).flatMap((route) => (route?.path ?? '').split('/').filter((segment) => segment && !segment.startsWith(':') && segment !== '*').map((segment) => segment.replace(/\?$/, '').toLowerCase())),
  )
  matcher = { tree: childrenOf(undefined), staticSegments, labels: new Map() }
  matchers.set(routes, matcher)
  return matcher
}

/**
 * A request's Remix route id, the deepest route its path matches (what renders it or answers its
 * data): `routes/compras.$id` for /compras/42, for its single-fetch data request (/compras/42.data)
 * too. A path nothing matches is `unmatched` (the app's splat route takes most).
 *
 * Remembered by the path with each segment that holds a digit and is no route's static segment
 * put as `0`: only a parameter or a splat can match such a segment, so every path of that shape
 * matches the same route, and /compras/42 and /compras/43 are one lookup.
 */
export function routeLabel(routes: Routes, pathname: string): string {
  let path = pathname
  if (path === '/_root.data') path = '/'
  else if (path.endsWith('.data')) path = path.slice(0, -'.data'.length) || '/'
  const matcher = matcherOf(routes)
  const key = path
    .split('/')
    .map((segment) => (/\d/.test(segment) && !matcher.staticSegments.has(segment.toLowerCase()) ? '0' : segment))
    .join('/')
  let label = matcher.labels.get(key)
  if (label === undefined) {
    label = matchRoutes(matcher.tree, path)?.at(-1)?.route.id ?? 'unmatched'
    if (matcher.labels.size >= REMEMBERED_PATHS) matcher.labels.delete(matcher.labels.keys().next().value!)
    matcher.labels.set(key, label)
  }
  return label
}

/**
 * The metrics port (decision 0089): GET /metrics in Prometheus' text format, nothing else, on
 * its own listener (loopback unless METRICS_HOST names an interface), so the public port never
 * answers /metrics and a load balancer in front never passes it on.
 */
export function serveMetrics(registry: Registry, { port, host }: { port: number; host: string }): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(path === '/metrics' ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(path === '/metrics' ? 'Method not allowed\n' : 'Not found\n')
      return
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`),
    )
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}

import type { ServerBuild } from '@remix-run/node'
import { http, HttpResponse, passthrough } from 'msw'
import { describe, expect, test } from 'vitest'
import { appMetrics, endpointLabel, MAX_ENDPOINTS, routeLabel, serveMetrics } from '#app/http/metrics.server.ts'
import { requestContextStorage } from '#app/http/request-context.server.ts'
import { isProviderError } from '#app/provider/errors.ts'
import { providerFetch } from '#app/provider/fetch.server.ts'
import { loader as readiness } from '#app/routes/readyz.ts'
import { parseExposition, valueOf } from '#server/testing/prometheus.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'

/**
 * The app's /metrics (decision 0089, docs/metrics.md): pages by Remix route id and provider calls
 * by endpoint pattern, bounded whatever the URLs; the provider calls counted by outcome and
 * carrying the request's id; /readyz as the provider's readiness says.
 */

const scrape = async () => parseExposition(await appMetrics().registry.metrics())

/** A build's routes as Remix writes them: nested layouts, an index, params, a splat. */
const routes = {
  root: { id: 'root', path: '' },
  'routes/_index': { id: 'routes/_index', parentId: 'root', index: true },
  'routes/compras.$id': { id: 'routes/compras.$id', parentId: 'root', path: 'compras/:id' },
  'routes/cursos': { id: 'routes/cursos', parentId: 'root', path: 'cursos' },
  'routes/cursos._index': { id: 'routes/cursos._index', parentId: 'routes/cursos', index: true },
  'routes/cursos.$slug': { id: 'routes/cursos.$slug', parentId: 'routes/cursos', path: ':slug' },
  'routes/healthz': { id: 'routes/healthz', parentId: 'root', path: 'healthz' },
  'routes/v2.estado': { id: 'routes/v2.estado', parentId: 'root', path: 'v2/estado' },
  'routes/$': { id: 'routes/$', parentId: 'root', path: '*' },
} as unknown as ServerBuild['routes']

describe('labels', () => {
  test('a request is labelled by the deepest Remix route its path matches, its data request too', () => {
    expect(routeLabel(routes, '/')).toBe('routes/_index')
    expect(routeLabel(routes, '/_root.data')).toBe('routes/_index')
    expect(routeLabel(routes, '/compras/42')).toBe('routes/compras.$id')
    expect(routeLabel(routes, '/compras/42.data')).toBe('routes/compras.$id')
    expect(routeLabel(routes, '/cursos')).toBe('routes/cursos._index')
    expect(routeLabel(routes, '/cursos/sono-profundo')).toBe('routes/cursos.$slug')
    expect(routeLabel(routes, '/healthz')).toBe('routes/healthz')
    expect(routeLabel(routes, '/no/such/page')).toBe('routes/$')
    // A static segment with a digit is told from the ids it looks like, whatever was asked before.
    expect(routeLabel(routes, '/v3/estado')).toBe('routes/$')
    expect(routeLabel(routes, '/v2/estado')).toBe('routes/v2.estado')
    expect(routeLabel(routes, '/V2/estado')).toBe('routes/v2.estado')
    expect(routeLabel(routes, '/v4/estado')).toBe('routes/$')
  })

  test('a thousand distinct URLs make no new label', () => {
    const labels = new Set<string>()
    for (let i = 0; i < 1000; i++) {
      labels.add(routeLabel(routes, `/compras/${i}`))
      labels.add(routeLabel(routes, `/compras/${i}.data`))
      labels.add(routeLabel(routes, `/cursos/curso-${i}`))
      labels.add(routeLabel(routes, `/nothing-${i}/x?y=${i}`))
    }
    expect([...labels].sort()).toEqual(['routes/$', 'routes/compras.$id', 'routes/cursos.$slug'])
  })

  test('a provider path is its endpoint pattern: ids, tokens and files taken out, the query dropped', () => {
    const seen = new Set<string>()
    expect(endpointLabel('/purchases/42/refund/?x=1', seen)).toBe('/purchases/:id/refund/')
    expect(endpointLabel('/users/me/', seen)).toBe('/users/me/')
    expect(endpointLabel('/media/photos/ab12cd.jpg', seen)).toBe('/media/photos/:param')
    expect(endpointLabel('/authentication/confirm-email/MQ/c3a-4f2e9b/', seen)).toBe('/authentication/confirm-email/:param/:param/')
  })

  test('a thousand ids make one endpoint; past MAX_ENDPOINTS patterns, the rest are `other`', () => {
    const seen = new Set<string>()
    const ids = new Set<string>()
    for (let i = 0; i < 1000; i++) ids.add(endpointLabel(`/appointments/${i}/`, seen))
    expect([...ids]).toEqual(['/appointments/:id/'])
    const words = new Set<string>()
    // Slugs look like words; their number is bounded all the same.
    for (let i = 0; i < 1000; i++) words.add(endpointLabel(`/pillars/${'abcdefghij'[i % 10]}${'klmnopqrst'[Math.floor(i / 10) % 10]}${'uvwxyzabcd'[Math.floor(i / 100) % 10]}/`, seen))
    expect(words.size).toBe(MAX_ENDPOINTS)
    expect(words.has('other')).toBe(true)
    expect(seen.size).toBe(MAX_ENDPOINTS)
  })
})

describe('provider calls', () => {
  test('are counted by endpoint and outcome, carry the request id, and a thousand ids make no new series', async () => {
    const ids: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/metrics-test/:id/'), ({ request, params }) => {
        ids.push(request.headers.get('x-request-id'))
        return params.id === '0' ? HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) : HttpResponse.json({ ok: true })
      }),
      http.get(providerUrl('/metrics-test-down/'), () => HttpResponse.error()),
    )
    const calls = (labels: Record<string, string>) => scrape().then((exposition) => valueOf(exposition, 'innera_app_provider_requests_total', labels))
    const ok = { endpoint: '/metrics-test/:id/', method: 'GET', outcome: '2xx' }
    const before = { ok: await calls(ok), refused: await calls({ ...ok, outcome: '4xx' }), down: await calls({ endpoint: '/metrics-test-down/', method: 'GET', outcome: 'network' }) }
    await requestContextStorage.run({ requestId: 'lb-7f3a.9', providerTimings: [] }, async () => {
      await providerFetch('/metrics-test/1/')
      await expect(providerFetch('/metrics-test/0/')).rejects.toSatisfy(isProviderError)
    })
    await requestContextStorage.run({ requestId: 'other', providerTimings: [] }, () => expect(providerFetch('/metrics-test-down/')).rejects.toSatisfy(isProviderError))
    expect(ids).toEqual(['lb-7f3a.9', 'lb-7f3a.9'])
    expect(await calls(ok)).toBe(before.ok + 1)
    expect(await calls({ ...ok, outcome: '4xx' })).toBe(before.refused + 1)
    expect(await calls({ endpoint: '/metrics-test-down/', method: 'GET', outcome: 'network' })).toBe(before.down + 1)

    const series = (await scrape()).series.size
    for (let i = 2; i < 1002; i++) await providerFetch(`/metrics-test/${i}/`)
    const after = await scrape()
    expect(after.series.size).toBe(series)
    expect(valueOf(after, 'innera_app_provider_request_duration_seconds_count', { endpoint: '/metrics-test/:id/', method: 'GET' })).toBeGreaterThanOrEqual(1002)
  }, 60_000)
})

describe('the metrics port', () => {
  test('answers GET /metrics in the text format with Node’s own series, and nothing else', async () => {
    const server = await serveMetrics(appMetrics().registry, { port: 0, host: '127.0.0.1' })
    // A real socket: msw lets these through.
    providerMock.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()))
    try {
      const address = server.address() as { address: string; port: number }
      expect(address.address).toBe('127.0.0.1')
      const response = await fetch(`http://127.0.0.1:${address.port}/metrics`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      const exposition = parseExposition(await response.text())
      expect(exposition.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge')
      expect(exposition.types.get('nodejs_heap_size_used_bytes')).toBe('gauge')
      expect(exposition.types.get('innera_app_http_requests_total')).toBe('counter')
      expect((await fetch(`http://127.0.0.1:${address.port}/`)).status).toBe(404)
    } finally {
      server.close()
    }
  })
})

describe('GET /readyz', () => {
  test('is 200 when the provider is ready, 503 "not ready" while it is not or does not answer', async () => {
    providerMock.use(http.get(providerUrl('/readyz/'), () => HttpResponse.json({ status: 'ready', database: 'ok' })))
    const ready = await readiness()
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', provider: 'ready' }])
    providerMock.use(http.get(providerUrl('/readyz/'), () => HttpResponse.json({ status: 'not ready', reason: 'migrating' }, { status: 503 })))
    const migrating = await readiness()
    expect([migrating.status, await migrating.json()]).toEqual([503, { status: 'not ready', provider: 'not ready' }])
    expect(migrating.headers.get('cache-control')).toBe('no-store')
    providerMock.use(http.get(providerUrl('/readyz/'), () => HttpResponse.error()))
    const unreachable = await readiness()
    expect([unreachable.status, await unreachable.json()]).toEqual([503, { status: 'not ready', provider: 'unreachable' }])
  })
})

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseExposition, valueOf } from '../server/testing/prometheus.ts'
import { freePort, waitFor } from '../scripts/lib/net.mjs'
import { expect, test } from './fixtures'

/**
 * The built product as `npm start` runs it, with both metrics ports on (decision 0089): /metrics
 * answers there in Prometheus' format and never on the public port, the counters rise with the
 * requests, /readyz answers, and one request id (a load balancer's) is followed through the app's
 * and the provider's log lines and comes back in the response.
 */
test.describe('metrics, readiness and the request id', () => {
  test.describe.configure({ mode: 'serial' })
  let child: ChildProcess
  let dataDir: string
  let appUrl: string
  let appMetrics: string
  let providerMetrics: string
  let stdout = ''

  test.beforeAll(async () => {
    test.setTimeout(120_000)
    const [appPort, providerPort, appMetricsPort, providerMetricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()])
    dataDir = mkdtempSync(path.join(tmpdir(), 'innera-metrics-'))
    appUrl = `http://127.0.0.1:${appPort}`
    appMetrics = `http://127.0.0.1:${appMetricsPort}/metrics`
    providerMetrics = `http://127.0.0.1:${providerMetricsPort}/metrics`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NO_BUILD: '1',
      PORT: String(appPort),
      PROVIDER_PORT: String(providerPort),
      METRICS_PORT: String(appMetricsPort),
      PROVIDER_METRICS_PORT: String(providerMetricsPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      THROTTLE_DISABLED: '1',
    }
    for (const name of ['APP_PUBLIC_URL', 'PROVIDER_API_URL', 'PROVIDER_PUBLIC_URL', 'METRICS_HOST', 'PROVIDER_METRICS_HOST']) delete env[name]
    child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'ignore'] })
    child.stdout!.on('data', (chunk) => (stdout += chunk))
    await waitFor(`${appUrl}/healthz`, { child, timeoutMs: 90_000 })
  })

  test.afterAll(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  })

  const scrape = async (url: string) => {
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    return parseExposition(await response.text())
  }

  test('/metrics answers on the metrics ports only, and the request counters rise', async ({ request }) => {
    const page = { route: 'routes/_index', method: 'GET', status: '200' }
    const before = valueOf(await scrape(appMetrics), 'innera_app_http_requests_total', page)
    const providerBefore = valueOf(await scrape(providerMetrics), 'innera_provider_http_requests_total', { route: '/readyz/', method: 'GET', status: '200' })
    for (let i = 0; i < 2; i++) expect((await request.get(`${appUrl}/`)).status()).toBe(200)
    expect((await request.get(`${appUrl}/readyz`)).status()).toBe(200)
    const app = await scrape(appMetrics)
    expect(valueOf(app, 'innera_app_http_requests_total', page)).toBe(before + 2)
    expect(valueOf(app, 'innera_app_http_requests_total', { route: 'routes/readyz', status: '200' })).toBeGreaterThanOrEqual(1)
    expect(valueOf(app, 'innera_app_provider_requests_total', { endpoint: '/readyz/', outcome: '2xx' })).toBeGreaterThanOrEqual(1)
    expect(app.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge')
    // Every route label is one of the build's route ids (or static, unmatched): never a URL.
    expect([...new Set(app.samples.flatMap((sample) => sample.labels.route ?? []))].filter((route) => !/^(routes\/|root$|static$|unmatched$)/.test(route))).toEqual([])
    const provider = await scrape(providerMetrics)
    expect(valueOf(provider, 'innera_provider_http_requests_total', { route: '/readyz/', method: 'GET', status: '200' })).toBe(providerBefore + 1)
    expect(valueOf(provider, 'innera_provider_db_pool_connections', { driver: 'pglite', state: 'total' })).toBe(1)
    expect(provider.types.get('innera_provider_payment_webhooks_total')).toBe('counter')

    // The public port has no /metrics: the app's 404 page, not the series.
    const publicMetrics = await request.get(`${appUrl}/metrics`)
    expect(publicMetrics.status()).toBe(404)
    expect(await publicMetrics.text()).not.toContain('innera_app_http_requests_total')
  })

  test('/readyz is 200 with the provider ready; /healthz stays 200', async ({ request }) => {
    const ready = await request.get(`${appUrl}/readyz`)
    expect([ready.status(), await ready.json()]).toEqual([200, { status: 'ready', provider: 'ready' }])
    expect(ready.headers()['cache-control']).toBe('no-store')
    expect((await request.get(`${appUrl}/healthz`)).status()).toBe(200)
  })

  test("a load balancer's X-Request-Id is kept through the app and the provider, logged by both, and returned", async ({ request }) => {
    const id = `lb-${Date.now().toString(36)}.e2e_1`
    const response = await request.get(`${appUrl}/readyz`, { headers: { 'X-Request-Id': id } })
    expect(response.status()).toBe(200)
    expect(response.headers()['x-request-id']).toBe(id)
    const lines = () => stdout.split('\n').filter((line) => line.includes(id)).map((line) => JSON.parse(line) as Record<string, unknown>)
    // The app's request line, and the provider's for the call the app made for it.
    await expect.poll(() => lines().some((line) => line.type === 'request' && line.path === '/readyz')).toBe(true)
    await expect.poll(() => lines().some((line) => line.msg === 'request' && line.path === '/readyz/')).toBe(true)
    expect(lines().every((line) => line.request_id === id)).toBe(true)

    // One that is too long or carries other characters is replaced by a fresh one.
    for (const unsafe of ['x'.repeat(129), 'has spaces and "quotes"']) {
      const replaced = await request.get(`${appUrl}/healthz`, { headers: { 'X-Request-Id': unsafe } })
      expect(replaced.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})

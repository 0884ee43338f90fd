import http from 'node:http'
import type { Registry } from 'prom-client'

/**
 * The metrics port (decision 0089): GET /metrics in Prometheus' text format, nothing else. It is
 * its own listener, on loopback unless the operator names an interface, so the public port never
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
      (text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' })
        res.end(req.method === 'HEAD' ? undefined : text)
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`)
      },
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

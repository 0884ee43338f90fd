import { sql } from 'drizzle-orm'
import type { Api } from '#server/http/api.ts'
import type { Services } from '#server/services.ts'

/** A database that has not answered `SELECT 1` in this long is unreachable, as far as readiness goes. */
const READY_TIMEOUT_MS = 2_000

/**
 * /healthz/: the process answers and the database runs a query. With
 * REDIS_URL it also reports Redis; a Redis outage is "degraded" but still 200, because the
 * throttles then fall back to per-process counters and the provider keeps serving
 * (docs/decisions/0017-shared-throttles.md): taking every provider out of rotation for it would
 * turn a lost shared counter into an outage.
 */
export function registerHealthRoutes(api: Api, { db, log, throttle }: Services): void {
  api.endpoint('/healthz/', {
    GET: async (c) => {
      const headers = { 'Cache-Control': 'no-store' }
      const redis = await throttle.redisHealth()
      const redisField = redis === undefined ? {} : { redis }
      try {
        await db.execute(sql`SELECT 1`)
      } catch (error) {
        log({ level: 'error', msg: 'health check failed', error: error instanceof Error ? error.message : String(error) })
        return c.json({ status: 'error', database: 'error', ...redisField }, 503, headers)
      }
      return c.json({ status: redis === 'error' ? 'degraded' : 'ok', database: 'ok', ...redisField }, 200, headers)
    },
  })

  /**
   * Readiness, for load balancers and the container's HEALTHCHECK: 200 once this process serves
   * (main.ts answers 503 itself while the migrations run) and the database answers within
   * READY_TIMEOUT_MS; 503 "not ready" otherwise, so a balancer sends nobody here meanwhile.
   * Redis is left out, for the reason above.
   */
  api.endpoint('/readyz/', {
    GET: async (c) => {
      const headers = { 'Cache-Control': 'no-store' }
      let timer: ReturnType<typeof setTimeout> | undefined
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS)
      })
      try {
        await Promise.race([db.execute(sql`SELECT 1`), timedOut])
      } catch (error) {
        log({ level: 'warn', msg: 'not ready: database unreachable', error: error instanceof Error ? error.message : String(error) })
        return c.json({ status: 'not ready', database: 'unreachable' }, 503, { ...headers, 'Retry-After': '5' })
      } finally {
        clearTimeout(timer)
      }
      return c.json({ status: 'ready', database: 'ok' }, 200, headers)
    },
  })
}

import { sql } from 'drizzle-orm'
import type { Api } from '#server/http/api.ts'
import type { Services } from '#server/services.ts'

/**
 * Liveness and readiness in one: the process answers and the database runs a query. With
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
}

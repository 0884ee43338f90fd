import { sql } from 'drizzle-orm'
import type { Api } from '../http/api'
import type { Services } from '../services'

/** Liveness and readiness in one: the process answers and the database runs a query. */
export function registerHealthRoutes(api: Api, { db, log }: Services): void {
  api.endpoint('/healthz/', {
    GET: async (c) => {
      try {
        await db.execute(sql`SELECT 1`)
        return c.json({ status: 'ok', database: 'ok' }, 200, { 'Cache-Control': 'no-store' })
      } catch (error) {
        log({ level: 'error', msg: 'health check failed', error: error instanceof Error ? error.message : String(error) })
        return c.json({ status: 'error', database: 'error' }, 503, { 'Cache-Control': 'no-store' })
      }
    },
  })
}

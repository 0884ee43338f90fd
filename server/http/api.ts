import type { Context, Hono } from 'hono'
import type { RouteTable } from './route-table'

export type AppEnv = { Variables: { requestId: string } }
export type AppContext = Context<AppEnv>
export type Handler = (c: AppContext) => Response | Promise<Response>
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Registers endpoints on the Hono app and records them so the fallback can answer 405s. */
export class Api {
  constructor(
    readonly app: Hono<AppEnv>,
    private readonly table: RouteTable,
  ) {}

  endpoint(path: string, handlers: Partial<Record<Method, Handler>>): void {
    for (const [method, handler] of Object.entries(handlers)) this.app.on(method, path, handler)
    this.table.add(path, Object.keys(handlers))
  }
}

/** A path parameter of the matched route (always present when the route matched). */
export function pathParam(c: AppContext, name: string): string {
  return c.req.param(name) ?? ''
}

import type { Context, Hono } from 'hono'
import { pathId } from '#server/http/ids.ts'
import type { RouteTable } from '#server/http/route-table.ts'

export type AppEnv = { Variables: { requestId: string; clientAddress: string } }
export type AppContext = Context<AppEnv>
export type Handler = (c: AppContext) => Response | Promise<Response>
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Path parameters declared numeric (":id{[0-9]+}") are database ids. */
const ID_PARAM = /^:(\w+)\{\[0-9\]\+\}$/

/** Registers endpoints on the Hono app and records them so the fallback can answer 405s. */
export class Api {
  constructor(
    readonly app: Hono<AppEnv>,
    private readonly table: RouteTable,
  ) {}

  endpoint(path: string, handlers: Partial<Record<Method, Handler>>): void {
    const idParams = path.split('/').flatMap((segment) => ID_PARAM.exec(segment)?.[1] ?? [])
    for (const [method, handler] of Object.entries(handlers)) {
      // Every id in the path is range-checked here, once for all routes, so none can forget it.
      const checked: Handler = (c) => {
        for (const name of idParams) pathId(c.req.param(name))
        return handler(c)
      }
      this.app.on(method, path, idParams.length === 0 ? handler : checked)
    }
    this.table.add(path, Object.keys(handlers))
  }
}

/** A path parameter of the matched route (always present when the route matched). */
export function pathParam(c: AppContext, name: string): string {
  return c.req.param(name) ?? ''
}

/** A numeric path parameter as a database id (1 to 2147483647; anything else is a 400). */
export function idParam(c: AppContext, name: string): number {
  return pathId(c.req.param(name))
}

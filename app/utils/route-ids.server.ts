import { data } from '@remix-run/node'
import { parseId } from './ids.ts'

/** The `:id` of a route as a provider id; anything that cannot name one is the page's 404. */
export function routeId(params: Record<string, string | undefined>): number {
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  return id
}

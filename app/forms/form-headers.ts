import { type HeadersFunction } from '@remix-run/node'

/**
 * The document headers of a form route. Remix passes an action's own headers into the page only
 * through the route's `headers` export (cookies excepted), so without this a throttled
 * submission's Retry-After (app/utils/messages.server.ts failureInit) never reached the browser.
 * Every form route that posts to a throttled endpoint re-exports it: `export { headers } from …`.
 */
export const headers: HeadersFunction = ({ actionHeaders, errorHeaders }) => {
  const out = new Headers()
  const retryAfter = actionHeaders.get('Retry-After') ?? errorHeaders?.get('Retry-After')
  if (retryAfter) out.set('Retry-After', retryAfter)
  return out
}

import { type ActionFunctionArgs } from '@remix-run/node'
import { progressAction } from '#app/features/courses/courses.server.ts'
import { parseId } from '#app/utils/ids.ts'

/**
 * `/aula/{id}/progresso` (decision 0057): where the lesson page's player reports what it played,
 * by `fetch` while it plays and by a beacon when the page goes. JSON `{progress}`; refusals keep
 * their status (400, 401, 403, 404, 429 with Retry-After). Never a page: a GET is 405.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const id = parseId(params.id)
  if (id === undefined) return Response.json({ error: 'not-found' }, { status: 404, headers: { 'Cache-Control': 'private, no-store' } })
  return progressAction(request, id)
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}

import { type MetaFunction } from '@remix-run/node'
import { getEnv } from '#app/env.server.ts'

/**
 * The benchmarks' floor (bench/): a page with nothing of its own to load. It exists only when the
 * bench starts the app with APP_BENCH_ROUTES=on; anywhere else it is an unknown page.
 */
export function loader() {
  if (!getEnv().APP_BENCH_ROUTES) throw new Response('Not Found', { status: 404 })
  return null
}

export const meta: MetaFunction = () => [{ title: 'Bench · Innera' }, { name: 'robots', content: 'noindex' }]

export default function BenchBare() {
  return <main id="main" />
}

import { type MetaFunction } from '@remix-run/node'

/** The benchmarks' floor (bench/): a page with no loader and nothing of its own to load. */
export const meta: MetaFunction = () => [{ title: 'Bench · Innera' }, { name: 'robots', content: 'noindex' }]

export default function BenchBare() {
  return <main id="main" />
}

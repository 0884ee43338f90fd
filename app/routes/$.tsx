import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ErrorPage } from '#app/ui/error-boundary.tsx'
import { pageMeta } from '#app/utils/meta.ts'

// Every path no other route claims: a 404 page in the user's language, with its own title.
export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request)
  const path = new URL(request.url).pathname
  return data({ meta: { title: `${t('errorPage.title404')} · Innera`, description: t('errorPage.body404', { path }) } }, { status: 404 })
}

export function action() {
  throw new Response('Not found', { status: 404 })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [...pageMeta(data?.meta), { name: 'robots', content: 'noindex' }]

export default function NotFound() {
  return <ErrorPage kind="404" status={404} />
}

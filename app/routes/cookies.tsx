import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { legalContent } from '#app/i18n/content.server.ts'
import { LegalDocument } from '#app/ui/legal-document.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return legalContent(request, 'cookies')
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function CookiePolicy() {
  const { document, labels } = useLoaderData<typeof loader>()
  return (
    <main id="main">
      <LegalDocument document={document} labels={labels} />
    </main>
  )
}

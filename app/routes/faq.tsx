import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { pageContent } from '#app/i18n/content.server.ts'
import { DisclosureList } from '#app/ui/disclosure-list.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import { CallToAction, PageSection } from '#app/ui/page-section.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return pageContent(request, 'faq')
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function Faq() {
  const { content } = useLoaderData<typeof loader>()
  return (
    <main id="main">
      <PageHero title={content.title} lead={content.lead} />
      <div className="container-page max-w-4xl space-y-12 py-16">
        {Object.entries(content.groups).map(([key, group]) => (
          <PageSection key={key} id={`faq-${key}`} title={group.title}>
            <DisclosureList
              className="mt-6"
              items={Object.entries(group.items).map(([itemKey, item]) => ({ id: itemKey, summary: item.question, details: item.answer }))}
            />
          </PageSection>
        ))}
        <CallToAction id="more" title={content.more.title} text={content.more.text}>
          <Link to="/contato" className="btn-primary">
            {content.more.cta}
          </Link>
        </CallToAction>
      </div>
    </main>
  )
}

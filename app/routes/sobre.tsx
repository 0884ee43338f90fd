import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { pageContent } from '#app/i18n/content.server.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import { PageSection, Paragraphs } from '#app/ui/page-section.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return pageContent(request, 'about')
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function About() {
  const { content } = useLoaderData<typeof loader>()
  return (
    <main id="main">
      <PageHero title={content.title} lead={content.lead} />
      <div className="container-page space-y-16 py-16">
        <PageSection id="mission" title={content.mission.title} className="max-w-3xl">
          <Paragraphs items={content.mission.paragraphs} />
        </PageSection>

        <PageSection id="how-it-works" title={content.howItWorks.title} lead={content.howItWorks.lead}>
          <ol className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {Object.entries(content.howItWorks.steps).map(([key, step], index) => (
              <li key={key} className="rounded-2xl border border-brand-100 bg-white p-6 shadow-sm">
                <span aria-hidden="true" className="flex size-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-4 text-xl font-semibold">{step.title}</h3>
                <p className="mt-2 text-muted">{step.text}</p>
              </li>
            ))}
          </ol>
        </PageSection>

        <PageSection id="values" title={content.values.title}>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2">
            {Object.entries(content.values.items).map(([key, value]) => (
              <li key={key} className="rounded-2xl border-l-4 border-brand-700 bg-white p-6 shadow-sm">
                <h3 className="text-xl font-semibold">{value.title}</h3>
                <p className="mt-2 text-muted">{value.text}</p>
              </li>
            ))}
          </ul>
        </PageSection>

        <PageSection id="founders" title={content.founders.title} className="max-w-3xl">
          <Paragraphs items={content.founders.paragraphs} />
        </PageSection>

        <section aria-labelledby="careers-title" className="rounded-3xl bg-brand-50 px-6 py-10 sm:px-10">
          <h2 id="careers-title" className="text-3xl font-bold tracking-tight">
            {content.careers.title}
          </h2>
          <Paragraphs items={content.careers.paragraphs} className="mt-4 max-w-3xl space-y-4 text-lg" />
          <Link to="/contato" className="btn-primary mt-6">
            {content.careers.cta}
          </Link>
        </section>
      </div>
    </main>
  )
}

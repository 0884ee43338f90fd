import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { pageContent } from '#app/i18n/content.server.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import { CallToAction, PageSection, Paragraphs } from '#app/ui/page-section.tsx'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return pageContent(request, 'lifestyleMedicine')
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

// The same line icons as the pillars of the home page.
const pillarIcons: Record<string, string> = {
  estresse: 'brain',
  exercicio: 'activity',
  alimento: 'apple',
  sono: 'moon',
  relacionamentos: 'users',
  substancias: 'shield',
}

export default function LifestyleMedicine() {
  const { content } = useLoaderData<typeof loader>()
  return (
    <main id="main">
      <PageHero title={content.title} lead={content.lead} />
      <div className="container-page space-y-16 py-16">
        <div className="grid gap-10 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
          <PageSection id="what-is" title={content.whatIs.title}>
            <Paragraphs items={content.whatIs.paragraphs} />
          </PageSection>
          <section aria-labelledby="evidence-title" className="rounded-3xl border border-brand-100 bg-white p-8 shadow-sm">
            <h2 id="evidence-title" className="text-2xl font-bold tracking-tight text-brand-800">
              {content.evidence.title}
            </h2>
            <p className="mt-4 text-lg">{content.evidence.text}</p>
          </section>
        </div>

        <PageSection id="pillars" title={content.pillars.title} lead={content.pillars.lead}>
          <ol className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Object.entries(content.pillars.items).map(([slug, pillar]) => (
              <li key={slug} id={`pilar-${slug}`} className="flex flex-col rounded-2xl border border-brand-100 bg-white p-6 shadow-sm">
                <PillarIcon icon={pillarIcons[slug] ?? 'shield'} className="size-10 text-brand-700" />
                <h3 className="mt-4 text-xl font-semibold">{pillar.name}</h3>
                <p className="mt-2 text-muted">{pillar.description}</p>
                <p className="mt-4 text-sm font-semibold text-brand-800">{content.pillars.examplesTitle}</p>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-sm marker:text-brand-700">
                  {pillar.examples.map((example) => (
                    <li key={example}>{example}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </PageSection>

        <section aria-labelledby="coaching-title" className="max-w-3xl rounded-2xl border-l-4 border-brand-700 bg-white p-6 sm:p-8">
          <h2 id="coaching-title" className="text-2xl font-bold tracking-tight">
            {content.coaching.title}
          </h2>
          <Paragraphs items={content.coaching.paragraphs.slice(0, -1)} />
          <p className="mt-4 text-lg font-semibold">{content.coaching.paragraphs.at(-1)}</p>
        </section>

        <CallToAction id="next-step" title={content.cta.title} text={content.cta.text}>
          <Link to="/programa" className="btn-primary">
            {content.cta.button}
          </Link>
        </CallToAction>
      </div>
    </main>
  )
}

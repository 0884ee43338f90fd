import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { pageContent } from '#app/i18n/content.server.ts'
import { PageHero, heroPrimaryButton, heroSecondaryButton } from '#app/ui/page-hero.tsx'
import { CallToAction, PageSection, Paragraphs } from '#app/ui/page-section.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request }: LoaderFunctionArgs) {
  return pageContent(request, 'program')
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function Program() {
  const { content } = useLoaderData<typeof loader>()
  return (
    <main id="main">
      <PageHero
        title={content.title}
        lead={content.lead}
        note={content.assessmentNote}
        actions={
          <>
            <Link to="/avaliacao" className={heroPrimaryButton}>
              {content.assessmentCta}
            </Link>
            <Link to="/auth?mode=register" className={heroSecondaryButton}>
              {content.registerCta}
            </Link>
          </>
        }
      />
      <div className="container-page space-y-16 py-16">
        <PageSection id="steps" title={content.steps.title}>
          <ol className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Object.entries(content.steps.items).map(([key, step], index) => (
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

        <div className="grid gap-10 lg:grid-cols-2">
          <PageSection id="duration" title={content.duration.title}>
            <Paragraphs items={content.duration.paragraphs} />
          </PageSection>
          <PageSection id="audience" title={content.audience.title}>
            <ul className="mt-4 space-y-4">
              {Object.entries(content.audience.items).map(([key, item]) => (
                <li key={key} className="rounded-2xl border-l-4 border-brand-700 bg-white p-6 shadow-sm">
                  <h3 className="text-xl font-semibold">{item.title}</h3>
                  <p className="mt-2 text-muted">{item.text}</p>
                </li>
              ))}
            </ul>
          </PageSection>
        </div>

        <p role="note" className="max-w-3xl rounded-2xl border border-brand-100 bg-white p-6 text-lg">
          {content.coachingNote}
        </p>

        <CallToAction id="start" title={content.cta.title} text={content.cta.text}>
          <Link to="/avaliacao" className="btn-primary">
            {content.assessmentCta}
          </Link>
          <Link to="/auth?mode=register" className="btn-secondary">
            {content.registerCta}
          </Link>
        </CallToAction>
      </div>
    </main>
  )
}

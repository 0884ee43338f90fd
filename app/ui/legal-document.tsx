import { Link } from '@remix-run/react'
import { anchorFromKey } from '#app/utils/anchor.ts'
import { RichText } from './rich-text.tsx'

type LegalSection = {
  title: string
  paragraphs?: readonly string[]
  list?: readonly string[]
  definitions?: Readonly<Record<string, { term: string; description: string }>>
  after?: readonly string[]
}

type LegalDocumentContent = {
  title: string
  intro: readonly string[]
  sections: Readonly<Record<string, LegalSection>>
}

type LegalDocumentLabels = { backToHome: string; tableOfContents: string; versionLine: string }

function BackToHome({ label }: { label: string }) {
  return (
    <Link to="/" className="link inline-flex min-h-11 items-center gap-2">
      <span aria-hidden="true">←</span>
      {label}
    </Link>
  )
}

function Paragraphs({ items }: { items: readonly string[] | undefined }) {
  return (
    <>
      {items?.map((text) => (
        <p key={text} className="mt-4">
          <RichText text={text} />
        </p>
      ))}
    </>
  )
}

/**
 * A privacy policy, terms or cookie policy: back links at top and bottom, the version line, a table
 * of contents with in-page anchors (sticky beside the text on wide screens) and numbered sections.
 */
export function LegalDocument({ document, labels }: { document: LegalDocumentContent; labels: LegalDocumentLabels }) {
  const sections = Object.entries(document.sections).map(([key, section]) => ({ ...section, id: anchorFromKey(key) }))
  return (
    <article className="container-page py-8 sm:py-12">
      <BackToHome label={labels.backToHome} />
      <header className="mt-4 max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">{document.title}</h1>
        <p className="mt-3 font-medium text-muted">{labels.versionLine}</p>
        <div className="text-lg">
          <Paragraphs items={document.intro} />
        </div>
      </header>

      <div className="mt-10 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)] lg:items-start lg:gap-12">
        <nav
          aria-labelledby="toc-title"
          className="rounded-2xl border border-brand-100 bg-white p-5 lg:sticky lg:top-6 lg:max-h-[calc(100vh-3rem)] lg:overflow-y-auto"
        >
          <h2 id="toc-title" className="text-sm font-semibold uppercase tracking-wide text-muted">
            {labels.tableOfContents}
          </h2>
          <ol className="mt-3 list-decimal space-y-1 pl-5 marker:text-muted">
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="block py-1 text-ink underline-offset-4 hover:text-brand-800 hover:underline">
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="mt-10 max-w-3xl space-y-10 leading-relaxed lg:mt-0">
          {sections.map((section, index) => (
            <section key={section.id}>
              <h2 id={section.id} className="scroll-mt-6 text-2xl font-semibold tracking-tight text-balance">
                {index + 1}. {section.title}
              </h2>
              <Paragraphs items={section.paragraphs} />
              {section.list ? (
                <ul className="mt-4 list-disc space-y-2 pl-6 marker:text-brand-700">
                  {section.list.map((item) => (
                    <li key={item}>
                      <RichText text={item} />
                    </li>
                  ))}
                </ul>
              ) : null}
              {section.definitions ? (
                <dl className="mt-4 space-y-4">
                  {Object.entries(section.definitions).map(([key, definition]) => (
                    <div key={key} className="rounded-xl border border-brand-100 bg-white p-4">
                      <dt className="font-semibold">{definition.term}</dt>
                      <dd className="mt-1">
                        <RichText text={definition.description} />
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              <Paragraphs items={section.after} />
            </section>
          ))}
        </div>
      </div>

      <div className="mt-12 border-t border-brand-100 pt-6">
        <BackToHome label={labels.backToHome} />
      </div>
    </article>
  )
}

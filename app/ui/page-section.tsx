import { type ReactNode } from 'react'

/** A titled part of a content page: a region named by its h2. */
export function PageSection({
  id,
  title,
  lead,
  className = '',
  children,
}: {
  id: string
  title: string
  lead?: string
  className?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`${id}-title`} className={className}>
      <h2 id={`${id}-title`} className="text-3xl font-bold tracking-tight text-balance">
        {title}
      </h2>
      {lead ? <p className="mt-2 text-lg text-muted">{lead}</p> : null}
      {children}
    </section>
  )
}

export function Paragraphs({ items, className = 'mt-4 space-y-4 text-lg' }: { items: readonly string[]; className?: string }) {
  return (
    <div className={className}>
      {items.map((text) => (
        <p key={text}>{text}</p>
      ))}
    </div>
  )
}

/** The closing invitation of a page: a short text and one or two links. */
export function CallToAction({ id, title, text, children }: { id: string; title: string; text: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-3xl bg-brand-50 px-6 py-10 sm:px-10">
      <h2 id={`${id}-title`} className="text-2xl font-bold tracking-tight text-balance sm:text-3xl">
        {title}
      </h2>
      <p className="mt-3 max-w-2xl text-lg text-muted">{text}</p>
      <div className="mt-6 flex flex-wrap gap-3">{children}</div>
    </section>
  )
}

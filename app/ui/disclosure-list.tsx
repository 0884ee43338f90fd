import { anchorFromKey } from '#app/utils/anchor.ts'
import { RichText } from './rich-text.tsx'

type Disclosure = { id: string; summary: string; details: readonly string[] }

/**
 * Questions that open to show their answers: native `<details>`/`<summary>`, so they work with the
 * keyboard, with screen readers and without JavaScript. Each one carries an anchor made from its
 * key (e.g. `/faq#medical-advice`), so a link can point at a single answer.
 */
export function DisclosureList({ items, className = '' }: { items: readonly Disclosure[]; className?: string }) {
  return (
    <ul className={`divide-y divide-brand-100 overflow-hidden rounded-2xl border border-brand-100 bg-white ${className}`}>
      {items.map((item) => (
        <li key={item.id}>
          <details id={anchorFromKey(item.id)} className="group">
            <summary className="flex min-h-11 list-none items-center justify-between gap-4 px-5 py-4 text-lg font-semibold hover:bg-brand-50 focus-visible:-outline-offset-3">
              <span>{item.summary}</span>
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full border border-brand-700 text-xl leading-none text-brand-800 transition-transform group-open:rotate-45"
              >
                +
              </span>
            </summary>
            <div className="space-y-3 px-5 pb-5 text-ink">
              {item.details.map((text) => (
                <p key={text}>
                  <RichText text={text} />
                </p>
              ))}
            </div>
          </details>
        </li>
      ))}
    </ul>
  )
}

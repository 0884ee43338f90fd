import { Link } from '@remix-run/react'
import { Fragment } from 'react'
import { parseRichText } from '#app/utils/rich-text.ts'

/**
 * A translated text whose `[label](/path)` and `[label](mailto:…)` parts render as links; with
 * `newTab`, the site's own links open in a new tab (beside a form that must not lose its input).
 */
export function RichText({ text, newTab = false }: { text: string; newTab?: boolean }) {
  return (
    <>
      {parseRichText(text).map((segment, index) => {
        if (segment.type === 'text') return <Fragment key={index}>{segment.text}</Fragment>
        return segment.internal ? (
          <Link key={index} to={segment.href} className="link" target={newTab ? '_blank' : undefined}>
            {segment.text}
          </Link>
        ) : (
          <a key={index} href={segment.href} className="link">
            {segment.text}
          </a>
        )
      })}
    </>
  )
}

/**
 * Long translated texts (legal pages, FAQ answers) carry their links inline as
 * `[label](/path)` or `[label](mailto:address)`. Only same-site paths, in-page anchors and mailto
 * are links; anything else stays plain text, so a translation can never point users off-site.
 */
type RichTextSegment = { type: 'text'; text: string } | { type: 'link'; text: string; href: string; internal: boolean }

const linkPattern = /\[([^\]]+)\]\(([^)\s]+)\)/g

export function isAllowedHref(href: string) {
  return (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('#') || /^mailto:[^@\s]+@[^@\s]+$/.test(href)
}

export function parseRichText(source: string): RichTextSegment[] {
  const segments: RichTextSegment[] = []
  const pushText = (text: string) => {
    if (!text) return
    const last = segments.at(-1)
    if (last?.type === 'text') last.text += text
    else segments.push({ type: 'text', text })
  }
  let cursor = 0
  for (const match of source.matchAll(linkPattern)) {
    const [whole, label = '', href = ''] = match
    pushText(source.slice(cursor, match.index))
    if (isAllowedHref(href)) segments.push({ type: 'link', text: label, href, internal: href.startsWith('/') })
    else pushText(label)
    cursor = match.index + whole.length
  }
  pushText(source.slice(cursor))
  return segments
}

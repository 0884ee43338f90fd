/**
 * A message's text as the thread shows it (issue 44): plain text, with the http(s) addresses in it
 * as links. Nothing else is interpreted (no markup, no other schemes); the page draws each part as
 * a text node or an anchor, never as HTML. No imports: the browser may draw it too.
 */
export type MessagePart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string }

// An address runs to the next space or angle bracket/quote; trailing punctuation is the sentence's.
const URL_PATTERN = /https?:\/\/[^\s<>"']+/giu
const TRAILING = /[.,;:!?)\]}»”’]+$/u

function linkOf(candidate: string): string | null {
  try {
    const url = new URL(candidate)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/** Whether an address has more "(" than ")": the next ")" closes its own. */
const opensMore = (address: string) => address.split('(').length > address.split(')').length

/** The text cut into its plain parts and its links, in order; joined, the parts' texts are the text. */
export function messageParts(text: string): MessagePart[] {
  const parts: MessagePart[] = []
  let plain = ''
  let last = 0
  for (const match of text.matchAll(URL_PATTERN)) {
    let candidate = match[0]
    // A closing bracket that the address opened stays in it (a Wikipedia link's "(...)").
    const trailing = TRAILING.exec(candidate)?.[0] ?? ''
    let kept = trailing
    while (kept.startsWith(')') && opensMore(candidate.slice(0, candidate.length - kept.length))) kept = kept.slice(1)
    candidate = candidate.slice(0, candidate.length - kept.length)
    const href = linkOf(candidate)
    plain += text.slice(last, match.index)
    last = match.index + match[0].length
    if (href === null || candidate.length <= 'https://'.length) {
      plain += match[0]
      continue
    }
    if (plain) parts.push({ kind: 'text', text: plain })
    parts.push({ kind: 'link', text: candidate, href })
    plain = kept
  }
  plain += text.slice(last)
  if (plain) parts.push({ kind: 'text', text: plain })
  return parts
}

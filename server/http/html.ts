const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char]!)
}

/** Escapes text and turns http(s) URLs in it into links. */
export function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, index) => (index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('')
}

/**
 * The developer-facing pages (dev mailbox, fake Google) load nothing from anywhere: inline
 * styles only, no scripts, never framed.
 */
export const HTML_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
}

export function htmlDocument({ title, body, lang = 'en', styles = '' }: { title: string; body: string; lang?: string; styles?: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0; padding: 1.5rem; }
  main { max-width: 60rem; margin: 0 auto; }
  a { color: LinkText; }
  button { font: inherit; padding: 0.6rem 1rem; border-radius: 0.5rem; border: 1px solid ButtonBorder; cursor: pointer; }
  button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
  pre { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0.5rem 0 0; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
${styles}
</style>
</head>
<body>
${body}
</body>
</html>
`
}

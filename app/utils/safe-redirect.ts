const DEFAULT_REDIRECT = '/'

/**
 * A user-supplied redirect target, kept only when it stays on this site: a path starting with a
 * single slash, with no scheme, no protocol-relative `//`, no backslash tricks and no control characters.
 * What is judged is the value actually returned, after the URL parser has collapsed dot segments:
 * `/.//evil.example` and `/x/..//evil.example` both normalise to `//evil.example`, which a browser
 * reads as another host.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string = DEFAULT_REDIRECT): string {
  if (!to || typeof to !== 'string') return fallback
  const target = to.trim()
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(target)) return fallback
  try {
    const url = new URL(target, 'http://innera.invalid')
    if (url.origin !== 'http://innera.invalid') return fallback
    const normalised = `${url.pathname}${url.search}${url.hash}`
    if (!normalised.startsWith('/') || normalised.startsWith('//') || normalised.startsWith('/\\')) return fallback
    return normalised
  } catch {
    return fallback
  }
}

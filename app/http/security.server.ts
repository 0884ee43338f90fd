/** Headers every response carries; the document's CSP (with its nonce) is set by entry.server. */
export function baseSecurityHeaders({ production }: { production: boolean }): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
    ...(production ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  }
}

/** The policy of every response that is not a document (JSON, redirects, files): nothing may run. */
export const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"

export function documentContentSecurityPolicy({
  nonce,
  development,
  formActionOrigins = [],
  mediaOrigins = [],
}: {
  nonce: string
  development: boolean
  formActionOrigins?: string[]
  /** Where lessons' videos may come from besides this site (MEDIA_BASE_URL's origin). */
  mediaOrigins?: string[]
}): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"],
    'style-src': development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    'img-src': ["'self'", 'data:'],
    'media-src': ["'self'", ...mediaOrigins],
    'font-src': ["'self'"],
    'connect-src': development ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
    'form-action': ["'self'", ...formActionOrigins],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'manifest-src': ["'self'"],
    // The service worker of the push notifications (/sw.js, decision 0087): 'strict-dynamic' in script-src would leave out 'self'.
    'worker-src': ["'self'"],
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ')
}

/**
 * Where a form's navigation may end besides this site (the CSP's form-action, which browsers also
 * apply to the redirects after a post): Google's consent page, the card payment's page, and the
 * live classes' meetings at Zoom (decision 0058; the demo's fake Zoom is the provider, as the fake
 * payment pages are).
 */
export function formActionOriginsOf(env: { GOOGLE_CLIENT_ID?: string; GOOGLE_AUTHORIZATION_URL: string; PAYMENT_PAGES_URL: string }): string[] {
  return [...(env.GOOGLE_CLIENT_ID ? [new URL(env.GOOGLE_AUTHORIZATION_URL).origin] : []), new URL(env.PAYMENT_PAGES_URL).origin, 'https://zoom.us', 'https://*.zoom.us']
}

/** Whether a post may redirect to `url` under those origins (a `https://*.host` one allows its subdomains). */
export function formActionAllows(url: string, origins: readonly string[]): boolean {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    return false
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return false
  return origins.some((origin) => {
    const wildcard = /^(https?:)\/\/\*\.(.+)$/.exec(origin)
    if (wildcard) return target.protocol === wildcard[1] && target.hostname.endsWith(`.${wildcard[2]}`)
    return target.origin === origin
  })
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses a state-changing request that another site started: the Origin header, when sent,
 * must be this site's; without it, Sec-Fetch-Site must not say cross-site.
 *
 * An Origin must also be the host Remix's own action check compares it with (`remixHost`), or
 * Remix throws ("host header does not match `origin`"): a 500 and an error line for a request
 * refused either way (decision 0075). Refused here instead, it is a 403 in the visitor's language.
 */
export function isCrossSiteWrite({
  method,
  origin,
  host,
  remixHost,
  publicOrigin,
  secFetchSite,
}: {
  method: string
  origin: string | undefined
  /** The host the visitor asked for: X-Forwarded-Host from a trusted proxy, else Host. */
  host: string | undefined
  /** What Remix compares the Origin with: the first X-Forwarded-Host whoever sent it, else Host. */
  remixHost: string | undefined
  /** The configured public origin (APP_PUBLIC_URL): behind a proxy that rewrites Host, still this site. */
  publicOrigin?: string
  secFetchSite: string | undefined
}): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false
  if (origin && origin !== 'null') {
    let originHost: string
    try {
      originHost = new URL(origin).host
    } catch {
      return true
    }
    if (originHost !== remixHost) return true
    if (publicOrigin && origin === publicOrigin) return false
    return originHost !== host
  }
  if (origin === 'null') return true
  return secFetchSite === 'cross-site'
}

import { z } from 'zod'
import { COOKIE_POLICY_VERSION } from '#app/i18n/legal-documents.ts'

const CONSENT_COOKIE = 'innera_consent'
const CONSENT_MAX_AGE_SECONDS = 60 * 60 * 24 * 365

export const optionalCategories = ['preferences', 'analytics', 'marketing'] as const
type OptionalCategory = (typeof optionalCategories)[number]

export type Consent = {
  necessary: true
  preferences: boolean
  analytics: boolean
  marketing: boolean
  consented: boolean
  timestamp: string
  version: string
}

// Built on first use: the banner's client code imports this module, and a schema built at load
// time would put zod into every page's JavaScript.
let consentSchema: z.ZodType<Consent> | undefined
function schema() {
  consentSchema ??= z.object({
    necessary: z.literal(true),
    preferences: z.boolean(),
    analytics: z.boolean(),
    marketing: z.boolean(),
    consented: z.boolean(),
    timestamp: z.string(),
    version: z.string(),
  })
  return consentSchema
}

export type ConsentChoice = { kind: 'all' } | { kind: 'necessary' } | { kind: 'close' } | { kind: 'custom'; categories: OptionalCategory[] }

/** The stored preferences for a choice (docs/product.md §3): necessary is always on. */
export function consentFor(choice: ConsentChoice, now: Date): Consent {
  const granted = new Set<OptionalCategory>(choice.kind === 'all' ? optionalCategories : choice.kind === 'custom' ? choice.categories : [])
  return {
    necessary: true,
    preferences: granted.has('preferences'),
    analytics: granted.has('analytics'),
    marketing: granted.has('marketing'),
    // Closing the banner hides it but is not a consent: nothing optional is allowed.
    consented: choice.kind !== 'close',
    timestamp: now.toISOString(),
    version: COOKIE_POLICY_VERSION,
  }
}

export function serializeConsent(consent: Consent): string {
  return encodeURIComponent(JSON.stringify(consent))
}

/** The consent stored in the Cookie header, or null when there is none, it is unreadable or it is for an older policy. */
export function parseConsent(cookieHeader: string | null): Consent | null {
  if (!cookieHeader) return null
  const raw = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONSENT_COOKIE}=`))
    ?.slice(CONSENT_COOKIE.length + 1)
  if (!raw) return null
  try {
    const parsed = schema().safeParse(JSON.parse(decodeURIComponent(raw)))
    if (!parsed.success || parsed.data.version !== COOKIE_POLICY_VERSION) return null
    return parsed.data
  } catch {
    return null
  }
}

/** Set-Cookie for a consent: a year for a real choice; for the browser session only when merely closed. */
export function consentCookieHeader(consent: Consent, { secure }: { secure: boolean }): string {
  const parts = [`${CONSENT_COOKIE}=${serializeConsent(consent)}`, 'Path=/', 'SameSite=Lax', 'HttpOnly']
  if (consent.consented) parts.push(`Max-Age=${CONSENT_MAX_AGE_SECONDS}`)
  if (secure) parts.push('Secure')
  return parts.join('; ')
}

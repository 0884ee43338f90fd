import { CONSENT_DOCUMENTS, type ConsentDocument, type ConsentSource, type CookieCategories } from '#server/db/schema.ts'

/**
 * The consent record's rules (docs/product.md §4, decision 0060), pure: what a document's current
 * state is, which changes are refused, and the versions a registration consents to.
 */

const PRIVACY_POLICY_VERSIONS = ['1.0'] as const

/**
 * Every version of each document ever published, oldest first: the newest is the one in force,
 * as the app shows it (app/i18n/legal-documents.ts; a test compares them). A new version is
 * appended here together with the app's; an older one stays, as a page shown before it may still
 * be submitted (decision 0075). The marketing opt-in is to the privacy policy, which describes
 * the marketing e-mail (decision 0060).
 */
export const PUBLISHED_VERSIONS: Record<ConsentDocument, readonly string[]> = {
  terms: ['1.0'],
  privacy: PRIVACY_POLICY_VERSIONS,
  cookies: ['1.0'],
  marketing: PRIVACY_POLICY_VERSIONS,
}

const inForce = (document: ConsentDocument): string => PUBLISHED_VERSIONS[document].at(-1)!

/** The terms and the privacy policy in force: a registration with `accept_terms` records these. */
export const SIGNUP_DOCUMENT_VERSIONS = { terms: inForce('terms'), privacy: inForce('privacy') } as const

/** Why a version is refused: no such version of the document was ever published (a consent to a text nobody was shown). */
export function unpublishedVersionMessage(document: ConsentDocument, version: string): string | undefined {
  return PUBLISHED_VERSIONS[document].includes(version) ? undefined : `"${version}" is not a published version of this document.`
}

/** A document's version as the app sends it: a short dotted number ("1.0", "2", "1.2.3"). */
export const VERSION_PATTERN = /^\d{1,3}(?:\.\d{1,3}){0,2}$/
export const VERSION_MESSAGE = 'Enter a document version such as "1.0".'

/** The sources a caller may name; "signup" is the registration's own. */
export const CLIENT_SOURCES = ['settings', 'cookie-banner'] as const satisfies readonly ConsentSource[]

/** Documents using the account requires: withdrawing them is closing the account (decision 0060). */
const REQUIRED_DOCUMENTS = ['terms', 'privacy'] as const satisfies readonly ConsentDocument[]
export const WITHDRAW_REQUIRES_DELETION = 'withdraw_requires_deletion'
export const WITHDRAW_REQUIRES_DELETION_MESSAGE = 'The terms and the privacy policy are what the account runs on: to withdraw them, delete the account.'

export type ConsentRecordView = {
  id: number
  document: ConsentDocument
  version: string
  granted: boolean
  source: ConsentSource
  categories: CookieCategories | null
  recordedAt: Date
}

type ConsentState = Record<ConsentDocument, ConsentRecordView | null>

const later = (record: ConsentRecordView, than: ConsentRecordView) =>
  record.recordedAt.getTime() > than.recordedAt.getTime() || (record.recordedAt.getTime() === than.recordedAt.getTime() && record.id > than.id)

/**
 * Each document's current state, or null when none was ever recorded (an account made before the
 * record existed, a marketing opt-in never asked). A grant of a version never published is no
 * consent and is left out (records written before versions were checked, decision 0075); a
 * withdrawal counts whatever version it names. The terms and the privacy policy, never withdrawn,
 * are the newest version accepted (a page shown before a new version, submitted after the user
 * accepted it, does not take it back), the latest record among equal versions; the cookie policy
 * and marketing are the latest record (by time, then id): the latest choice of categories, or a
 * withdrawal. `published` is PUBLISHED_VERSIONS, given only by tests.
 */
export function currentConsents(records: readonly ConsentRecordView[], published: Record<ConsentDocument, readonly string[]> = PUBLISHED_VERSIONS): ConsentState {
  const state = Object.fromEntries(CONSENT_DOCUMENTS.map((document) => [document, null])) as ConsentState
  const rank = (record: ConsentRecordView) => published[record.document].indexOf(record.version)
  for (const record of records) {
    if (record.granted && rank(record) < 0) continue
    const current = state[record.document]
    const byVersion = current && (REQUIRED_DOCUMENTS as readonly ConsentDocument[]).includes(record.document) ? rank(record) - rank(current) : 0
    if (!current || byVersion > 0 || (byVersion === 0 && later(record, current))) state[record.document] = record
  }
  return state
}

/** Why a new record is refused, if it is: withdrawing the terms or the privacy policy (delete the account instead). */
export function consentChangeProblem({ document, granted }: { document: ConsentDocument; granted: boolean }): string | undefined {
  if (!granted && (REQUIRED_DOCUMENTS as readonly ConsentDocument[]).includes(document)) return WITHDRAW_REQUIRES_DELETION
  return undefined
}

/**
 * A cookie-policy record's categories: as sent when granted (missing ones off), all off when
 * withdrawn; null for the other documents, which have none.
 */
export function recordedCategories(document: ConsentDocument, granted: boolean, sent: Partial<CookieCategories> | undefined): CookieCategories | null {
  if (document !== 'cookies') return null
  if (!granted) return { preferences: false, analytics: false, marketing: false }
  return { preferences: sent?.preferences === true, analytics: sent?.analytics === true, marketing: sent?.marketing === true }
}

/** A record as the API answers it (docs/product.md §3). */
export function serializeConsentRecord(record: ConsentRecordView) {
  return {
    id: record.id,
    document: record.document,
    version: record.version,
    granted: record.granted,
    source: record.source,
    categories: record.categories,
    recorded_at: record.recordedAt.toISOString(),
  }
}

/** The current state per document as the API answers it. */
export function serializeConsentState(state: ConsentState) {
  return Object.fromEntries(CONSENT_DOCUMENTS.map((document) => [document, state[document] && serializeConsentRecord(state[document])])) as Record<
    ConsentDocument,
    ReturnType<typeof serializeConsentRecord> | null
  >
}

import { CONSENT_DOCUMENTS, type ConsentDocument, type ConsentSource, type CookieCategories } from '#server/db/schema.ts'

/**
 * The consent record's rules (docs/product.md §4, decision 0060), pure: what a document's current
 * state is, which changes are refused, and the versions a registration consents to.
 */

/**
 * The terms and the privacy policy in force, as the app shows them (app/i18n/legal-documents.ts):
 * a registration with `accept_terms` records these. Bumped together with the app's (a test
 * compares them).
 */
export const SIGNUP_DOCUMENT_VERSIONS = { terms: '1.0', privacy: '1.0' } as const

/** A document's version as the app sends it: a short dotted number ("1.0", "2", "1.2.3"). */
export const VERSION_PATTERN = /^\d{1,3}(?:\.\d{1,3}){0,2}$/
export const VERSION_MESSAGE = 'Enter a document version such as "1.0".'

/** The sources a caller may name; "signup" is the registration's own. */
export const CLIENT_SOURCES = ['settings', 'cookie-banner'] as const satisfies readonly ConsentSource[]

/** Documents using the account requires: withdrawing them is closing the account (decision 0060). */
export const REQUIRED_DOCUMENTS = ['terms', 'privacy'] as const satisfies readonly ConsentDocument[]
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

export type ConsentState = Record<ConsentDocument, ConsentRecordView | null>

/**
 * Each document's current state: its latest record (by time, then id), or null when none was ever
 * recorded (an account made before the record existed, a marketing opt-in never asked).
 */
export function currentConsents(records: readonly ConsentRecordView[]): ConsentState {
  const state = Object.fromEntries(CONSENT_DOCUMENTS.map((document) => [document, null])) as ConsentState
  for (const record of records) {
    const current = state[record.document]
    if (!current || record.recordedAt.getTime() > current.recordedAt.getTime() || (record.recordedAt.getTime() === current.recordedAt.getTime() && record.id > current.id)) {
      state[record.document] = record
    }
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

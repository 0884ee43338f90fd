/**
 * The retention periods of the privacy policy (docs/product.md §9, decision 0060), pure, every date
 * from an explicit instant: when an account counts as inactive, what the daily job removes, and
 * until when what a deletion keeps is kept.
 */

/** Account data: up to 5 years after the account's last activity. */
const ACCOUNT_INACTIVITY_YEARS = 5
/** Marketing data: until the opt-in is withdrawn, plus 2 years. */
const MARKETING_AFTER_WITHDRAWAL_YEARS = 2
/** Technical logs (sign-in sessions, reset links, e-mails sent, payment events): 12 months. */
const TECHNICAL_LOG_MONTHS = 12
/** Payment records: the tax authority may review a year's records for 5 years from the year after it (CTN art. 173). */
const TAX_RECORD_YEARS = 5
/** The consent record of a closed account: kept as proof of consent (LGPD art. 8 §2) as long as account data is. */
const CONSENT_PROOF_YEARS = ACCOUNT_INACTIVITY_YEARS

/**
 * `instant` moved by whole calendar months in UTC (negative: back). A day the target month lacks
 * rolls over as JavaScript's Date does (29 February plus a year is 1 March).
 */
export function addMonths(instant: number, months: number): number {
  const date = new Date(instant)
  date.setUTCMonth(date.getUTCMonth() + months)
  return date.getTime()
}

export const addYears = (instant: number, years: number) => addMonths(instant, years * 12)

/** The UTC date (YYYY-MM-DD) of an instant. */
const dateOf = (instant: number) => new Date(instant).toISOString().slice(0, 10)

/** What the daily job removes or anonymises as of `now`: everything strictly before these instants. */
type RetentionCutoffs = {
  /** Accounts whose last activity is before this are anonymised. */
  inactiveBefore: number
  /** Technical logs that ended before this are deleted. */
  technicalLogsBefore: number
  /** A marketing opt-in withdrawn before this: its records are deleted. */
  marketingWithdrawnBefore: number
  /** A closed account's consent records, closed before this, are deleted. */
  closedAccountsBefore: number
}

export function retentionCutoffs(now: number): RetentionCutoffs {
  return {
    inactiveBefore: addYears(now, -ACCOUNT_INACTIVITY_YEARS),
    technicalLogsBefore: addMonths(now, -TECHNICAL_LOG_MONTHS),
    marketingWithdrawnBefore: addYears(now, -MARKETING_AFTER_WITHDRAWAL_YEARS),
    closedAccountsBefore: addYears(now, -CONSENT_PROOF_YEARS),
  }
}

/** An account's last activity: its last sign-in, else when it was made. */
export const lastActivity = ({ lastLogin, dateJoined }: { lastLogin: Date | null; dateJoined: Date }) => (lastLogin ?? dateJoined).getTime()

/** True when the account has had no activity for the retention period of account data. */
export const isInactive = (account: { lastLogin: Date | null; dateJoined: Date }, now: number) => lastActivity(account) < retentionCutoffs(now).inactiveBefore

/** The last day a payment of that instant's year is kept: 31 December, 5 years after its year. */
export function taxRecordsKeptUntil(paidAt: number): string {
  return `${new Date(paidAt).getUTCFullYear() + TAX_RECORD_YEARS}-12-31`
}

/** What a deletion keeps, and until when (a date), or `null`: kept anonymised, no longer anyone's. */
export type KeptItem = { what: 'payment_records' | 'consent_records' | 'marketing_records' | 'technical_logs' | 'anonymised_records' | 'conversations'; basis: string; until: string | null; count?: number }

/** What is removed at once (the export has every item of it, docs/product.md §2). */
export const REMOVED_NOW = [
  'profile',
  'photo',
  'assessments',
  'shares',
  'program',
  'habits',
  'course_progress',
  'cart',
  'calendar',
  'live_class_seats',
  'appointment_notes',
  'care_links',
  'sessions',
  'notification_settings',
  'message_attachments',
  'push_subscriptions',
] as const

/**
 * What deleting the account now keeps, and until when: the payment records for the tax law (from
 * the latest payment), the consent record as proof (5 years), the marketing records for 2 years
 * after the opt-in ends (the deletion withdraws it), the technical logs 12 months, and the
 * anonymised appointments and account without end (they no longer tell who it was).
 */
export function keptAfterDeletion({ now, latestPaymentAt, hasMarketingRecords, conversations = 0 }: { now: number; latestPaymentAt: number | null; hasMarketingRecords: boolean; conversations?: number }): KeptItem[] {
  const kept: KeptItem[] = []
  if (latestPaymentAt !== null) kept.push({ what: 'payment_records', basis: 'tax_law', until: taxRecordsKeptUntil(latestPaymentAt) })
  kept.push({ what: 'consent_records', basis: 'proof_of_consent', until: dateOf(addYears(now, CONSENT_PROOF_YEARS)) })
  if (hasMarketingRecords) kept.push({ what: 'marketing_records', basis: 'marketing_retention', until: dateOf(addYears(now, MARKETING_AFTER_WITHDRAWAL_YEARS)) })
  kept.push({ what: 'technical_logs', basis: 'security', until: dateOf(addMonths(now, TECHNICAL_LOG_MONTHS)) })
  kept.push({ what: 'anonymised_records', basis: 'anonymised', until: null })
  // The messages one wrote stay in the other person's conversations, signed "Conta excluída" (decision 0085).
  if (conversations > 0) kept.push({ what: 'conversations', basis: 'other_party', until: null, count: conversations })
  return kept
}

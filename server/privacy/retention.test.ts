import { describe, expect, it } from 'vitest'
import { addMonths, addYears, isInactive, keptAfterDeletion, lastActivity, retentionCutoffs, taxRecordsKeptUntil } from '#server/privacy/retention.ts'

const NOW = Date.parse('2026-11-27T12:00:00Z')

describe('retention dates', () => {
  it('moves by calendar months and years in UTC', () => {
    expect(new Date(addMonths(NOW, -12)).toISOString()).toBe('2025-11-27T12:00:00.000Z')
    expect(new Date(addYears(NOW, 2)).toISOString()).toBe('2028-11-27T12:00:00.000Z')
    expect(new Date(addYears(Date.parse('2028-02-29T00:00:00Z'), 1)).toISOString()).toBe('2029-03-01T00:00:00.000Z')
  })

  it('gives the daily job its cutoffs: 5 years of inactivity, 12 months of logs, 2 years after a marketing withdrawal, 5 years after closing', () => {
    const cutoffs = retentionCutoffs(NOW)
    expect(new Date(cutoffs.inactiveBefore).toISOString()).toBe('2021-11-27T12:00:00.000Z')
    expect(new Date(cutoffs.technicalLogsBefore).toISOString()).toBe('2025-11-27T12:00:00.000Z')
    expect(new Date(cutoffs.marketingWithdrawnBefore).toISOString()).toBe('2024-11-27T12:00:00.000Z')
    expect(new Date(cutoffs.closedAccountsBefore).toISOString()).toBe('2021-11-27T12:00:00.000Z')
  })

  it('counts inactivity from the last sign-in, else from sign-up, strictly over 5 years', () => {
    const joined = new Date('2020-01-01T00:00:00Z')
    expect(lastActivity({ lastLogin: null, dateJoined: joined })).toBe(joined.getTime())
    expect(isInactive({ lastLogin: null, dateJoined: joined }, NOW)).toBe(true)
    expect(isInactive({ lastLogin: new Date('2022-06-01T00:00:00Z'), dateJoined: joined }, NOW)).toBe(false)
    expect(isInactive({ lastLogin: new Date('2021-11-27T12:00:00Z'), dateJoined: joined }, NOW)).toBe(false)
    expect(isInactive({ lastLogin: new Date('2021-11-27T11:59:59Z'), dateJoined: joined }, NOW)).toBe(true)
  })

  it('keeps a payment record until 31 December of the fifth year after its year (CTN art. 173)', () => {
    expect(taxRecordsKeptUntil(Date.parse('2026-01-02T00:00:00Z'))).toBe('2031-12-31')
    expect(taxRecordsKeptUntil(Date.parse('2026-12-31T23:00:00Z'))).toBe('2031-12-31')
  })

  it("says what a deletion keeps and until when, from the user's own data", () => {
    expect(keptAfterDeletion({ now: NOW, latestPaymentAt: Date.parse('2025-03-10T00:00:00Z'), hasMarketingRecords: true })).toEqual([
      { what: 'payment_records', basis: 'tax_law', until: '2030-12-31' },
      { what: 'consent_records', basis: 'proof_of_consent', until: '2031-11-27' },
      { what: 'marketing_records', basis: 'marketing_retention', until: '2028-11-27' },
      { what: 'technical_logs', basis: 'security', until: '2027-11-27' },
      { what: 'anonymised_records', basis: 'anonymised', until: null },
    ])
    // Nothing bought, no marketing opt-in: neither is listed.
    expect(keptAfterDeletion({ now: NOW, latestPaymentAt: null, hasMarketingRecords: false }).map((item) => item.what)).toEqual(['consent_records', 'technical_logs', 'anonymised_records'])
  })
})

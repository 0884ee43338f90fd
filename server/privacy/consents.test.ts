import { describe, expect, it } from 'vitest'
import { legalDocuments } from '#app/i18n/legal-documents.ts'
import { consentChangeProblem, currentConsents, recordedCategories, SIGNUP_DOCUMENT_VERSIONS, VERSION_PATTERN, WITHDRAW_REQUIRES_DELETION, type ConsentRecordView } from './consents'

const record = (over: Partial<ConsentRecordView>): ConsentRecordView => ({
  id: 1,
  document: 'terms',
  version: '1.0',
  granted: true,
  source: 'signup',
  categories: null,
  recordedAt: new Date('2026-01-01T12:00:00Z'),
  ...over,
})

describe('the current state of each document', () => {
  it('is the latest record by time, then by id; null for a document never recorded', () => {
    const state = currentConsents([
      record({ id: 1, document: 'marketing', granted: true, recordedAt: new Date('2026-01-01T12:00:00Z') }),
      record({ id: 5, document: 'marketing', granted: false, recordedAt: new Date('2026-03-01T12:00:00Z') }),
      record({ id: 3, document: 'marketing', granted: true, recordedAt: new Date('2026-02-01T12:00:00Z') }),
      record({ id: 7, document: 'cookies', granted: true, recordedAt: new Date('2026-04-01T12:00:00Z') }),
      record({ id: 8, document: 'cookies', granted: false, recordedAt: new Date('2026-04-01T12:00:00Z') }),
    ])
    expect(state.marketing).toMatchObject({ id: 5, granted: false })
    expect(state.cookies).toMatchObject({ id: 8, granted: false })
    expect(state.terms).toBeNull()
    expect(state.privacy).toBeNull()
  })
})

describe('what may be recorded', () => {
  it('refuses withdrawing the terms or the privacy policy (the account runs on them): delete the account instead', () => {
    expect(consentChangeProblem({ document: 'terms', granted: false })).toBe(WITHDRAW_REQUIRES_DELETION)
    expect(consentChangeProblem({ document: 'privacy', granted: false })).toBe(WITHDRAW_REQUIRES_DELETION)
    expect(consentChangeProblem({ document: 'terms', granted: true })).toBeUndefined()
    expect(consentChangeProblem({ document: 'marketing', granted: false })).toBeUndefined()
    expect(consentChangeProblem({ document: 'cookies', granted: false })).toBeUndefined()
  })

  it('takes a short dotted version only', () => {
    for (const version of ['1.0', '2', '1.2.3', '10.0']) expect(VERSION_PATTERN.test(version)).toBe(true)
    for (const version of ['', 'v1', '1.0.0.0', '1.', '1.0-beta', '1234', ' 1.0']) expect(VERSION_PATTERN.test(version)).toBe(false)
  })

  it('keeps cookie categories as sent when granted, all off when withdrawn, none for other documents', () => {
    expect(recordedCategories('cookies', true, { analytics: true })).toEqual({ preferences: false, analytics: true, marketing: false })
    expect(recordedCategories('cookies', false, { analytics: true, preferences: true, marketing: true })).toEqual({ preferences: false, analytics: false, marketing: false })
    expect(recordedCategories('marketing', true, { analytics: true })).toBeNull()
  })

  it("records at registration the versions the app shows (app/i18n/legal-documents.ts)", () => {
    expect(SIGNUP_DOCUMENT_VERSIONS).toEqual({ terms: legalDocuments.terms.version, privacy: legalDocuments.privacy.version })
  })
})

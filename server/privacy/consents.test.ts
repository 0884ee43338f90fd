import { describe, expect, it } from 'vitest'
import { legalDocuments } from '#app/i18n/legal-documents.ts'
import {
  consentChangeProblem,
  currentConsents,
  PUBLISHED_VERSIONS,
  recordedCategories,
  SIGNUP_DOCUMENT_VERSIONS,
  unpublishedVersionMessage,
  VERSION_PATTERN,
  WITHDRAW_REQUIRES_DELETION,
  type ConsentRecordView,
} from '#server/privacy/consents.ts'

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

  it('leaves out a grant of a version never published (a withdrawal counts whatever version it names)', () => {
    const state = currentConsents([
      record({ id: 1, document: 'terms', version: '1.0', recordedAt: new Date('2026-01-01T12:00:00Z') }),
      record({ id: 2, document: 'terms', version: '99.9', recordedAt: new Date('2026-02-01T12:00:00Z') }),
      record({ id: 3, document: 'privacy', version: '99.9' }),
      record({ id: 4, document: 'marketing', version: '1.0', granted: true, recordedAt: new Date('2026-01-01T12:00:00Z') }),
      record({ id: 5, document: 'marketing', version: '99.9', granted: false, recordedAt: new Date('2026-02-01T12:00:00Z') }),
    ])
    expect(state.terms).toMatchObject({ id: 1 })
    expect(state.privacy).toBeNull()
    expect(state.marketing).toMatchObject({ id: 5, granted: false })
  })

  it('is, for the terms and the privacy policy, the newest version accepted, whatever was accepted after it', () => {
    const published = { ...PUBLISHED_VERSIONS, terms: ['1.0', '1.1', '2.0'] }
    const state = currentConsents(
      [
        record({ id: 1, version: '1.0', recordedAt: new Date('2026-01-01T12:00:00Z') }),
        record({ id: 2, version: '2.0', recordedAt: new Date('2026-02-01T12:00:00Z') }),
        // A page older than 2.0, submitted later: the user has still accepted 2.0.
        record({ id: 3, version: '1.1', recordedAt: new Date('2026-03-01T12:00:00Z') }),
        record({ id: 4, version: '2.0', recordedAt: new Date('2026-02-01T12:00:00Z') }),
      ],
      published,
    )
    expect(state.terms).toMatchObject({ id: 4, version: '2.0' })
    // The documents one withdraws keep the latest act: new categories, a withdrawal.
    const cookies = currentConsents(
      [
        record({ id: 1, document: 'cookies', version: '2.0', categories: { preferences: true, analytics: true, marketing: true }, recordedAt: new Date('2026-01-01T12:00:00Z') }),
        record({ id: 2, document: 'cookies', version: '1.0', categories: { preferences: false, analytics: false, marketing: false }, recordedAt: new Date('2026-02-01T12:00:00Z') }),
      ],
      { ...PUBLISHED_VERSIONS, cookies: ['1.0', '2.0'] },
    )
    expect(cookies.cookies).toMatchObject({ id: 2 })
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

  it('takes the published versions of each document only, the newest being the one the app shows', () => {
    expect(unpublishedVersionMessage('terms', '1.0')).toBeUndefined()
    expect(unpublishedVersionMessage('marketing', '1.0')).toBeUndefined()
    expect(unpublishedVersionMessage('terms', '99.9')).toBe('"99.9" is not a published version of this document.')
    expect(unpublishedVersionMessage('cookies', '1.1')).toBeDefined()
    const newest = (document: keyof typeof PUBLISHED_VERSIONS) => PUBLISHED_VERSIONS[document].at(-1)
    expect({ terms: newest('terms'), privacy: newest('privacy'), cookies: newest('cookies') }).toEqual({
      terms: legalDocuments.terms.version,
      privacy: legalDocuments.privacy.version,
      cookies: legalDocuments.cookies.version,
    })
    // The marketing opt-in is to the privacy policy, which describes the marketing e-mail.
    expect(PUBLISHED_VERSIONS.marketing).toEqual(PUBLISHED_VERSIONS.privacy)
  })
})

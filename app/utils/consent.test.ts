import { describe, expect, test } from 'vitest'
import { COOKIE_POLICY_VERSION } from '#app/i18n/legal-documents.ts'
import { consentCookieHeader, consentFor, parseConsent, serializeConsent } from './consent'

const now = new Date('2026-11-22T10:00:00.000Z')

describe('consentFor', () => {
  test('accept all grants every category', () => {
    expect(consentFor({ kind: 'all' }, now)).toEqual({ necessary: true, preferences: true, analytics: true, marketing: true, consented: true, timestamp: now.toISOString(), version: COOKIE_POLICY_VERSION })
  })
  test('necessary only grants nothing optional', () => {
    expect(consentFor({ kind: 'necessary' }, now)).toMatchObject({ necessary: true, preferences: false, analytics: false, marketing: false, consented: true })
  })
  test('custom grants what was chosen', () => {
    expect(consentFor({ kind: 'custom', categories: ['analytics'] }, now)).toMatchObject({ preferences: false, analytics: true, marketing: false, consented: true })
  })
  test('closing is not consent', () => {
    expect(consentFor({ kind: 'close' }, now)).toMatchObject({ necessary: true, analytics: false, consented: false })
  })
})

describe('parseConsent', () => {
  test('reads back what was serialised, among other cookies', () => {
    const consent = consentFor({ kind: 'custom', categories: ['preferences', 'marketing'] }, now)
    expect(parseConsent(`lng=pt; innera_consent=${serializeConsent(consent)}; other=1`)).toEqual(consent)
  })
  test('no cookie, garbage, a switched-off necessary or an older policy are no consent', () => {
    expect(parseConsent(null)).toBeNull()
    expect(parseConsent('innera_consent=%7Bnot-json')).toBeNull()
    expect(parseConsent(`innera_consent=${encodeURIComponent(JSON.stringify({ ...consentFor({ kind: 'all' }, now), necessary: false }))}`)).toBeNull()
    expect(parseConsent(`innera_consent=${encodeURIComponent(JSON.stringify({ ...consentFor({ kind: 'all' }, now), version: '0.9' }))}`)).toBeNull()
  })
})

describe('consentCookieHeader', () => {
  test('a choice lasts a year; closing lasts the browser session', () => {
    expect(consentCookieHeader(consentFor({ kind: 'all' }, now), { secure: true })).toMatch(/Max-Age=31536000.*Secure/)
    expect(consentCookieHeader(consentFor({ kind: 'close' }, now), { secure: false })).not.toContain('Max-Age')
  })
})

import { describe, expect, test } from 'vitest'
import { COOKIE_POLICY_VERSION, formatEffectiveDate, legalDocuments } from './legal-documents.ts'

describe('legal documents', () => {
  test('privacy, terms and cookies are version 1.0 of 18 March 2025', () => {
    for (const document of Object.values(legalDocuments)) {
      expect(document).toEqual({ version: '1.0', effectiveDate: '2025-03-18' })
    }
    expect(legalDocuments.cookies.version).toBe(COOKIE_POLICY_VERSION)
  })

  test.each([
    ['pt', '18 de março de 2025'],
    ['en', '18 March 2025'],
    ['es', '18 de marzo de 2025'],
  ] as const)('the effective date reads naturally in %s', (language, expected) => {
    expect(formatEffectiveDate('2025-03-18', language)).toBe(expected)
  })

  test('the date does not move with the server time zone', () => {
    expect(formatEffectiveDate('2025-01-01', 'en')).toBe('1 January 2025')
  })

  test('refuses a malformed date', () => {
    expect(() => formatEffectiveDate('18/03/2025', 'pt')).toThrow('Not an ISO date')
  })
})

import { describe, expect, test } from 'vitest'
import { isDateInRange } from './date-range.ts'

describe('isDateInRange', () => {
  test('real dates of the years 2000-2100, edges included', () => {
    for (const date of ['2000-01-01', '2026-03-02', '2024-02-29', '2100-12-31']) expect(isDateInRange(date)).toBe(true)
  })

  test('not dates beyond them (the security test’s weeks), nor dates that do not exist or are not dates', () => {
    for (const value of ['0999-01-04', '9999-12-27', '1999-12-31', '2101-01-01', '2023-02-29', '2026-13-01', '02/03/2026', '+010000-01-01', '', null, 20260302]) {
      expect(isDateInRange(value)).toBe(false)
    }
  })

  test('other bounds when told (birth dates)', () => {
    expect(isDateInRange('1950-06-01', { earliest: '1900-01-01', latest: '2026-03-02' })).toBe(true)
    expect(isDateInRange('1899-12-31', { earliest: '1900-01-01', latest: '2026-03-02' })).toBe(false)
    expect(isDateInRange('2026-03-03', { earliest: '1900-01-01', latest: '2026-03-02' })).toBe(false)
  })
})

import { describe, expect, test } from 'vitest'
import { addDays, weekdayIndex } from './calendar-dates'
import { formatAmount, heatMapGrid, heatMapTally, shortDate, weekdayNames } from './habits'

describe('habit dates', () => {
  test('days move across months and years; weeks start on Monday', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01')
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31')
    expect(weekdayIndex('2026-11-23')).toBe(0)
    expect(weekdayIndex('2026-11-29')).toBe(6)
  })

  test("dates and numbers in the reader's language", () => {
    expect(shortDate('2026-11-25', 'pt')).toMatch(/qua\.?,? 25 de nov/)
    expect(shortDate('2026-11-25', 'en')).toMatch(/Wed, Nov 25/)
    expect(weekdayNames('es')[0]).toMatch(/^lun/)
    expect(formatAmount(2.5, 'pt')).toBe('2,5')
    expect(formatAmount(2.5, 'en')).toBe('2.5')
  })
})

describe('heat map grid', () => {
  const days = (from: string, count: number) => Array.from({ length: count }, (_, index) => ({ date: addDays(from, index), level: index % 5, status: index % 3 === 0 ? 'done' : index % 3 === 1 ? 'skipped' : 'none' }))

  test('weeks are columns, Monday first; the first column starts on the first day', () => {
    // 2026-05-28 is a Thursday: row 3 of the first column.
    const grid = heatMapGrid(days('2026-05-28', 182), 'pt')
    expect(grid.cells[0]).toMatchObject({ column: 0, row: 3 })
    expect(grid.cells[4]).toMatchObject({ date: '2026-06-01', column: 1, row: 0 })
    expect(grid.columns).toBe(Math.ceil((182 + 3) / 7))
    expect(grid.months.map((month) => month.label).length).toBeGreaterThanOrEqual(6)
    // Labels never crowd each other.
    for (let index = 1; index < grid.months.length; index++) expect(grid.months[index]!.column - grid.months[index - 1]!.column).toBeGreaterThanOrEqual(3)
  })

  test('the tally counts done, skipped and missed days', () => {
    expect(heatMapTally([
      { status: 'done', level: 4 },
      { status: 'skipped', level: 0 },
      { status: 'not_done', level: 0 },
      { status: 'none', level: 2 },
      { status: 'not_due', level: 0 },
      { status: 'future', level: 0 },
    ])).toEqual({ done: 1, skipped: 1, missed: 2 })
  })
})

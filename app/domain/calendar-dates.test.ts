import { describe, expect, test } from 'vitest'
import { addDays, dateAt, daysBetween, mondayOf, weekdayIndex } from './calendar-dates'

// The formatter zones from the far west to the far east of the map.
const ZONES = ['Etc/GMT+12', 'Pacific/Honolulu', 'America/Los_Angeles', 'America/New_York', 'America/Sao_Paulo', 'UTC', 'Europe/Lisbon', 'Asia/Kolkata', 'Asia/Tokyo', 'Asia/Magadan']
const dayOfMonth = (instant: Date, timeZone?: string) => new Intl.DateTimeFormat('en', { day: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(instant)

describe('calendar dates', () => {
  test('days move across months, years and leap days', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01')
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2026-03-02', -7)).toBe('2026-02-23')
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364)
    expect(daysBetween('2026-03-01', '2026-02-28')).toBe(-1)
  })

  test('no DST change moves a day: the US (March, November) and Brazil (its last ones, 2018-2019)', () => {
    for (const [before, after] of [['2026-03-07', '2026-03-09'], ['2026-10-31', '2026-11-02'], ['2018-11-03', '2018-11-05'], ['2019-02-16', '2019-02-18']] as const) {
      expect(addDays(before, 2)).toBe(after)
      expect(addDays(after, -2)).toBe(before)
      expect(daysBetween(before, after)).toBe(2)
    }
  })

  test('weeks start on Monday', () => {
    expect(weekdayIndex('2026-11-23')).toBe(0)
    expect(weekdayIndex('2026-11-29')).toBe(6)
    expect(mondayOf('2026-11-29')).toBe('2026-11-23')
    expect(mondayOf('2027-01-01')).toBe('2026-12-28')
  })

  test("formatted with timeZone 'UTC', the date is its own day whatever the process's zone", () => {
    expect(dayOfMonth(dateAt('2026-03-01'), 'UTC')).toBe('1')
    // The process's own zone, whatever the machine has (the default formatter a page might forget to set).
    const offsetHours = -dateAt('2026-03-01').getTimezoneOffset() / 60
    if (offsetHours < 12) expect(dayOfMonth(dateAt('2026-03-01'))).toBe('1')
  })

  test('noon, not midnight: a formatter left in a zone from UTC-12 to UTC+11 still shows the day', () => {
    for (const zone of ZONES) expect(dayOfMonth(dateAt('2026-03-01'), zone), zone).toBe('1')
    // Midnight would be the day before everywhere west of Greenwich (São Paulo shows February 28th).
    expect(dayOfMonth(new Date('2026-03-01T00:00:00Z'), 'America/Sao_Paulo')).toBe('28')
    // UTC+12 and beyond (New Zealand's summer, Kiribati's +14) are past noon's reach: the formatters name timeZone 'UTC', which is why.
    for (const zone of ['Pacific/Auckland', 'Pacific/Kiritimati']) expect(dayOfMonth(dateAt('2026-03-01'), zone), zone).toBe('2')
  })
})

import { describe, expect, it } from 'vitest'
import {
  addDays,
  clockMinutes,
  daysBetween,
  localDateOf,
  offsetAt,
  saoPauloDate,
  startOfLocalDay,
  storedClockMinutes,
  utcDateOf,
  wallClockOf,
  wallTimeResolver,
  weekdayOf,
} from '#server/dates.ts'

const at = (iso: string) => Date.parse(iso)
const iso = (instant: number) => new Date(instant).toISOString()

describe('clock times', () => {
  it('parses HH:MM, with 24:00 only as an end', () => {
    expect(clockMinutes('00:00')).toBe(0)
    expect(clockMinutes('23:59')).toBe(1439)
    expect(clockMinutes('24:00')).toBeUndefined()
    expect(clockMinutes('24:00', { allowEndOfDay: true })).toBe(1440)
    for (const bad of ['8:00', '08:60', '25:00', '08:00:00', ' 08:00', '']) expect(clockMinutes(bad)).toBeUndefined()
  })

  it('reads a stored time with or without seconds', () => {
    expect(storedClockMinutes('09:30')).toBe(570)
    expect(storedClockMinutes('09:30:00')).toBe(570)
    expect(storedClockMinutes('23:59:59')).toBe(1439)
  })

  it('tells the wall clock of an instant in a zone', () => {
    expect(wallClockOf(at('2026-03-02T02:59:00Z'), 'America/Sao_Paulo')).toBe('23:59')
    expect(wallClockOf(at('2026-03-02T03:00:00Z'), 'America/Sao_Paulo')).toBe('00:00')
    expect(wallClockOf(at('2026-07-01T12:05:00Z'), 'Europe/Lisbon')).toBe('13:05')
  })
})

describe('dates', () => {
  it('names weekdays and local dates', () => {
    expect(weekdayOf('2026-03-02')).toBe('monday')
    expect(weekdayOf('2026-03-08')).toBe('sunday')
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(localDateOf(at('2026-03-02T02:59:00Z'), 'America/Sao_Paulo')).toBe('2026-03-01')
    expect(localDateOf(at('2026-03-02T02:59:00Z'), 'Europe/Lisbon')).toBe('2026-03-02')
    expect(utcDateOf(at('2026-03-02T23:59:59.999Z'))).toBe('2026-03-02')
  })

  it('puts a check-in at 23:30 local on that local date', () => {
    expect(localDateOf(at('2026-03-03T02:30:00Z'), 'America/Sao_Paulo')).toBe('2026-03-02')
    // New York: 23:30 EST the night before spring forward, 23:30 EDT on its day.
    expect(localDateOf(at('2026-03-08T04:30:00Z'), 'America/New_York')).toBe('2026-03-07')
    expect(localDateOf(at('2026-03-09T03:30:00Z'), 'America/New_York')).toBe('2026-03-08')
    // Fall back: 23:30 EDT before, 23:30 EST on its day.
    expect(localDateOf(at('2026-11-01T03:30:00Z'), 'America/New_York')).toBe('2026-10-31')
    expect(localDateOf(at('2026-11-02T04:30:00Z'), 'America/New_York')).toBe('2026-11-01')
    // Lisbon: 23:30 WET before, 23:30 WEST on 2026-03-29.
    expect(localDateOf(at('2026-03-28T23:30:00Z'), 'Europe/Lisbon')).toBe('2026-03-28')
    expect(localDateOf(at('2026-03-29T22:30:00Z'), 'Europe/Lisbon')).toBe('2026-03-29')
  })

  it('takes the calendar date in America/Sao_Paulo (UTC-3)', () => {
    expect(saoPauloDate(Date.UTC(2025, 2, 18, 2, 59))).toBe('2025-03-17')
    expect(saoPauloDate(Date.UTC(2025, 2, 18, 3, 0))).toBe('2025-03-18')
  })

  it('adds days across months and years', () => {
    expect(addDays('2025-03-18', 7 * 8 - 1)).toBe('2025-05-12')
    expect(addDays('2025-12-29', 7)).toBe('2026-01-05')
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29')
  })

  it('adds whole days as the calendar does (what setUTCDate gives)', () => {
    const byCalendar = (date: string, days: number) => {
      const day = new Date(`${date}T00:00:00Z`)
      day.setUTCDate(day.getUTCDate() + days)
      return day.toISOString().slice(0, 10)
    }
    for (const date of ['2000-01-01', '2024-02-28', '2026-03-08', '2026-10-25', '2100-12-31']) {
      for (let days = -800; days <= 800; days += 7) expect(addDays(date, days)).toBe(byCalendar(date, days))
    }
  })

  it('counts the days between two dates', () => {
    expect(daysBetween('2025-03-18', '2025-03-18')).toBe(0)
    expect(daysBetween('2025-03-18', '2025-03-25')).toBe(7)
    expect(daysBetween('2025-03-25', '2025-03-18')).toBe(-7)
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2)
  })
})

describe('local days', () => {
  it('finds the start of a local day, also when midnight falls in a gap', () => {
    expect(iso(startOfLocalDay('2026-03-02', 'America/Sao_Paulo'))).toBe('2026-03-02T03:00:00.000Z')
    // São Paulo skipped from 00:00 to 01:00 on 2018-11-04: the day began at 01:00 (UTC-2).
    expect(iso(startOfLocalDay('2018-11-04', 'America/Sao_Paulo'))).toBe('2018-11-04T03:00:00.000Z')
    // The day after the fall-back (2019-02-17 00:00 became 2019-02-16 23:00) begins once.
    expect(iso(startOfLocalDay('2019-02-17', 'America/Sao_Paulo'))).toBe('2019-02-17T03:00:00.000Z')
  })

  it('resolves wall times in a gap to nothing and repeated ones to the first', () => {
    // New York springs forward at 02:00 on 2026-03-08 and falls back at 02:00 on 2026-11-01.
    expect(wallTimeResolver('2026-03-08', 'America/New_York')(2 * 60 + 30)).toBeUndefined()
    expect(iso(wallTimeResolver('2026-11-01', 'America/New_York')(60 + 30)!)).toBe('2026-11-01T05:30:00.000Z')
  })
})

describe('offsets', () => {
  it('gives the same offset the first time and every later time, on both sides of a change and past the remembered bound', () => {
    const zones = ['America/New_York', 'America/Sao_Paulo', 'Asia/Kolkata', 'UTC']
    // New York's spring change (2026-03-08 07:00 UTC) and every half hour of 5,000 after it: more than a zone remembers.
    const instants = Array.from({ length: 5000 }, (_, index) => at('2026-03-08T06:00:00Z') + index * 30 * 60_000)
    const expected = (zone: string, instant: number) => {
      const wall = new Date(instant).toLocaleString('sv-SE', { timeZone: zone }).replace(' ', 'T') + 'Z'
      return Date.parse(wall) - Math.floor(instant / 60_000) * 60_000
    }
    for (let round = 0; round < 2; round += 1) {
      for (const zone of zones) for (const instant of instants) expect(offsetAt(zone, instant)).toBe(expected(zone, instant))
    }
    expect(offsetAt('America/New_York', at('2026-03-08T06:59:00Z'))).toBe(-5 * 3600_000)
    expect(offsetAt('America/New_York', at('2026-03-08T07:00:00Z'))).toBe(-4 * 3600_000)
    expect(offsetAt('Asia/Kolkata', at('2026-03-08T07:00:00Z'))).toBe(5.5 * 3600_000)
  })
})

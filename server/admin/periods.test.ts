import { describe, expect, it } from 'vitest'
import { bucketKindFor, bucketStarts, END_BEFORE_START, PERIOD_TOO_LONG, periodOf, rangeOf, rangeProblems } from '#server/admin/periods.ts'

const at = (iso: string) => Date.parse(iso)
const iso = (instant: number) => new Date(instant).toISOString()

describe('bucket kinds', () => {
  it('tells a period by day up to 62 days, by week up to 183, by month beyond', () => {
    expect(bucketKindFor(1)).toBe('day')
    expect(bucketKindFor(62)).toBe('day')
    expect(bucketKindFor(63)).toBe('week')
    expect(bucketKindFor(183)).toBe('week')
    expect(bucketKindFor(184)).toBe('month')
    expect(bucketKindFor(366)).toBe('month')
  })

  it('starts weeks on Mondays and months on the 1st, the first bucket at the period’s start', () => {
    // 2025-03-05 is a Wednesday.
    expect(bucketStarts('2025-03-05', '2025-03-24', 'week')).toEqual(['2025-03-05', '2025-03-10', '2025-03-17', '2025-03-24'])
    expect(bucketStarts('2025-03-10', '2025-03-16', 'week')).toEqual(['2025-03-10'])
    expect(bucketStarts('2024-11-15', '2025-02-01', 'month')).toEqual(['2024-11-15', '2024-12-01', '2025-01-01', '2025-02-01'])
    expect(bucketStarts('2025-02-27', '2025-03-02', 'day')).toEqual(['2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02'])
  })
})

describe('periods in a time zone', () => {
  it('bounds São Paulo’s days at 03:00 UTC (no daylight saving since 2019)', () => {
    const period = periodOf('2025-03-01', '2025-03-03', 'America/Sao_Paulo')
    expect(period.kind).toBe('day')
    expect(iso(period.startsAt)).toBe('2025-03-01T03:00:00.000Z')
    expect(iso(period.endsAt)).toBe('2025-03-04T03:00:00.000Z')
    expect(period.buckets.map((bucket) => [bucket.start, iso(bucket.startsAt), iso(bucket.endsAt)])).toEqual([
      ['2025-03-01', '2025-03-01T03:00:00.000Z', '2025-03-02T03:00:00.000Z'],
      ['2025-03-02', '2025-03-02T03:00:00.000Z', '2025-03-03T03:00:00.000Z'],
      ['2025-03-03', '2025-03-03T03:00:00.000Z', '2025-03-04T03:00:00.000Z'],
    ])
  })

  it('follows a zone’s own midnight: the same dates in UTC and in Lisbon', () => {
    expect(iso(periodOf('2025-07-01', '2025-07-01', 'UTC').startsAt)).toBe('2025-07-01T00:00:00.000Z')
    // Lisbon in summer is UTC+1.
    expect(iso(periodOf('2025-07-01', '2025-07-01', 'Europe/Lisbon').startsAt)).toBe('2025-06-30T23:00:00.000Z')
  })

  it('keeps days whole across daylight saving: 23 hours in New York’s spring, 25 in its autumn', () => {
    const spring = periodOf('2026-03-07', '2026-03-09', 'America/New_York')
    expect(spring.buckets.map((bucket) => (bucket.endsAt - bucket.startsAt) / 3_600_000)).toEqual([24, 23, 24])
    expect(iso(spring.buckets[2]!.startsAt)).toBe('2026-03-09T04:00:00.000Z')
    const autumn = periodOf('2026-11-01', '2026-11-01', 'America/New_York')
    expect((autumn.endsAt - autumn.startsAt) / 3_600_000).toBe(25)
  })

  it('starts a day swallowed by a gap where it begins (São Paulo, 4 November 2018: midnight never happened)', () => {
    const period = periodOf('2018-11-03', '2018-11-04', 'America/Sao_Paulo')
    // 00:00 -03 on the 3rd; on the 4th the clocks went from 23:59:59 -03 to 01:00 -02, i.e. 03:00 UTC.
    expect(period.buckets.map((bucket) => iso(bucket.startsAt))).toEqual(['2018-11-03T03:00:00.000Z', '2018-11-04T03:00:00.000Z'])
    expect(iso(period.endsAt)).toBe('2018-11-05T02:00:00.000Z')
    // The day before summer time ended (16 February 2019) had 25 hours.
    const end = periodOf('2019-02-16', '2019-02-16', 'America/Sao_Paulo')
    expect([iso(end.startsAt), iso(end.endsAt)]).toEqual(['2019-02-16T02:00:00.000Z', '2019-02-17T03:00:00.000Z'])
  })

  it('cuts a long period into weeks or months whose bounds are local midnights', () => {
    const weeks = periodOf('2025-01-01', '2025-03-31', 'America/Sao_Paulo')
    expect(weeks.kind).toBe('week')
    expect(weeks.buckets).toHaveLength(14)
    expect(weeks.buckets[0]).toEqual({ start: '2025-01-01', startsAt: at('2025-01-01T03:00:00Z'), endsAt: at('2025-01-06T03:00:00Z') })
    expect(weeks.buckets.at(-1)).toEqual({ start: '2025-03-31', startsAt: at('2025-03-31T03:00:00Z'), endsAt: at('2025-04-01T03:00:00Z') })

    const months = periodOf('2024-04-01', '2025-03-18', 'America/Sao_Paulo')
    expect(months.kind).toBe('month')
    expect(months.buckets.map((bucket) => bucket.start)).toEqual([
      '2024-04-01',
      '2024-05-01',
      '2024-06-01',
      '2024-07-01',
      '2024-08-01',
      '2024-09-01',
      '2024-10-01',
      '2024-11-01',
      '2024-12-01',
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
    ])
    expect(iso(months.endsAt)).toBe('2025-03-19T03:00:00.000Z')
  })
})

describe('the range asked for', () => {
  it('defaults to the last 30 days, today (in the zone) included', () => {
    // 01:30 UTC on the 18th is still the 17th in São Paulo.
    expect(rangeOf({}, at('2025-03-18T01:30:00Z'), 'America/Sao_Paulo')).toEqual({ from: '2025-02-16', to: '2025-03-17' })
    expect(rangeOf({}, at('2025-03-18T01:30:00Z'), 'UTC')).toEqual({ from: '2025-02-17', to: '2025-03-18' })
    expect(rangeOf({ to: '2025-01-10' }, at('2025-03-18T12:00:00Z'), 'UTC')).toEqual({ from: '2024-12-12', to: '2025-01-10' })
    expect(rangeOf({ from: '2025-03-01' }, at('2025-03-18T12:00:00Z'), 'UTC')).toEqual({ from: '2025-03-01', to: '2025-03-18' })
  })

  it('refuses an end before the start and more than 366 days', () => {
    expect(rangeProblems({ from: '2025-03-02', to: '2025-03-01' })).toEqual({ to: [END_BEFORE_START] })
    expect(rangeProblems({ from: '2025-03-01', to: '2025-03-01' })).toBeUndefined()
    expect(rangeProblems({ from: '2024-01-01', to: '2024-12-31' })).toBeUndefined()
    expect(rangeProblems({ from: '2024-01-01', to: '2025-01-01' })).toEqual({ to: [PERIOD_TOO_LONG] })
  })
})

import { describe, expect, it } from 'vitest'
import { byLocalDate, timeUntil, todayIn, weekToShow } from './agenda'
import { addDays, mondayOf } from './calendar-dates'

describe('the professional week', () => {
  it('finds Mondays and steps over month, year and DST changes by calendar days', () => {
    expect(mondayOf('2026-11-23')).toBe('2026-11-23')
    expect(mondayOf('2026-11-29')).toBe('2026-11-23')
    expect(mondayOf('2027-01-01')).toBe('2026-12-28')
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30')
    expect(addDays('2026-03-02', -7)).toBe('2026-02-23')
  })

  it("takes today in the professional's zone, not the server's", () => {
    // 01:30 UTC on a Monday is still Sunday evening in São Paulo.
    const now = new Date('2026-11-23T01:30:00Z')
    expect(todayIn('America/Sao_Paulo', now)).toBe('2026-11-22')
    expect(todayIn('Europe/Lisbon', now)).toBe('2026-11-23')
    expect(weekToShow(undefined, 'America/Sao_Paulo', now)).toMatchObject({ start: '2026-11-16', today: '2026-11-22', next: '2026-11-23' })
  })

  it('shows the week of a requested date, and this week for anything else', () => {
    const now = new Date('2026-11-25T12:00:00Z')
    expect(weekToShow('2026-12-03', 'America/Sao_Paulo', now)).toMatchObject({ start: '2026-11-30', previous: '2026-11-23', next: '2026-12-07' })
    expect(weekToShow('2026-02-30', 'America/Sao_Paulo', now).start).toBe('2026-11-23')
    // Dates the provider refuses (beyond the years 2000-2100) are not weeks to ask it for.
    for (const far of ['0999-01-04', '9999-12-27', '1999-12-27']) expect(weekToShow(far, 'America/Sao_Paulo', now).start).toBe('2026-11-23')
    expect(weekToShow(['x'], 'America/Sao_Paulo', now).days).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'])
  })

  it('puts appointments on the local day they start, in order, every day listed', () => {
    const days = ['2026-11-23', '2026-11-24']
    const grouped = byLocalDate(
      [
        { id: 2, start_time: '2026-11-24T13:00:00.000Z' },
        { id: 1, start_time: '2026-11-24T02:30:00.000Z' }, // 23:30 on the 23rd in São Paulo
        { id: 3, start_time: '2026-11-30T13:00:00.000Z' }, // another week: left out
      ],
      days,
      'America/Sao_Paulo',
    )
    expect(grouped).toEqual([
      { date: '2026-11-23', items: [{ id: 1, start_time: '2026-11-24T02:30:00.000Z' }] },
      { date: '2026-11-24', items: [{ id: 2, start_time: '2026-11-24T13:00:00.000Z' }] },
    ])
  })
})

describe('timeUntil', () => {
  const now = new Date('2026-11-23T12:00:00Z')
  it.each([
    ['2026-11-26T12:00:00Z', { value: 3, unit: 'day' }],
    ['2026-11-25T12:00:00Z', { value: 2, unit: 'day' }],
    ['2026-11-25T11:00:00Z', { value: 47, unit: 'hour' }],
    ['2026-11-23T13:30:00Z', { value: 2, unit: 'hour' }],
    ['2026-11-23T13:29:00Z', { value: 89, unit: 'minute' }],
    ['2026-11-23T11:00:00Z', { value: 0, unit: 'minute' }],
  ])('until %s', (instant, expected) => expect(timeUntil(instant, now)).toEqual(expected))
})

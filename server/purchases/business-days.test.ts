import { describe, expect, it } from 'vitest'
import { MAX_BUSINESS_DAYS, addBusinessDays, brazilNationalHolidays, isBusinessDay } from '#server/purchases/business-days.ts'

describe('Brazil’s national public holidays', () => {
  it('lists the national ones of 2026, election Sundays included, and nothing else', () => {
    expect([...brazilNationalHolidays(2026)].sort()).toEqual([
      '2026-01-01', // Ano Novo
      '2026-04-03', // Sexta-Feira Santa (Easter is 2026-04-05)
      '2026-04-21', // Tiradentes
      '2026-05-01', // Dia do Trabalhador
      '2026-09-07', // Independência
      '2026-10-04', // election, a Sunday
      '2026-10-12', // Nossa Senhora Aparecida
      '2026-10-25', // election, a Sunday
      '2026-11-02', // Finados
      '2026-11-15', // Proclamação da República
      '2026-11-20', // Consciência Negra
      '2026-12-25', // Natal
    ])
  })

  it('moves Good Friday with Easter, and knows Black Consciousness only from 2024', () => {
    expect(brazilNationalHolidays(2027).has('2027-03-26')).toBe(true)
    expect(brazilNationalHolidays(2023).has('2023-11-20')).toBe(false)
    expect(brazilNationalHolidays(2024).has('2024-11-20')).toBe(true)
  })
})

describe('isBusinessDay', () => {
  it('Monday to Friday', () => {
    for (const date of ['2026-04-06', '2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10']) expect(isBusinessDay(date)).toBe(true)
    expect(isBusinessDay('2026-04-11')).toBe(false) // Saturday
    expect(isBusinessDay('2026-04-12')).toBe(false) // Sunday
  })

  it('not a national holiday, but Carnival, Corpus Christi and Christmas Eve are business days', () => {
    for (const date of ['2026-01-01', '2026-04-03', '2026-04-21', '2026-05-01', '2026-11-20', '2026-12-25']) expect(isBusinessDay(date)).toBe(false)
    for (const date of ['2026-02-16', '2026-02-17', '2026-02-18', '2026-06-04', '2026-12-24', '2026-12-31']) expect(isBusinessDay(date)).toBe(true)
  })

  it('refuses what is not a date', () => {
    for (const date of ['2026-02-30', '2026-4-2', '', '2026-04-02T10:00']) expect(() => isBusinessDay(date)).toThrow(RangeError)
  })
})

describe('addBusinessDays', () => {
  it('PIX: 3 business days from Thursday 2026-04-02 skip Good Friday and the weekend', () => {
    expect(addBusinessDays('2026-04-02', 3)).toBe('2026-04-08')
    expect(addBusinessDays('2026-04-02', 1)).toBe('2026-04-06')
  })

  it('PIX: Tiradentes (Tuesday 2026-04-21) pushes the third business day to Thursday', () => {
    expect(addBusinessDays('2026-04-17', 3)).toBe('2026-04-23')
    expect(addBusinessDays('2026-04-20', 1)).toBe('2026-04-22')
  })

  it('bank slip: 10 business days across Tiradentes and Labour Day', () => {
    // 20, 22, 23, 24, 27, 28, 29, 30 April, 4 and 5 May.
    expect(addBusinessDays('2026-04-17', 10)).toBe('2026-05-05')
  })

  it('never counts the starting date, business day or not', () => {
    expect(addBusinessDays('2026-04-06', 1)).toBe('2026-04-07') // from a Monday
    expect(addBusinessDays('2026-04-04', 1)).toBe('2026-04-06') // from a Saturday
    expect(addBusinessDays('2026-04-03', 3)).toBe('2026-04-08') // from Good Friday
  })

  it('crosses Christmas and the new year', () => {
    expect(addBusinessDays('2026-12-23', 3)).toBe('2026-12-29')
    expect(addBusinessDays('2026-12-30', 3)).toBe('2027-01-05')
  })

  it('refuses counts that are not 1 to MAX_BUSINESS_DAYS and dates that are not dates', () => {
    expect(addBusinessDays('2026-01-01', MAX_BUSINESS_DAYS) > '2026-12-01').toBe(true)
    for (const days of [0, -1, 1.5, NaN, MAX_BUSINESS_DAYS + 1]) expect(() => addBusinessDays('2026-04-02', days)).toThrow(RangeError)
    expect(() => addBusinessDays('2026-02-29', 1)).toThrow(RangeError)
  })
})

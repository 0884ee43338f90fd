import { describe, expect, test } from 'vitest'
import { type Cents, MAX_CENTS, asCents, formatMoney, isCents, multiplyCents, parseMoney, sumCents } from './money.ts'

const NBSP = '\u00a0'

describe('isCents and asCents', () => {
  test('whole amounts from 0 to MAX_CENTS (R$ 10 million)', () => {
    expect(MAX_CENTS).toBe(1_000_000_000)
    for (const value of [0, 1, 99, 123456, MAX_CENTS]) {
      expect(isCents(value)).toBe(true)
      expect(asCents(value)).toBe(value)
    }
  })

  test('not floats, negatives, -0, beyond the bound, non-numbers or numeric strings', () => {
    for (const value of [0.5, 12.34, 1e-7, -1, -0, MAX_CENTS + 1, Number.MAX_SAFE_INTEGER + 1, NaN, Infinity, -Infinity, '100', 10n, null, undefined, {}, [100]]) {
      expect(isCents(value)).toBe(false)
      expect(() => asCents(value)).toThrow(RangeError)
    }
  })
})

describe('sumCents', () => {
  test('adds whole amounts; nothing sums to 0', () => {
    expect(sumCents([])).toBe(0)
    expect(sumCents([asCents(1999), asCents(1), asCents(123456)])).toBe(125456)
  })

  test('up to MAX_CENTS and no further', () => {
    expect(sumCents([asCents(MAX_CENTS - 1), asCents(1)])).toBe(MAX_CENTS)
    expect(sumCents([asCents(MAX_CENTS), asCents(1)])).toBeUndefined()
    expect(sumCents(Array.from({ length: 11 }, () => asCents(MAX_CENTS / 10)))).toBeUndefined()
  })

  test('refuses what slipped past the type at run time (a float, a negative)', () => {
    expect(sumCents([100, 0.5] as Cents[])).toBeUndefined()
    expect(sumCents([100, -50] as Cents[])).toBeUndefined()
  })
})

describe('multiplyCents', () => {
  test('a unit amount times a whole quantity', () => {
    expect(multiplyCents(asCents(1999), 3)).toBe(5997)
    expect(multiplyCents(asCents(1999), 0)).toBe(0)
    expect(multiplyCents(asCents(0), 10)).toBe(0)
    expect(Object.is(multiplyCents(asCents(1999), -0), 0)).toBe(true)
  })

  test('up to MAX_CENTS and no further, even where the product would lose precision', () => {
    expect(multiplyCents(asCents(MAX_CENTS / 10), 10)).toBe(MAX_CENTS)
    expect(multiplyCents(asCents(MAX_CENTS / 10), 11)).toBeUndefined()
    expect(multiplyCents(asCents(MAX_CENTS), Number.MAX_SAFE_INTEGER)).toBeUndefined()
    expect(multiplyCents(asCents(0), Number.MAX_SAFE_INTEGER)).toBe(0)
  })

  test('quantities that are not whole, non-negative numbers', () => {
    for (const quantity of [1.5, -1, NaN, Infinity, Number.MAX_SAFE_INTEGER + 1]) expect(multiplyCents(asCents(100), quantity)).toBeUndefined()
    expect(multiplyCents(0.5 as Cents, 2)).toBeUndefined()
  })
})

describe('formatMoney', () => {
  test('pt reads exactly "R$ 1.234,56", with a no-break space (U+00A0) after R$ so the price never wraps', () => {
    expect(formatMoney(asCents(123456), 'pt')).toBe(`R$${NBSP}1.234,56`)
    expect(formatMoney(asCents(123456), 'pt')).not.toBe('R$ 1.234,56')
    expect(formatMoney(asCents(0), 'pt')).toBe(`R$${NBSP}0,00`)
    expect(formatMoney(asCents(5), 'pt')).toBe(`R$${NBSP}0,05`)
    expect(formatMoney(asCents(1990), 'pt')).toBe(`R$${NBSP}19,90`)
    expect(formatMoney(asCents(MAX_CENTS), 'pt')).toBe(`R$${NBSP}10.000.000,00`)
  })

  test('en and es write R$ too, each with its own separators', () => {
    expect(formatMoney(asCents(123456), 'en')).toBe('R$1,234.56')
    expect(formatMoney(asCents(5), 'en')).toBe('R$0.05')
    expect(formatMoney(asCents(123456), 'es')).toBe(`1234,56${NBSP}R$`)
    expect(formatMoney(asCents(1234567), 'es')).toBe(`12.345,67${NBSP}R$`)
  })

  test('every cent exactly, where a float would drift (0.1 + 0.2, large amounts)', () => {
    expect(formatMoney(sumCents([asCents(10), asCents(20)])!, 'en')).toBe('R$0.30')
    expect(formatMoney(asCents(999_999_999), 'en')).toBe('R$9,999,999.99')
    expect(formatMoney(asCents(100_000_001), 'pt')).toBe(`R$${NBSP}1.000.000,01`)
  })

  test('a RangeError for what is not Cents', () => {
    for (const value of [12.5, -100, -0, NaN]) expect(() => formatMoney(value as Cents, 'pt')).toThrow(RangeError)
  })
})

describe('parseMoney', () => {
  test('reads an amount the way each language writes it', () => {
    const cases: [string, number][] = [
      ['89,90', 8990],
      ['89.90', 8990],
      ['89,9', 8990],
      ['89', 8900],
      ['R$ 1.234,56', 123456],
      [`1234,56${NBSP}R$`, 123456],
      ['R$1,234.56', 123456],
      ['1.234', 123400],
      ['10.000.000,00', 1_000_000_000],
      ['0,50', 50],
    ]
    for (const [text, cents] of cases) expect(parseMoney(text), text).toBe(cents)
  })

  test('refuses what is no amount rather than guess', () => {
    for (const text of ['', ' ', '-10', '+10', '1,234,56', '1.234.56', '1,234.567', '12.5.0', '8990 cents', '1e3', '10.000.000,01', '99999999999', '1.2345', ',50', '0x10', '١٢٣']) {
      expect(parseMoney(text), text).toBeUndefined()
    }
  })
})

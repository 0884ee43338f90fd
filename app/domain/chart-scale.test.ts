import { describe, expect, test } from 'vitest'
import { barHeight, chartTop } from './chart-scale.ts'

describe('chart scale', () => {
  test('the axis tops at 2, 4, 6, 8 or 10 times a power of ten, never below the largest value', () => {
    expect([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 19, 20, 21, 99, 100, 101, 999, 1000, 35_000, 123_456].map(chartTop)).toEqual([
      2, 2, 2, 4, 4, 6, 8, 8, 10, 10, 20, 20, 20, 40, 100, 100, 200, 1000, 1000, 40_000, 200_000,
    ])
    expect(chartTop(Number.NaN)).toBe(2)
    expect(chartTop(-5)).toBe(2)
  })

  test('the middle of the axis is a whole number', () => {
    for (const max of [1, 3, 17, 250, 9_999, 1_000_001]) expect(Number.isInteger(chartTop(max) / 2)).toBe(true)
  })

  test('bars are a share of the top; a small value stays visible, none is drawn for nothing', () => {
    expect(barHeight(5, 10)).toBe(50)
    expect(barHeight(10, 10)).toBe(100)
    expect(barHeight(1, 1000)).toBe(1)
    expect(barHeight(0, 10)).toBe(0)
    expect(barHeight(3, 0)).toBe(0)
  })
})

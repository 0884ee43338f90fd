import { describe, expect, test } from 'vitest'
import { MAX_ID, parseId } from './ids'

describe('parseId', () => {
  test('reads the ids the provider can hold', () => {
    expect(parseId('1')).toBe(1)
    expect(parseId(String(MAX_ID))).toBe(MAX_ID)
  })
  test.each(['0', '-1', '2147483648', '99999999999', '1.5', '1e3', ' 1', '', 'abc'])('refuses %j', (raw) => {
    expect(parseId(raw)).toBeUndefined()
  })
  test('refuses what is not a string', () => {
    expect(parseId(null)).toBeUndefined()
    expect(parseId(7)).toBeUndefined()
  })
})

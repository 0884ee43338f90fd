import { describe, expect, test } from 'vitest'
import { MAX_PAGE, pageInfo, pageParam, withPage } from './pagination'

describe('pageInfo', () => {
  test('middle page', () => {
    expect(pageInfo({ count: 45, page: 2, pageSize: 20 })).toEqual({ pages: 3, current: 2, previous: 1, next: 3, first: 21, last: 40 })
  })
  test('an empty list still has one page', () => {
    expect(pageInfo({ count: 0, page: 1, pageSize: 20 })).toMatchObject({ pages: 1, previous: null, next: null, first: 0, last: 0 })
  })
  test('a page past the end is the last page', () => {
    expect(pageInfo({ count: 21, page: 9, pageSize: 20 })).toMatchObject({ current: 2, next: null, first: 21, last: 21 })
  })
})

test('withPage keeps the other parameters', () => {
  expect(withPage('?search=ana&page=2', 3)).toBe('?search=ana&page=3')
  expect(withPage('?search=ana&page=2', 1)).toBe('?search=ana')
  expect(withPage('', 1)).toBe('?')
})

test('pageParam takes a whole page number in bounds; anything else is the first page', () => {
  const page = (search: string) => pageParam(new URL(`http://app.test/x${search}`))
  expect(page('?page=3')).toBe(3)
  expect(page('')).toBe(1)
  for (const junk of ['abc', '0', '-2', '2.5', '1e9', String(MAX_PAGE + 1), '', '%00']) expect(page(`?page=${junk}`), junk).toBe(1)
  expect(page(`?page=${MAX_PAGE}`)).toBe(MAX_PAGE)
  expect(pageParam(new URL('http://app.test/x?pagina=4'), 'pagina')).toBe(4)
})

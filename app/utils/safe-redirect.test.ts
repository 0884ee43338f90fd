import { describe, expect, test } from 'vitest'
import { safeRedirect } from './safe-redirect'

describe('safeRedirect', () => {
  test('keeps same-site paths with their query', () => {
    expect(safeRedirect('/dashboard?tab=1')).toBe('/dashboard?tab=1')
  })
  test.each(['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/\tevil', '\\\\evil', ' //evil.example'])(
    'refuses %s',
    (target) => {
      expect(safeRedirect(target, '/home')).toBe('/home')
    },
  )
  test('falls back when nothing or a file is given', () => {
    expect(safeRedirect(null)).toBe('/')
    expect(safeRedirect(undefined, '/x')).toBe('/x')
  })
})

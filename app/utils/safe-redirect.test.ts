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
  test.each(['/.//evil.example', '/x/..//evil.example', '/./..//evil.example/path', '/%2e//evil.example', '/x/%2e%2e//evil.example', '/a/b/../..//evil.example?x=1'])(
    'refuses %s, whose dot segments collapse into a protocol-relative //',
    (target) => {
      expect(safeRedirect(target, '/home')).toBe('/home')
    },
  )
  test('keeps a path whose dot segments stay on the site', () => {
    expect(safeRedirect('/x/../dashboard', '/home')).toBe('/dashboard')
  })
  test('falls back when nothing or a file is given', () => {
    expect(safeRedirect(null)).toBe('/')
    expect(safeRedirect(undefined, '/x')).toBe('/x')
  })
})

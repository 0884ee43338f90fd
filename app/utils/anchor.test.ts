import { expect, test } from 'vitest'
import { anchorFromKey } from './anchor.ts'

test('camelCase keys become kebab-case anchors', () => {
  expect(anchorFromKey('dataWeCollect')).toBe('data-we-collect')
  expect(anchorFromKey('dpo')).toBe('dpo')
})

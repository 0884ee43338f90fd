import { describe, expect, test } from 'vitest'
import { formatFileSize } from './file-size.ts'

describe('formatFileSize', () => {
  test('bytes, kilobytes and megabytes with one decimal at most, in the language', () => {
    expect(formatFileSize(820, 'en')).toBe('820 byte')
    expect(formatFileSize(34 * 1024, 'en')).toBe('34 kB')
    expect(formatFileSize(1.25 * 1024 * 1024, 'en')).toBe('1.3 MB')
    expect(formatFileSize(1.25 * 1024 * 1024, 'pt')).toBe('1,3 MB')
    expect(formatFileSize(10 * 1024 * 1024, 'es')).toBe('10 MB')
  })
})

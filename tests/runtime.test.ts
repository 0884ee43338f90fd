import { describe, expect, test } from 'vitest'
import { DEFAULT_APP_HEAP_MB, appNodeArgs } from '../scripts/lib/runtime.mjs'

describe('the app process as production runs it (decision 0020)', () => {
  test('its heap is capped at 256 MB unless APP_HEAP_MB says otherwise, an eighth of it young (16 MB at least)', () => {
    expect(DEFAULT_APP_HEAP_MB).toBe(256)
    expect(appNodeArgs({})).toEqual(['--max-old-space-size=256', '--max-semi-space-size=32'])
    expect(appNodeArgs({ APP_HEAP_MB: '512' })).toEqual(['--max-old-space-size=512', '--max-semi-space-size=64'])
    expect(appNodeArgs({ APP_HEAP_MB: '64' })).toEqual(['--max-old-space-size=64', '--max-semi-space-size=16'])
  })

  test.each(['0', '63', '65537', '1.5', '256mb', ' 256', '-256'])('APP_HEAP_MB=%s stops the start with a message', (value) => {
    expect(() => appNodeArgs({ APP_HEAP_MB: value })).toThrow(/APP_HEAP_MB/)
  })
})

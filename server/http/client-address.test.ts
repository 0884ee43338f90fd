import { describe, expect, it } from 'vitest'
import { clientAddress } from './client-address'

describe('clientAddress', () => {
  it('prefers the first X-Forwarded-For hop', () => {
    expect(clientAddress(' 203.0.113.9, 10.0.0.1', '127.0.0.1')).toBe('203.0.113.9')
  })

  it('falls back to the socket address, then to "unknown"', () => {
    expect(clientAddress(null, '127.0.0.1')).toBe('127.0.0.1')
    expect(clientAddress('  ', undefined)).toBe('unknown')
  })
})

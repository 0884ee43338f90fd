import { describe, expect, it } from 'vitest'
import { clientAddress } from '#server/http/client-address.ts'

const SECRET = 's'.repeat(40)

describe('clientAddress', () => {
  it('takes the first X-Forwarded-For hop from a request carrying the forwarding secret', () => {
    expect(clientAddress({ forwardedFor: '203.0.113.9, 10.0.0.1', forwardingSecret: SECRET, socketAddress: '127.0.0.1' }, SECRET)).toBe('203.0.113.9')
  })

  it('ignores X-Forwarded-For without the right secret, or when none is configured', () => {
    const spoofed = { forwardedFor: '203.0.113.9', socketAddress: '198.51.100.7' }
    expect(clientAddress({ ...spoofed, forwardingSecret: undefined }, SECRET)).toBe('198.51.100.7')
    expect(clientAddress({ ...spoofed, forwardingSecret: 'x'.repeat(40) }, SECRET)).toBe('198.51.100.7')
    expect(clientAddress({ ...spoofed, forwardingSecret: SECRET.slice(1) }, SECRET)).toBe('198.51.100.7')
    expect(clientAddress({ ...spoofed, forwardingSecret: SECRET }, undefined)).toBe('198.51.100.7')
    expect(clientAddress({ ...spoofed, forwardingSecret: '' }, undefined)).toBe('198.51.100.7')
  })

  it('falls back to the socket address, then to "unknown"', () => {
    expect(clientAddress({ forwardedFor: ' ', forwardingSecret: SECRET, socketAddress: '::1' }, SECRET)).toBe('::1')
    expect(clientAddress({ forwardedFor: undefined, forwardingSecret: undefined, socketAddress: undefined }, SECRET)).toBe('unknown')
  })
})

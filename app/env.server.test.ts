import { describe, expect, test } from 'vitest'
import { EnvError, parseEnv } from './env.server.ts'

const base = { PROVIDER_API_URL: 'http://127.0.0.1:8000' }

describe('TRUST_PROXY', () => {
  test('unset or false trusts no proxy: the socket address is the visitor', () => {
    expect(parseEnv(base).TRUST_PROXY).toBe(false)
    expect(parseEnv({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false)
    expect(parseEnv({ ...base, TRUST_PROXY: '' }).TRUST_PROXY).toBe(false)
  })
  test('a number of hops, or a list of proxy addresses and subnets', () => {
    expect(parseEnv({ ...base, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(parseEnv({ ...base, TRUST_PROXY: '10.0.0.1, 172.16.0.0/12,fd00::/8, loopback' }).TRUST_PROXY).toEqual(['10.0.0.1', '172.16.0.0/12', 'fd00::/8', 'loopback'])
  })
  test.each(['true', 'everyone', '10.0.0.1/33', '10.0.0.1,evil', '*'])('%s is refused with a message', (value) => {
    expect(() => parseEnv({ ...base, TRUST_PROXY: value })).toThrow(EnvError)
    expect(() => parseEnv({ ...base, TRUST_PROXY: value })).toThrow(/TRUST_PROXY/)
  })
})

describe('APP_PUBLIC_URL', () => {
  test('defaults to localhost on the app port, and is kept as an origin', () => {
    expect(parseEnv(base).APP_PUBLIC_URL).toBe('http://localhost:3000')
    expect(parseEnv({ ...base, PORT: '4100' }).APP_PUBLIC_URL).toBe('http://localhost:4100')
    expect(parseEnv({ ...base, APP_PUBLIC_URL: 'https://innera.example/' }).APP_PUBLIC_URL).toBe('https://innera.example')
  })
  test('must be http(s)', () => {
    expect(() => parseEnv({ ...base, APP_PUBLIC_URL: 'ftp://innera.example' })).toThrow(/APP_PUBLIC_URL/)
    expect(() => parseEnv({ ...base, APP_PUBLIC_URL: 'innera.example' })).toThrow(/APP_PUBLIC_URL/)
  })
})

describe('provider timeouts and forwarding', () => {
  test('reads wait 5 s by default, writes 10 s; reads never wait longer than writes unless told to', () => {
    expect(parseEnv(base)).toMatchObject({ PROVIDER_READ_TIMEOUT_MS: 5_000, PROVIDER_TIMEOUT_MS: 10_000 })
    expect(parseEnv({ ...base, PROVIDER_TIMEOUT_MS: '2000' })).toMatchObject({ PROVIDER_READ_TIMEOUT_MS: 2_000, PROVIDER_TIMEOUT_MS: 2_000 })
    expect(parseEnv({ ...base, PROVIDER_READ_TIMEOUT_MS: '800' }).PROVIDER_READ_TIMEOUT_MS).toBe(800)
    expect(() => parseEnv({ ...base, PROVIDER_READ_TIMEOUT_MS: '5' })).toThrow(/PROVIDER_READ_TIMEOUT_MS/)
  })
  test('the forwarding secret is optional, and long when given', () => {
    expect(parseEnv(base).PROVIDER_FORWARDING_SECRET).toBeUndefined()
    expect(parseEnv({ ...base, PROVIDER_FORWARDING_SECRET: 's'.repeat(32) }).PROVIDER_FORWARDING_SECRET).toBe('s'.repeat(32))
    expect(() => parseEnv({ ...base, PROVIDER_FORWARDING_SECRET: 'short' })).toThrow(/PROVIDER_FORWARDING_SECRET: must be at least 32/)
  })
})

describe('APP_MAX_CONCURRENT_REQUESTS', () => {
  test('8 by default, a whole number from 1 to 10000 when given', () => {
    expect(parseEnv(base).APP_MAX_CONCURRENT_REQUESTS).toBe(8)
    expect(parseEnv({ ...base, APP_MAX_CONCURRENT_REQUESTS: '32' }).APP_MAX_CONCURRENT_REQUESTS).toBe(32)
    for (const value of ['0', '-1', '1.5', 'many', '10001']) expect(() => parseEnv({ ...base, APP_MAX_CONCURRENT_REQUESTS: value })).toThrow(/APP_MAX_CONCURRENT_REQUESTS/)
  })
})

describe('MEDIA_BASE_URL', () => {
  test('unset by default; a trailing slash is dropped', () => {
    expect(parseEnv(base).MEDIA_BASE_URL).toBeUndefined()
    expect(parseEnv({ ...base, MEDIA_BASE_URL: 'https://cdn.example.com/innera/' }).MEDIA_BASE_URL).toBe('https://cdn.example.com/innera')
  })
  test.each(['cdn.example.com', 'ftp://cdn.example.com', 'https://cdn.example.com/?a=1', 'https://cdn.example.com/#x'])('%s is refused with a message', (value) => {
    expect(() => parseEnv({ ...base, MEDIA_BASE_URL: value })).toThrow(/MEDIA_BASE_URL/)
  })
})

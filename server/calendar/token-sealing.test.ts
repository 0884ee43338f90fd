import { describe, expect, it } from 'vitest'
import { createTokenSealer, UnreadableTokenError } from '#server/calendar/token-sealing.ts'

const SECRET = 'a-provider-jwt-secret-of-some-length-0123456789'

describe('token sealing', () => {
  it('opens what it sealed; the sealed form shows nothing of the token and differs every time', () => {
    const sealer = createTokenSealer(SECRET)
    const token = '1//0gExampleRefreshToken-abc_DEF'
    const first = sealer.seal(token)
    const second = sealer.seal(token)
    expect(first).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(first).not.toContain('ExampleRefreshToken')
    expect(first).not.toBe(second)
    expect(sealer.open(first)).toBe(token)
    expect(sealer.open(second)).toBe(token)
  })

  it('refuses a token sealed under another secret, altered, or malformed', () => {
    const sealed = createTokenSealer(SECRET).seal('secret-token')
    expect(() => createTokenSealer(`${SECRET}-rotated`).open(sealed)).toThrow(UnreadableTokenError)
    const [version, iv, tag, ciphertext] = sealed.split('.')
    // The second-to-last character changed (the last may hold only padding bits), to another for sure.
    const flipped = `${ciphertext!.slice(0, -2)}${ciphertext!.at(-2) === 'A' ? 'B' : 'A'}${ciphertext!.slice(-1)}`
    const sealer = createTokenSealer(SECRET)
    expect(() => sealer.open([version, iv, tag, flipped].join('.'))).toThrow(UnreadableTokenError)
    for (const bad of ['', 'v1', 'v2.a.b.c', 'plain-token', `${sealed}.extra`]) expect(() => sealer.open(bad)).toThrow(UnreadableTokenError)
  })
})

import { createHmac, hkdfSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  ATTACHMENT_LINK_LIFE,
  mediaMaxAgeSeconds,
  mediaSigningKey,
  mediaUrlExpiry,
  signedAttachmentMedia,
  signedLessonMedia,
  signedMediaUrl,
  signMediaPath,
  verifyMediaSignature,
} from '#server/media/signed-urls.ts'

const at = (iso: string) => Date.parse(iso)
const seconds = (iso: string) => at(iso) / 1000
const SECRET = 'a-jwt-secret-for-the-media-tests-0123456789'
const key = mediaSigningKey(SECRET)
const PATH = '/media/lessons/sono-1.mp4'

describe('the key', () => {
  it('is HKDF-SHA256 of the JWT secret with info "innera media urls": 32 bytes, never the secret itself', () => {
    expect(key).toHaveLength(32)
    expect(key.equals(Buffer.from(hkdfSync('sha256', SECRET, Buffer.alloc(0), 'innera media urls', 32)))).toBe(true)
    expect(key.equals(mediaSigningKey('another-secret'))).toBe(false)
    expect(key.equals(mediaSigningKey(SECRET))).toBe(true)
  })
})

describe('expiry', () => {
  it('is the next full hour after now plus 3 hours: the same URL all hour long', () => {
    const expected = seconds('2026-03-10T18:00:00Z')
    expect(mediaUrlExpiry(at('2026-03-10T14:00:00.001Z'))).toBe(expected)
    expect(mediaUrlExpiry(at('2026-03-10T14:30:00Z'))).toBe(expected)
    expect(mediaUrlExpiry(at('2026-03-10T14:59:59.999Z'))).toBe(expected)
    expect(signMediaPath(key, PATH, at('2026-03-10T14:00:01Z'))).toEqual(signMediaPath(key, PATH, at('2026-03-10T14:59:59Z')))
  })

  it('on the hour itself is the next hour: a URL lives between 3 and 4 hours', () => {
    expect(mediaUrlExpiry(at('2026-03-10T14:00:00Z'))).toBe(seconds('2026-03-10T18:00:00Z'))
    expect(mediaUrlExpiry(at('2026-03-10T15:00:00Z'))).toBe(seconds('2026-03-10T19:00:00Z'))
  })
})

describe('signing', () => {
  const now = at('2026-03-10T14:20:00Z')

  it('signs "{path}\\n{expires}" with HMAC-SHA256, in lowercase hex', () => {
    const { expires, signature } = signMediaPath(key, PATH, now)
    expect(expires).toBe(seconds('2026-03-10T18:00:00Z'))
    expect(signature).toBe(createHmac('sha256', key).update(`${PATH}\n${expires}`).digest('hex'))
    expect(signature).toMatch(/^[0-9a-f]{64}$/)
  })

  it('puts the path and the query on the base, an origin or a prefix, with or without a trailing slash', () => {
    const { expires, signature } = signMediaPath(key, PATH, now)
    const query = `?expires=${expires}&signature=${signature}`
    expect(signedMediaUrl('http://127.0.0.1:8000', PATH, key, now)).toBe(`http://127.0.0.1:8000${PATH}${query}`)
    expect(signedMediaUrl('http://127.0.0.1:8000/', PATH, key, now)).toBe(`http://127.0.0.1:8000${PATH}${query}`)
    expect(signedMediaUrl('https://cdn.example.com/innera', PATH, key, now)).toBe(`https://cdn.example.com/innera${PATH}${query}`)
    expect(signedMediaUrl('https://cdn.example.com/innera/', PATH, key, now)).toBe(`https://cdn.example.com/innera${PATH}${query}`)
    expect(signedLessonMedia('http://127.0.0.1:8000', 'sono-1.mp4', key, now)).toEqual({ url: `http://127.0.0.1:8000${PATH}${query}`, expiresAt: expires * 1000 })
  })
})

describe('verifying', () => {
  const signedAt = at('2026-03-10T14:20:00Z')
  const { expires, signature } = signMediaPath(key, PATH, signedAt)
  const expiresText = String(expires)
  const verify = (overrides: { path?: string; expires?: string | undefined; signature?: string | undefined; now?: number } = {}) =>
    verifyMediaSignature(
      key,
      overrides.path ?? PATH,
      'expires' in overrides ? overrides.expires : expiresText,
      'signature' in overrides ? overrides.signature : signature,
      overrides.now ?? signedAt,
    )

  it('accepts its own signature until the second it expires', () => {
    expect(verify()).toBe(true)
    expect(verify({ now: at('2026-03-10T17:59:59.999Z') })).toBe(true)
    expect(verify({ now: at('2026-03-10T18:00:00Z') })).toBe(false)
    expect(verify({ now: at('2026-03-11T09:00:00Z') })).toBe(false)
  })

  it('refuses a tampered path, expiry or signature, and another key', () => {
    expect(verify({ path: '/media/lessons/sono-2.mp4' })).toBe(false)
    expect(verify({ path: '/media/lessons/sono-1.pt.vtt' })).toBe(false)
    expect(verify({ expires: String(expires + 3600) })).toBe(false)
    expect(verify({ expires: String(expires - 1) })).toBe(false)
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`
    expect(verify({ signature: flipped })).toBe(false)
    expect(verifyMediaSignature(mediaSigningKey('another-secret'), PATH, expiresText, signature, signedAt)).toBe(false)
  })

  it('refuses what is missing or malformed', () => {
    expect(verify({ expires: undefined })).toBe(false)
    expect(verify({ signature: undefined })).toBe(false)
    expect(verify({ expires: '' })).toBe(false)
    expect(verify({ signature: '' })).toBe(false)
    expect(verify({ expires: `0${expiresText}` })).toBe(false)
    expect(verify({ expires: `+${expiresText}` })).toBe(false)
    expect(verify({ expires: ` ${expiresText}` })).toBe(false)
    expect(verify({ expires: `${expiresText}.0` })).toBe(false)
    expect(verify({ expires: '1e12' })).toBe(false)
    expect(verify({ signature: signature.toUpperCase() })).toBe(false)
    expect(verify({ signature: signature.slice(0, 62) })).toBe(false)
    expect(verify({ signature: `${signature}00` })).toBe(false)
    expect(verify({ signature: `${signature.slice(0, 63)}g` })).toBe(false)
  })

  it('refuses an expiry more than 4 hours ahead, even correctly signed (never given here)', () => {
    const now = at('2026-03-10T14:00:00Z')
    const signedFor = (expiresAt: number) => createHmac('sha256', key).update(`${PATH}\n${expiresAt}`).digest('hex')
    const fourHours = seconds('2026-03-10T18:00:00Z')
    expect(verifyMediaSignature(key, PATH, String(fourHours), signedFor(fourHours), now)).toBe(true)
    expect(verifyMediaSignature(key, PATH, String(fourHours + 1), signedFor(fourHours + 1), now)).toBe(false)
    const nextYear = seconds('2027-03-10T18:00:00Z')
    expect(verifyMediaSignature(key, PATH, String(nextYear), signedFor(nextYear), now)).toBe(false)
  })
})

describe('caching', () => {
  it('lasts until the expiry, at most 3 hours', () => {
    const expires = seconds('2026-03-10T18:00:00Z')
    expect(mediaMaxAgeSeconds(expires, at('2026-03-10T14:00:00Z'))).toBe(3 * 3600)
    expect(mediaMaxAgeSeconds(expires, at('2026-03-10T16:00:00Z'))).toBe(2 * 3600)
    expect(mediaMaxAgeSeconds(expires, at('2026-03-10T17:59:59.500Z'))).toBe(0)
    expect(mediaMaxAgeSeconds(expires, at('2026-03-10T19:00:00Z'))).toBe(0)
  })
})

describe("an attachment's link (decision 0086)", () => {
  const key = mediaSigningKey('test-secret')
  const at = (iso: string) => Date.parse(iso)

  it('lives 30 to 35 minutes: the next 5 minutes plus 30, one link within those 5 minutes', () => {
    expect(mediaUrlExpiry(at('2026-03-10T15:00:00Z'), ATTACHMENT_LINK_LIFE) * 1000).toBe(at('2026-03-10T15:35:00Z'))
    expect(mediaUrlExpiry(at('2026-03-10T15:04:59Z'), ATTACHMENT_LINK_LIFE) * 1000).toBe(at('2026-03-10T15:35:00Z'))
    const first = signedAttachmentMedia('https://p.example', 7, 3, key, at('2026-03-10T15:01:00Z'))
    expect(first).toEqual(signedAttachmentMedia('https://p.example', 7, 3, key, at('2026-03-10T15:04:00Z')))
    expect(first.url).toMatch(/^https:\/\/p\.example\/media\/messages\/7\/3\?expires=\d+&signature=[0-9a-f]{64}$/)
    expect(first.expiresAt).toBe(at('2026-03-10T15:35:00Z'))
  })

  it("is checked with its own life: a lesson's longer expiry is refused, and its path names the viewer", () => {
    const now = at('2026-03-10T15:00:00Z')
    const path = '/media/messages/7/3'
    const { expires, signature } = signMediaPath(key, path, now, ATTACHMENT_LINK_LIFE)
    expect(verifyMediaSignature(key, path, String(expires), signature, now, ATTACHMENT_LINK_LIFE)).toBe(true)
    expect(verifyMediaSignature(key, '/media/messages/7/4', String(expires), signature, now, ATTACHMENT_LINK_LIFE)).toBe(false)
    expect(verifyMediaSignature(key, path, String(expires), signature, at('2026-03-10T15:35:00Z'), ATTACHMENT_LINK_LIFE)).toBe(false)
    const lessonLong = signMediaPath(key, path, now)
    expect(verifyMediaSignature(key, path, String(lessonLong.expires), lessonLong.signature, now, ATTACHMENT_LINK_LIFE)).toBe(false)
    expect(mediaMaxAgeSeconds(expires, now, ATTACHMENT_LINK_LIFE)).toBe(30 * 60)
  })
})

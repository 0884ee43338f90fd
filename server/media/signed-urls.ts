import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/**
 * Signed media URLs (decision 0057): a lesson's video and captions are served only at
 * `{path}?expires={unix seconds}&signature={hex HMAC-SHA256 of "{path}\n{expires}"}`, the key
 * derived from the provider's JWT secret. `expires` is the next full hour plus 3 hours, so every
 * URL signed within one hour is the same (the browser's cache and the player's src stay put) and
 * lives between 3 and 4 hours. Pure: no I/O, the time is always given.
 */

/** The HKDF "info" of the media key: a key of its own, never the JWT key itself. */
const KEY_INFO = 'innera media urls'
const HOUR_SECONDS = 3600
/** How long a URL lives past the next full hour. */
const MEDIA_URL_LIFETIME_SECONDS = 3 * HOUR_SECONDS
/** The longest a valid URL can still live: a later `expires` was never signed here (refused). */
const MEDIA_URL_MAX_AHEAD_SECONDS = HOUR_SECONDS + MEDIA_URL_LIFETIME_SECONDS
/** Where the lessons' files are served: `${LESSON_MEDIA_PREFIX}{file}`. */
export const LESSON_MEDIA_PREFIX = '/media/lessons/'

/** What a signature needs in a URL's query. */
type MediaSignature = { expires: number; signature: string }

// Whole unix seconds with no sign, spaces or leading zeros (what signMediaPath writes); 12 digits
// reach the year 33658.
const EXPIRES = /^[1-9][0-9]{0,11}$/
const SIGNATURE = /^[0-9a-f]{64}$/

/** The media URLs' key: HKDF-SHA256 of the JWT secret, info "innera media urls", 32 bytes. */
export function mediaSigningKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, Buffer.alloc(0), KEY_INFO, 32))
}

/** When a URL signed at `nowMs` expires: the next full hour after now, plus 3 hours (unix seconds). */
export function mediaUrlExpiry(nowMs: number): number {
  const nextHour = (Math.floor(nowMs / 1000 / HOUR_SECONDS) + 1) * HOUR_SECONDS
  return nextHour + MEDIA_URL_LIFETIME_SECONDS
}

function hmac(key: Buffer, path: string, expires: string): Buffer {
  return createHmac('sha256', key).update(`${path}\n${expires}`).digest()
}

/** The signature of `path` (e.g. "/media/lessons/sono-1.mp4") for a URL signed at `nowMs`. */
export function signMediaPath(key: Buffer, path: string, nowMs: number): MediaSignature {
  const expires = mediaUrlExpiry(nowMs)
  return { expires, signature: hmac(key, path, String(expires)).toString('hex') }
}

/**
 * The signed URL of `path` on `base`: an origin or a URL prefix ("http://127.0.0.1:8000",
 * "https://cdn.example.com/innera"; a trailing slash is dropped). The signature covers `path` only,
 * not the base, so the provider and a CDN in front of it check the same thing.
 */
export function signedMediaUrl(base: string, path: string, key: Buffer, nowMs: number): string {
  const { expires, signature } = signMediaPath(key, path, nowMs)
  return `${base.replace(/\/+$/, '')}${path}?expires=${expires}&signature=${signature}`
}

/** A lesson's file ("sono-1.mp4", "sono-1.pt.vtt"): signedMediaUrl of /media/lessons/{file}, and when that URL stops working (ms). */
export function signedLessonMedia(base: string, file: string, key: Buffer, nowMs: number): { url: string; expiresAt: number } {
  const path = `${LESSON_MEDIA_PREFIX}${file}`
  return { url: signedMediaUrl(base, path, key, nowMs), expiresAt: mediaUrlExpiry(nowMs) * 1000 }
}

/**
 * True when `signature` signs `path` with `expires`, and `expires` is still ahead of `nowMs` by at
 * most 4 hours (the longest signMediaPath gives). Missing, malformed (anything but what
 * signMediaPath writes: lowercase hex, plain decimal seconds), expired, too far ahead or wrong:
 * false. The comparison takes the same time wherever the signatures differ.
 */
export function verifyMediaSignature(key: Buffer, path: string, expires: string | undefined, signature: string | undefined, nowMs: number): boolean {
  if (expires === undefined || signature === undefined) return false
  if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return false
  const expiresMs = Number(expires) * 1000
  if (expiresMs <= nowMs || expiresMs - nowMs > MEDIA_URL_MAX_AHEAD_SECONDS * 1000) return false
  return timingSafeEqual(hmac(key, path, expires), Buffer.from(signature, 'hex'))
}

/** How long a response to a URL expiring at `expires` may be cached: until then, at most 3 hours (0 when already past). */
export function mediaMaxAgeSeconds(expires: number, nowMs: number): number {
  return Math.max(0, Math.min(MEDIA_URL_LIFETIME_SECONDS, Math.floor(expires - nowMs / 1000)))
}

import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/**
 * Signed media URLs (decision 0057; a message's attachments too, decision 0086): a lesson's video and captions are served only at
 * `{path}?expires={unix seconds}&signature={hex HMAC-SHA256 of "{path}\n{expires}"}`, the key
 * derived from the provider's JWT secret. `expires` is the next full hour plus 3 hours, so every
 * URL signed within one hour is the same (the browser's cache and the player's src stay put) and
 * lives between 3 and 4 hours. Pure: no I/O, the time is always given.
 */

/** The HKDF "info" of the media key: a key of its own, never the JWT key itself. */
const KEY_INFO = 'innera media urls'
const HOUR_SECONDS = 3600

/**
 * How long a kind of URL lives: `expires` is the next multiple of `stepSeconds` plus
 * `lifetimeSeconds`, so every URL signed within one step is the same (caches and a player's src
 * stay put) and lives between `lifetimeSeconds` and that plus a step. A later `expires` was never
 * signed here and is refused.
 */
export type MediaLinkLife = { stepSeconds: number; lifetimeSeconds: number }
/** A lesson's video and captions: the next full hour plus 3 hours. */
export const LESSON_LINK_LIFE: MediaLinkLife = { stepSeconds: HOUR_SECONDS, lifetimeSeconds: 3 * HOUR_SECONDS }
/** A message's attachment (decision 0086): short-lived, the next 5 minutes plus 30 minutes. */
export const ATTACHMENT_LINK_LIFE: MediaLinkLife = { stepSeconds: 300, lifetimeSeconds: 30 * 60 }
/** Where the lessons' files are served: `${LESSON_MEDIA_PREFIX}{file}`. */
export const LESSON_MEDIA_PREFIX = '/media/lessons/'
/** Where a message's attachment is served to one of the two: `${ATTACHMENT_MEDIA_PREFIX}{attachment id}/{viewer's user id}`. */
export const ATTACHMENT_MEDIA_PREFIX = '/media/messages/'

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

/** When a URL signed at `nowMs` expires (unix seconds): for a lesson's, the next full hour after now plus 3 hours. */
export function mediaUrlExpiry(nowMs: number, life: MediaLinkLife = LESSON_LINK_LIFE): number {
  const nextStep = (Math.floor(nowMs / 1000 / life.stepSeconds) + 1) * life.stepSeconds
  return nextStep + life.lifetimeSeconds
}

function hmac(key: Buffer, path: string, expires: string): Buffer {
  return createHmac('sha256', key).update(`${path}\n${expires}`).digest()
}

/** The signature of `path` (e.g. "/media/lessons/sono-1.mp4") for a URL signed at `nowMs`. */
export function signMediaPath(key: Buffer, path: string, nowMs: number, life: MediaLinkLife = LESSON_LINK_LIFE): MediaSignature {
  const expires = mediaUrlExpiry(nowMs, life)
  return { expires, signature: hmac(key, path, String(expires)).toString('hex') }
}

/**
 * The signed URL of `path` on `base`: an origin or a URL prefix ("http://127.0.0.1:8000",
 * "https://cdn.example.com/innera"; a trailing slash is dropped). The signature covers `path` only,
 * not the base, so the provider and a CDN in front of it check the same thing.
 */
export function signedMediaUrl(base: string, path: string, key: Buffer, nowMs: number, life: MediaLinkLife = LESSON_LINK_LIFE): string {
  const { expires, signature } = signMediaPath(key, path, nowMs, life)
  return `${base.replace(/\/+$/, '')}${path}?expires=${expires}&signature=${signature}`
}

/** A lesson's file ("sono-1.mp4", "sono-1.pt.vtt"): signedMediaUrl of /media/lessons/{file}, and when that URL stops working (ms). */
export function signedLessonMedia(base: string, file: string, key: Buffer, nowMs: number): { url: string; expiresAt: number } {
  const path = `${LESSON_MEDIA_PREFIX}${file}`
  return { url: signedMediaUrl(base, path, key, nowMs), expiresAt: mediaUrlExpiry(nowMs) * 1000 }
}

/** An attachment's link for one viewer, signed for ATTACHMENT_LINK_LIFE, and when it stops working (ms). */
export function signedAttachmentMedia(base: string, attachmentId: number, viewerId: number, key: Buffer, nowMs: number): { url: string; expiresAt: number } {
  const path = `${ATTACHMENT_MEDIA_PREFIX}${attachmentId}/${viewerId}`
  return { url: signedMediaUrl(base, path, key, nowMs, ATTACHMENT_LINK_LIFE), expiresAt: mediaUrlExpiry(nowMs, ATTACHMENT_LINK_LIFE) * 1000 }
}

/**
 * True when `signature` signs `path` with `expires`, and `expires` is still ahead of `nowMs` by at
 * most the longest signMediaPath gives for `life` (4 hours for a lesson's). Missing, malformed (anything but what
 * signMediaPath writes: lowercase hex, plain decimal seconds), expired, too far ahead or wrong:
 * false. The comparison takes the same time wherever the signatures differ.
 */
export function verifyMediaSignature(key: Buffer, path: string, expires: string | undefined, signature: string | undefined, nowMs: number, life: MediaLinkLife = LESSON_LINK_LIFE): boolean {
  if (expires === undefined || signature === undefined) return false
  if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return false
  const expiresMs = Number(expires) * 1000
  if (expiresMs <= nowMs || expiresMs - nowMs > (life.stepSeconds + life.lifetimeSeconds) * 1000) return false
  return timingSafeEqual(hmac(key, path, expires), Buffer.from(signature, 'hex'))
}

/** How long a response to a URL expiring at `expires` may be cached: until then, at most the life's lifetime (3 hours for a lesson's; 0 when already past). */
export function mediaMaxAgeSeconds(expires: number, nowMs: number, life: MediaLinkLife = LESSON_LINK_LIFE): number {
  return Math.max(0, Math.min(life.lifetimeSeconds, Math.floor(expires - nowMs / 1000)))
}

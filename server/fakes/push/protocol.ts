import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto'

/**
 * The push service's half of Web Push, for the fake (decision 0087): the key pair and auth secret a
 * browser makes when it subscribes, the VAPID check a push service makes of a push's
 * Authorization (RFC 8292), and the decryption the browser makes of its aes128gcm body (RFC 8291,
 * RFC 8188), written from the RFCs with node:crypto, apart from the `web-push` library that encrypts.
 */

export const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
export const fromB64url = (text: string) => Buffer.from(text, 'base64url')

/** What PushManager.subscribe makes: a P-256 key pair (the public one uncompressed, 65 bytes) and a 16-byte auth secret. */
export function browserKeys(): { publicKey: string; privateKey: string; auth: string } {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const privateKey = Buffer.alloc(32)
  const raw = ecdh.getPrivateKey()
  raw.copy(privateKey, 32 - raw.length)
  return { publicKey: b64url(ecdh.getPublicKey()), privateKey: b64url(privateKey), auth: b64url(randomBytes(16)) }
}

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const mac = createHmac('sha256', key)
  for (const part of data) mac.update(part)
  return mac.digest()
}

/** Decrypts an aes128gcm push body for the browser holding `privateKey` and `auth` (one record, as pushes are at most 4 KB). */
export function decryptPush(body: Buffer, { publicKey, privateKey, auth }: { publicKey: string; privateKey: string; auth: string }): string {
  if (body.length < 21 + 65 + 17) throw new Error('body too short for aes128gcm')
  const salt = body.subarray(0, 16)
  const idLength = body[20]!
  const serverPublic = body.subarray(21, 21 + idLength)
  const ciphertext = body.subarray(21 + idLength)
  if (idLength !== 65) throw new Error('the keyid is not a P-256 public key')
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(fromB64url(privateKey))
  const secret = ecdh.computeSecret(serverPublic)
  const userPublic = fromB64url(publicKey)
  // RFC 8291 §3.4: IKM from the ECDH secret and the auth secret, then RFC 8188's key and nonce.
  const prkKey = hmac(fromB64url(auth), secret)
  const ikm = hmac(prkKey, Buffer.from('WebPush: info\0'), userPublic, serverPublic, Buffer.from([1]))
  const prk = hmac(salt, ikm)
  const key = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16)
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12)
  const decipher = createDecipheriv('aes-128-gcm', key, nonce)
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()])
  // The last record ends with the delimiter 2, then zero padding.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end -= 1
  if (padded[end] !== 2) throw new Error('no last-record delimiter')
  return padded.subarray(0, end).toString('utf8')
}

export type VapidCheck = { ok: true; publicKey: string; subject: string } | { ok: false; problem: string }

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`, the JWT ES256-signed by that key, its
 * `aud` the endpoint's origin, its `exp` in the future and at most 24 hours away, a `sub` contact.
 */
export function checkVapid(authorization: string | undefined, { audience, now }: { audience: string; now: number }): VapidCheck {
  const match = /^vapid\s+t=([A-Za-z0-9_.-]+)\s*,\s*k=([A-Za-z0-9_-]+)$/.exec(authorization?.trim() ?? '')
  if (!match) return { ok: false, problem: 'no vapid Authorization' }
  const [, token, key] = match as unknown as [string, string, string]
  const parts = token.split('.')
  if (parts.length !== 3) return { ok: false, problem: 'not a JWT' }
  const [header, claims, signature] = parts as [string, string, string]
  const raw = fromB64url(key)
  if (raw.length !== 65 || raw[0] !== 4) return { ok: false, problem: 'k is not a P-256 public key' }
  let valid = false
  try {
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) }, format: 'jwk' })
    valid = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, fromB64url(signature))
  } catch {
    valid = false
  }
  if (!valid) return { ok: false, problem: 'bad signature' }
  let parsed: { alg?: unknown; aud?: unknown; exp?: unknown; sub?: unknown }
  try {
    parsed = { ...JSON.parse(fromB64url(claims).toString('utf8')), alg: JSON.parse(fromB64url(header).toString('utf8')).alg }
  } catch {
    return { ok: false, problem: 'unreadable JWT' }
  }
  if (parsed.alg !== 'ES256') return { ok: false, problem: 'alg is not ES256' }
  if (parsed.aud !== audience) return { ok: false, problem: 'aud is not the push service' }
  const seconds = now / 1000
  if (typeof parsed.exp !== 'number' || parsed.exp <= seconds || parsed.exp > seconds + 24 * 3600) return { ok: false, problem: 'exp is past or more than 24 hours away' }
  if (typeof parsed.sub !== 'string' || !/^(mailto:|https:)/.test(parsed.sub)) return { ok: false, problem: 'sub is not a mailto: or https: contact' }
  return { ok: true, publicKey: key, subject: parsed.sub }
}

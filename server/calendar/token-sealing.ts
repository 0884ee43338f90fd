import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Google's refresh token opens the professional's calendar for as long as the grant lives, so it
 * is stored sealed: AES-256-GCM under a key derived (HKDF-SHA256) from PROVIDER_JWT_SECRET, which
 * the database never holds. A database dump alone gives no usable token; a changed secret makes
 * the stored tokens unreadable, which the connection treats like a revoked grant (reconnect).
 *
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */

const VERSION = 'v1'
const IV_BYTES = 12
// Who the key is for: a different purpose of the same secret gets a different key.
const KEY_INFO = 'innera google-calendar token sealing v1'

export type TokenSealer = { seal(plain: string): string; open(sealed: string): string }

export class UnreadableTokenError extends Error {
  constructor() {
    super('A stored Google token cannot be read (its key changed or it was altered).')
    this.name = 'UnreadableTokenError'
  }
}

export function createTokenSealer(secret: string): TokenSealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'innera', KEY_INFO, 32))
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.')
    },
    open(sealed) {
      const [version, iv, tag, ciphertext, ...rest] = sealed.split('.')
      if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) throw new UnreadableTokenError()
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
      } catch {
        throw new UnreadableTokenError()
      }
    },
  }
}

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Salted scrypt password hashes stored as `scrypt$N$r$p$salt$hash` (salt and hash in base64),
 * so the parameters can be raised later without breaking existing hashes.
 */
const DEFAULT_COST = { N: 16_384, r: 8, p: 1 }
const KEY_LENGTH = 32
const SALT_BYTES = 16

/** Django marks accounts without a password with a "!" prefix; nothing ever verifies against it. */
const UNUSABLE_PASSWORD_PREFIX = '!'

function deriveKey(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must cover 128 * N * r bytes, with room to spare.
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * options.N! * options.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

export async function hashPassword(password: string, cost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await deriveKey(password, salt, cost)
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  if (![N, r, p].every((value) => Number.isSafeInteger(value) && value > 0)) return false
  const salt = Buffer.from(parts[4]!, 'base64')
  const expected = Buffer.from(parts[5]!, 'base64')
  if (expected.length === 0) return false
  const actual = await deriveKey(password, salt, { N, r, p })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

export function makeUnusablePassword(): string {
  return UNUSABLE_PASSWORD_PREFIX + randomBytes(20).toString('base64url')
}

export function hasUsablePassword(stored: string): boolean {
  return !stored.startsWith(UNUSABLE_PASSWORD_PREFIX)
}

let dummyHash: Promise<string> | undefined

/**
 * Spends the time a real check would when the account does not exist, so response timing
 * does not reveal which e-mails are registered (Django does the same).
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('innera-timing-equaliser')
  await verifyPassword(password, await dummyHash)
  return false
}

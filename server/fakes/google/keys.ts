import { randomBytes } from 'node:crypto'
import { asc } from 'drizzle-orm'
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose'
import type { Database } from '#server/db/client.ts'
import { fakeGoogleKeys } from '#server/db/schema.ts'

type FakeGoogleKey = { kid: string; privateKey: CryptoKey; publicJwk: JWK }

const cache = new WeakMap<Database, Promise<FakeGoogleKey>>()

/**
 * The fake Google's RS256 signing key. Generated once and stored in the database, so tokens
 * survive restarts and every provider process sharing the database signs with the same key.
 * When two processes race to create it, the oldest row wins for both.
 */
export function fakeGoogleKey(db: Database): Promise<FakeGoogleKey> {
  let key = cache.get(db)
  if (!key) {
    key = loadOrCreate(db)
    key.catch(() => cache.delete(db))
    cache.set(db, key)
  }
  return key
}

async function loadOrCreate(db: Database): Promise<FakeGoogleKey> {
  let [row] = await db.select().from(fakeGoogleKeys).orderBy(asc(fakeGoogleKeys.createdAt), asc(fakeGoogleKeys.kid)).limit(1)
  if (!row) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 })
    const kid = randomBytes(20).toString('hex')
    await db
      .insert(fakeGoogleKeys)
      .values({ kid, privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) })
      .onConflictDoNothing()
    ;[row] = await db.select().from(fakeGoogleKeys).orderBy(asc(fakeGoogleKeys.createdAt), asc(fakeGoogleKeys.kid)).limit(1)
  }
  const publicJwk: JWK = { ...(row!.publicJwk as JWK), kid: row!.kid, alg: 'RS256', use: 'sig' }
  const privateKey = (await importJWK({ ...(row!.privateJwk as JWK), alg: 'RS256' }, 'RS256')) as CryptoKey
  return { kid: row!.kid, privateKey, publicJwk }
}

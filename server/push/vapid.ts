import webpush from 'web-push'
import type { ProviderConfig } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { pushVapidKeys } from '#server/db/schema.ts'

export type VapidKeys = { publicKey: string; privateKey: string }

/**
 * The key pair pushes are signed with (decision 0087): the operator's (VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY), else this install's own, made at its first start and kept in the database,
 * as the fakes' secrets are (decision 0073): every provider process sharing one PostgreSQL signs
 * with the same key, and a restart keeps it, so the browsers' subscriptions (bound to the public
 * key) stay valid. Two processes starting at once each insert theirs and keep whichever the
 * database took first. `made`: this call created it (for a log line; never the key).
 */
export async function resolveVapidKeys(db: Database, config: ProviderConfig): Promise<{ keys: VapidKeys; made: boolean }> {
  if (config.push.vapid) return { keys: config.push.vapid, made: false }
  const generated = webpush.generateVAPIDKeys()
  const inserted = await db.insert(pushVapidKeys).values({ id: 1, publicKey: generated.publicKey, privateKey: generated.privateKey }).onConflictDoNothing().returning({ id: pushVapidKeys.id })
  const [row] = await db.select().from(pushVapidKeys)
  if (!row) throw new Error('the VAPID keys could not be kept in the database')
  return { keys: { publicKey: row.publicKey, privateKey: row.privateKey }, made: inserted.length > 0 }
}

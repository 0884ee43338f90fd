import { sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { carts, type StoredCartLine } from '#server/db/schema.ts'

export type StoredCart = { lines: StoredCartLine[]; updatedAt: Date | null }

/** An account's cart; an account that never had one has an empty cart. */
export async function findCart(db: Database, userId: number): Promise<StoredCart> {
  const [row] = await db.select({ lines: carts.lines, updatedAt: carts.updatedAt }).from(carts).where(sql`${carts.userId} = ${userId}`)
  return row ?? { lines: [], updatedAt: null }
}

/**
 * Replaces an account's cart in one statement (an upsert on the account's key), so two writes at
 * once leave one of them whole, never a mix. An empty cart keeps its row, with its time.
 */
export async function replaceCart(db: Database, userId: number, lines: StoredCartLine[], now: Date): Promise<StoredCart> {
  const [row] = await db
    .insert(carts)
    .values({ userId, lines, updatedAt: now })
    .onConflictDoUpdate({ target: carts.userId, set: { lines, updatedAt: now } })
    .returning({ lines: carts.lines, updatedAt: carts.updatedAt })
  return row!
}

/**
 * Takes products out of an account's cart: what was just paid for (purchases/repository.ts calls
 * this in the transaction that grants them, so a paid cart empties exactly when it is paid, and a
 * declined one stays whole). `db` may be a transaction.
 */
export async function removeFromAccountCart(db: Pick<Database, 'update'>, userId: number, productIds: readonly number[], now: Date): Promise<void> {
  if (productIds.length === 0) return
  const paid = sql.join(
    productIds.map((id) => sql`${id}`),
    sql`, `,
  )
  await db
    .update(carts)
    .set({
      lines: sql`coalesce((select jsonb_agg(line order by position) from jsonb_array_elements(${carts.lines}) with ordinality as kept(line, position) where (line ->> 'product_id')::integer not in (${paid})), '[]'::jsonb)`,
      updatedAt: now,
    })
    .where(sql`${carts.userId} = ${userId}`)
}

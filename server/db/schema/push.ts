import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { users } from '#server/db/schema/accounts.ts'
import { createdAt } from '#server/db/schema/columns.ts'

/**
 * A browser a user opted in to Web Push on (issue 44, decision 0087): the push service's endpoint
 * and the keys its messages are encrypted for (the browser's P-256 key and auth secret, base64url).
 * Unique by endpoint (a browser is one subscription, whoever last subscribed on it); at most
 * PUSH_SUBSCRIPTIONS_PER_USER per user, the oldest dropped (push/subscriptions.ts).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: varchar('p256dh', { length: 100 }).notNull(),
    auth: varchar('auth', { length: 40 }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(table.endpoint),
    index('push_subscriptions_user_idx').on(table.userId, table.createdAt),
    check('push_subscriptions_endpoint_check', sql`char_length(${table.endpoint}) between 12 and 1024`),
  ],
)

/** The VAPID key pair pushes are signed with when the operator gives none (push/vapid.ts): one row. */
export const pushVapidKeys = pgTable(
  'push_vapid_keys',
  {
    id: integer('id').primaryKey(),
    publicKey: varchar('public_key', { length: 100 }).notNull(),
    privateKey: varchar('private_key', { length: 100 }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [check('push_vapid_keys_one_check', sql`${table.id} = 1`)],
)

import type { Database } from '#server/db/client.ts'

/**
 * A query prepared once per database (or transaction) and reused: drizzle builds its SQL once
 * instead of on every call, and PostgreSQL keeps the plan per connection. For the provider's
 * hottest lookups (every authenticated request runs one); `build` must call `.prepare(name)`.
 */
export function preparedQuery<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const prepared = new WeakMap<Database, Query>()
  return (db) => {
    let query = prepared.get(db)
    if (!query) prepared.set(db, (query = build(db)))
    return query
  }
}

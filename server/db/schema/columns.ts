import { sql } from 'drizzle-orm'
import { type AnyPgColumn, customType, timestamp } from 'drizzle-orm/pg-core'

/**
 * Binary column. PGlite hands back a Uint8Array and node-postgres a Buffer;
 * normalising to Buffer keeps the rest of the code driver-agnostic.
 */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
})

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export type LocalizedText = { pt: string; en: string; es: string }
/** Slugs (a product's, a category): lowercase letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$'
/** The admins' order numbers (products, courses, lessons): 0 to this. */
export const SORT_ORDER_MAX = 1_000_000

/**
 * A {pt, en, es} text of 1 to `max` characters in each language. A CHECK passes when its
 * expression is NULL, and a missing key reads as NULL: coalesce makes that a refusal.
 */
export const localizedTextCheck = (column: AnyPgColumn, max: number) =>
  sql.join(
    (['pt', 'en', 'es'] as const).map((language) => {
      const key = sql.raw(`'${language}'`)
      return sql`coalesce(jsonb_typeof(${column} -> ${key}) = 'string' and char_length(${column} ->> ${key}) between 1 and ${sql.raw(String(max))}, false)`
    }),
    sql` and `,
  )

export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

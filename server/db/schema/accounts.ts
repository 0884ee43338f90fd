import { sql } from 'drizzle-orm'
import { boolean, date, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { bytea, createdAt } from '#server/db/schema/columns.ts'

export const groups = pgTable('groups', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 150 }).notNull().unique(),
})

export const photos = pgTable('photos', {
  // The public file name, e.g. "3f6c…e1.webp": random, so URLs can be cached forever.
  name: varchar('name', { length: 64 }).primaryKey(),
  contentType: varchar('content_type', { length: 32 }).notNull(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
})

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 150 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    // `scrypt$N$r$p$salt$hash`, or a value starting with "!" for accounts that cannot log in with a password.
    password: varchar('password', { length: 255 }).notNull(),
    firstName: varchar('first_name', { length: 150 }).notNull().default(''),
    lastName: varchar('last_name', { length: 150 }).notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    emailVerified: boolean('email_verified').notNull().default(false),
    googleSubject: varchar('google_subject', { length: 255 }),
    phone: varchar('phone', { length: 32 }).notNull().default(''),
    birthDate: date('birth_date', { mode: 'string' }),
    bio: text('bio').notNull().default(''),
    specialty: varchar('specialty', { length: 150 }).notNull().default(''),
    // IANA name: where the user reads times (appointments are stored in UTC).
    timeZone: varchar('time_zone', { length: 64 }).notNull().default('America/Sao_Paulo'),
    photoName: varchar('photo_name', { length: 64 }).references(() => photos.name, { onDelete: 'set null' }),
    dateJoined: timestamp('date_joined', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastLogin: timestamp('last_login', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('users_username_unique').on(table.username),
    // Django looks e-mails up with iexact: two accounts must never differ only in case.
    uniqueIndex('users_email_lower_unique').on(sql`lower(${table.email})`),
    uniqueIndex('users_google_subject_unique').on(table.googleSubject),
  ],
)

export const userGroups = pgTable(
  'user_groups',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.groupId] })],
)

/**
 * One signed-in session: every JWT carries its id (`sid`), so logging out, changing or resetting
 * the password revokes tokens that would otherwise live until they expire. In the database, so
 * every provider process sharing it agrees at once.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    // 32 random bytes, base64url: not guessable, so knowing a user id never names a session.
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('auth_sessions_user_idx').on(table.userId)],
)

/**
 * Password-reset links: only the token's SHA-256 is stored, so a database leak gives no usable
 * link. Single use (used_at), one hour (expires_at), and dead after too many refused passwords.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    failedAttempts: integer('failed_attempts').notNull().default(0),
  },
  (table) => [uniqueIndex('password_reset_tokens_hash_unique').on(table.tokenHash), index('password_reset_tokens_user_idx').on(table.userId)],
)

/** Which patients a professional follows (many-to-many). */
export const professionalPatients = pgTable(
  'professional_patients',
  {
    professionalId: integer('professional_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    patientId: integer('patient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.professionalId, table.patientId] }),
    index('professional_patients_patient_idx').on(table.patientId),
  ],
)
/** The three groups an account belongs to (docs/product.md §6): the roles. */
export const GROUP_NAMES = ['admin', 'profissional', 'paciente'] as const
export type GroupName = (typeof GROUP_NAMES)[number]

import { sql } from 'drizzle-orm'
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core'

/**
 * Binary column. PGlite hands back a Uint8Array and node-postgres a Buffer;
 * normalising to Buffer keeps the rest of the code driver-agnostic.
 */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
})

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export type LocalizedText = { pt: string; en: string; es: string }

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

export const pillars = pgTable('pillars', {
  id: serial('id').primaryKey(),
  slug: varchar('slug', { length: 50 }).notNull().unique(),
  order: integer('order').notNull(),
  icon: varchar('icon', { length: 50 }).notNull(),
  position: varchar('position', { length: 5 }).$type<'left' | 'right'>().notNull(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  description: jsonb('description').$type<LocalizedText>().notNull(),
})

/** Every e-mail the provider sends. Read back by the dev mailbox; a real mailer would drain it. */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    to: varchar('to', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    createdAt: createdAt(),
  },
  (table) => [index('outbox_to_idx').on(table.to)],
)

/** The fake Google's RS256 signing key, kept in the database so restarts and sibling processes agree. */
export const fakeGoogleKeys = pgTable('fake_google_keys', {
  kid: varchar('kid', { length: 64 }).primaryKey(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
})

/** Authorization codes issued by the fake Google: single use, five minutes. */
export const fakeGoogleCodes = pgTable('fake_google_codes', {
  code: varchar('code', { length: 64 }).primaryKey(),
  clientId: varchar('client_id', { length: 255 }).notNull(),
  redirectUri: text('redirect_uri').notNull(),
  scope: text('scope').notNull(),
  nonce: text('nonce'),
  subject: varchar('subject', { length: 255 }).notNull(),
  email: varchar('email', { length: 254 }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
})

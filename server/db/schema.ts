import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
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

export const pillars = pgTable('pillars', {
  id: serial('id').primaryKey(),
  slug: varchar('slug', { length: 50 }).notNull().unique(),
  order: integer('order').notNull(),
  icon: varchar('icon', { length: 50 }).notNull(),
  position: varchar('position', { length: 5 }).$type<'left' | 'right'>().notNull(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  description: jsonb('description').$type<LocalizedText>().notNull(),
})

/**
 * Every e-mail the provider sends. The dev mailbox reads it back; with SMTP_URL set the delivery
 * worker (mail/delivery.ts) sends each row once: it leases a row (`sending_until`) with one
 * UPDATE … RETURNING, sends, and marks `sent_at`; a failure counts an attempt and waits until
 * `next_attempt_at` (exponential backoff) or, for good, sets `failed_at`.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    to: varchar('to', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    // The last delivery failure, as the worker wrote it: never a credential or the message body.
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // While in the future, one worker is sending this row and no other may take it.
    sendingUntil: timestamp('sending_until', { withTimezone: true, mode: 'date' }),
    // Messages about one appointment to one person (`appointment:{id}:{recipient}`): while one waits
    // out its hold (next_attempt_at), a newer one replaces it (mail/collapse.ts); cleared once the hold is over.
    collapseKey: varchar('collapse_key', { length: 64 }),
    // What the waiting message tells (booked, moved from, cancelled), for the newer one to merge with.
    collapseState: jsonb('collapse_state'),
    // Whose action made this message: an hourly bound per person (decision 0035).
    causedBy: integer('caused_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('outbox_to_idx').on(table.to),
    index('outbox_pending_idx').on(table.nextAttemptAt, table.id).where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
    // At most one waiting, never-tried message per key: the row a newer message replaces.
    uniqueIndex('outbox_collapse_pending_unique')
      .on(table.collapseKey)
      .where(sql`${table.collapseKey} is not null and ${table.sentAt} is null and ${table.failedAt} is null and ${table.attempts} = 0`),
    index('outbox_caused_by_created_idx').on(table.causedBy, table.createdAt).where(sql`${table.causedBy} is not null`),
  ],
)

/** The fake Google's RS256 signing key, kept in the database so restarts and sibling processes agree. */
export const fakeGoogleKeys = pgTable('fake_google_keys', {
  kid: varchar('kid', { length: 64 }).primaryKey(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
})

/**
 * The fakes' own secrets (decision 0073): made at the first start with a fake on unless the
 * environment gives them, kept here so restarts and sibling processes agree (fakes/secrets.ts).
 */
export const fakeSecrets = pgTable(
  'fake_secrets',
  {
    name: varchar('name', { length: 40 }).primaryKey(),
    value: text('value').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('fake_secrets_name_check', sql`${table.name} in ('stripe_secret_key', 'stripe_webhook_secret', 'zoom_client_secret', 'google_client_secret')`),
    check('fake_secrets_value_check', sql`length(${table.value}) between 32 and 200`),
  ],
)

/** Authorization codes issued by the fake Google: single use, five minutes. */
export const fakeGoogleCodes = pgTable('fake_google_codes', {
  code: varchar('code', { length: 64 }).primaryKey(),
  clientId: varchar('client_id', { length: 255 }).notNull(),
  redirectUri: text('redirect_uri').notNull(),
  scope: text('scope').notNull(),
  nonce: text('nonce'),
  // "offline": the exchange also grants a refresh token (the calendar connection asks for one).
  accessType: varchar('access_type', { length: 20 }),
  subject: varchar('subject', { length: 255 }).notNull(),
  email: varchar('email', { length: 254 }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
})

/**
 * Offline grants of the fake Google (a refresh token and the access tokens minted from it). Only
 * the refresh token's SHA-256 is kept; revoking the grant (revoke endpoint, dev helper) makes both
 * kinds of token fail as Google's do: invalid_grant on refresh, 401 on the Calendar API.
 */
export const fakeGoogleGrants = pgTable(
  'fake_google_grants',
  {
    id: serial('id').primaryKey(),
    subject: varchar('subject', { length: 255 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    clientId: varchar('client_id', { length: 255 }).notNull(),
    scope: text('scope').notNull(),
    refreshTokenHash: varchar('refresh_token_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('fake_google_grants_refresh_token_hash_unique').on(table.refreshTokenHash), index('fake_google_grants_subject_idx').on(table.subject)],
)

/** The primary calendar of a fake Google account: its id is the account's e-mail, as at Google. */
export const fakeGoogleCalendars = pgTable('fake_google_calendars', {
  subject: varchar('subject', { length: 255 }).primaryKey(),
  email: varchar('email', { length: 254 }).notNull(),
  timeZone: varchar('time_zone', { length: 64 }).notNull().default('America/Sao_Paulo'),
  createdAt: createdAt(),
})

/** Every write to a fake calendar event takes the next number: sync tokens are a position in it. */
export const fakeGoogleEventChanges = pgSequence('fake_google_event_changes')

/**
 * Events of the fake Google calendars, as Google's event resource (`resource`), with the columns
 * the queries need beside it. A deleted event stays, `cancelled`, so incremental syncs report it.
 */
export const fakeGoogleEvents = pgTable(
  'fake_google_events',
  {
    id: serial('id').primaryKey(),
    subject: varchar('subject', { length: 255 }).notNull(),
    eventId: varchar('event_id', { length: 1024 }).notNull(),
    resource: jsonb('resource').$type<Record<string, unknown>>().notNull(),
    status: varchar('status', { length: 20 }).notNull(),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }).notNull(),
    changeSeq: bigint('change_seq', { mode: 'number' }).notNull(),
  },
  (table) => [
    uniqueIndex('fake_google_events_subject_event_unique').on(table.subject, table.eventId),
    index('fake_google_events_subject_start_idx').on(table.subject, table.startAt, table.id),
    index('fake_google_events_subject_change_idx').on(table.subject, table.changeSeq),
  ],
)

/** nextSyncTokens the fake handed out: changes after `watermark`; an expired one answers 410. */
export const fakeGoogleSyncTokens = pgTable('fake_google_sync_tokens', {
  token: varchar('token', { length: 64 }).primaryKey(),
  subject: varchar('subject', { length: 255 }).notNull(),
  watermark: bigint('watermark', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
  expiredAt: timestamp('expired_at', { withTimezone: true, mode: 'date' }),
})

/**
 * The fake Stripe's objects (decision 0046): customers, payment methods, payment intents,
 * charges, refunds, checkout sessions, products, prices, subscriptions and events, each as
 * Stripe's JSON (`data`) under its Stripe id, so every provider process and every restart sees
 * the same ones.
 */
export const fakeStripeObjects = pgTable(
  'fake_stripe_objects',
  {
    id: varchar('id', { length: 255 }).primaryKey(),
    // Stripe's `object`: "payment_intent", "charge", "event", …
    type: varchar('type', { length: 40 }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('fake_stripe_objects_type_created_idx').on(table.type, table.createdAt, table.id)],
)

/**
 * The fake Stripe's idempotency keys: a POST with a key seen in the last 24 hours and the same
 * parameters gets the first answer again (`status` null while the first one runs).
 */
export const fakeStripeIdempotencyKeys = pgTable('fake_stripe_idempotency_keys', {
  key: varchar('key', { length: 255 }).primaryKey(),
  requestHash: varchar('request_hash', { length: 64 }).notNull(),
  status: integer('status'),
  body: jsonb('body'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
})

/**
 * Webhook deliveries of the fake Stripe: one row per sending of an event to the endpoint,
 * retried with backoff until answered 2xx; a `duplicate` row sends a delivered event once more,
 * as Stripe may. Claimed with a lease (`sending_until`), like the outbox.
 */
export const fakeStripeDeliveries = pgTable(
  'fake_stripe_deliveries',
  {
    id: serial('id').primaryKey(),
    eventId: varchar('event_id', { length: 255 }).notNull(),
    url: text('url').notNull(),
    duplicate: boolean('duplicate').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    sendingUntil: timestamp('sending_until', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    // The endpoint's last answer ("HTTP 500") or why there was none ("timeout"); never the body.
    lastError: varchar('last_error', { length: 200 }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    index('fake_stripe_deliveries_pending_idx').on(table.nextAttemptAt, table.id).where(sql`${table.deliveredAt} is null and ${table.failedAt} is null`),
    index('fake_stripe_deliveries_event_idx').on(table.eventId),
  ],
)

/** What visitors write through the contact form; admins read it and mark it handled. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 150 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    phone: varchar('phone', { length: 30 }).notNull().default(''),
    subject: varchar('subject', { length: 20 }).$type<'patient' | 'professional' | 'company' | 'partnership' | 'other'>().notNull(),
    message: text('message').notNull(),
    handled: boolean('handled').notNull().default(false),
    handledAt: timestamp('handled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [index('contact_messages_created_idx').on(table.createdAt), index('contact_messages_handled_idx').on(table.handled)],
)

export type QuestionOption = { value: number; label: LocalizedText }

/** A published version of the health assessment. Its questions never change once published. */
export const questionnaireVersions = pgTable(
  'questionnaire_versions',
  {
    version: varchar('version', { length: 20 }).primaryKey(),
    isCurrent: boolean('is_current').notNull().default(false),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    estimatedMinutes: integer('estimated_minutes').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // At most one version is the one patients answer.
  (table) => [uniqueIndex('questionnaire_versions_one_current').on(table.isCurrent).where(sql`${table.isCurrent}`)],
)

/** Likert items (five options, values 0-4) of one version; `reverse` items score 4 - value. */
export const questionnaireQuestions = pgTable(
  'questionnaire_questions',
  {
    id: serial('id').primaryKey(),
    version: varchar('version', { length: 20 })
      .notNull()
      .references(() => questionnaireVersions.version, { onDelete: 'cascade' }),
    code: varchar('code', { length: 64 }).notNull(),
    pillarSlug: varchar('pillar_slug', { length: 50 })
      .notNull()
      .references(() => pillars.slug),
    order: integer('order').notNull(),
    text: jsonb('text').$type<LocalizedText>().notNull(),
    options: jsonb('options').$type<QuestionOption[]>().notNull(),
    reverse: boolean('reverse').notNull().default(false),
  },
  (table) => [uniqueIndex('questionnaire_questions_version_code_unique').on(table.version, table.code)],
)

/** One submission of the assessment: the answers by question code and the scores by pillar slug. */
export const questionnaireResults = pgTable(
  'questionnaire_results',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: varchar('version', { length: 20 })
      .notNull()
      .references(() => questionnaireVersions.version),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    answers: jsonb('answers').$type<Record<string, number>>().notNull(),
    scores: jsonb('scores').$type<Record<string, number>>().notNull(),
    focusPillars: jsonb('focus_pillars').$type<string[]>().notNull(),
  },
  (table) => [index('questionnaire_results_user_submitted_idx').on(table.userId, table.submittedAt)],
)

/** Which professionals a patient has shared a result with. */
export const questionnaireShares = pgTable(
  'questionnaire_shares',
  {
    resultId: integer('result_id')
      .notNull()
      .references(() => questionnaireResults.id, { onDelete: 'cascade' }),
    professionalId: integer('professional_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.resultId, table.professionalId] }),
    index('questionnaire_shares_professional_idx').on(table.professionalId),
  ],
)

/** A patient's 8-12 week program; the newest one is their current program. */
export const programs = pgTable(
  'programs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The result it was built from; null when the patient chose the focus pillars themselves.
    resultId: integer('result_id').references(() => questionnaireResults.id, { onDelete: 'set null' }),
    source: varchar('source', { length: 20 }).$type<'questionnaire' | 'selection'>().notNull(),
    createdAt: createdAt(),
    // The first day of week 1, in America/Sao_Paulo.
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    weeks: integer('weeks').notNull(),
    focusPillars: jsonb('focus_pillars').$type<string[]>().notNull(),
    pillarsOrder: jsonb('pillars_order').$type<string[]>().notNull(),
  },
  (table) => [index('programs_user_created_idx').on(table.userId, table.createdAt)],
)

/** The weekly goals of a program, texts copied from the goal library when it was built. */
export const programGoals = pgTable(
  'program_goals',
  {
    id: serial('id').primaryKey(),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    week: integer('week').notNull(),
    position: integer('position').notNull(),
    pillarSlug: varchar('pillar_slug', { length: 50 }).notNull(),
    level: integer('level').notNull(),
    focus: boolean('focus').notNull(),
    text: jsonb('text').$type<LocalizedText>().notNull(),
    done: boolean('done').notNull().default(false),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('program_goals_program_idx').on(table.programId, table.week, table.position)],
)

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]
/** A period of a day in wall time: "HH:MM" to "HH:MM" ("24:00" allowed as an end). */
export type TimeSlot = { start: string; end: string }
/** docs/product.md §3's availability: per weekday, whether it is open and its slots. */
export type WeeklyAvailability = Record<Weekday, { enabled: boolean; slots: TimeSlot[] }>

/**
 * A professional's profile and schedule (decision 0023). One row per professional; having one
 * (and `accredited`) is what puts them in the booking directory. Bio stays on users.
 */
export const professionalProfiles = pgTable('professional_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  profession: varchar('profession', { length: 150 }).notNull().default(''),
  registrationNumber: varchar('registration_number', { length: 50 }).notNull().default(''),
  pillars: jsonb('pillars').$type<string[]>().notNull().default([]),
  languages: jsonb('languages').$type<string[]>().notNull().default(['pt']),
  consultationMinutes: integer('consultation_minutes').notNull().default(50),
  priceCents: integer('price_cents').notNull().default(0),
  bufferMinutes: integer('buffer_minutes').notNull().default(0),
  minimumNoticeHours: integer('minimum_notice_hours').notNull().default(12),
  horizonDays: integer('horizon_days').notNull().default(60),
  timeZone: varchar('time_zone', { length: 64 }).notNull().default('America/Sao_Paulo'),
  availability: jsonb('availability').$type<WeeklyAvailability>().notNull(),
  accredited: boolean('accredited').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})

/** A date with other hours than its weekday's: empty slots are a day off. */
export const scheduleExceptions = pgTable(
  'schedule_exceptions',
  {
    id: serial('id').primaryKey(),
    professionalId: integer('professional_id')
      .notNull()
      .references(() => professionalProfiles.userId, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    slots: jsonb('slots').$type<TimeSlot[]>().notNull(),
  },
  (table) => [uniqueIndex('schedule_exceptions_professional_date_unique').on(table.professionalId, table.date)],
)

/** `awaiting_payment`: a paid consultation's time held while its payment is open (decision 0051). */
export const APPOINTMENT_STATUSES = ['awaiting_payment', 'scheduled', 'confirmed', 'completed', 'cancelled', 'no_show'] as const
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number]
export type CancelledBy = 'patient' | 'professional' | 'admin'
export type Refund = 'full' | 'none'

/**
 * Consultations. `blocked_until` is the end plus the buffer the professional had when it was
 * booked; the migration adds an exclusion constraint (appointments_no_overlap) so two live
 * appointments of one professional never overlap on [start_time, blocked_until), whichever
 * process inserts them.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: serial('id').primaryKey(),
    professionalId: integer('professional_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    patientId: integer('patient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startTime: timestamp('start_time', { withTimezone: true, mode: 'date' }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true, mode: 'date' }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }).notNull(),
    status: varchar('status', { length: 20 }).$type<AppointmentStatus>().notNull().default('scheduled'),
    notes: text('notes').notNull().default(''),
    sharedNotes: text('shared_notes').notNull().default(''),
    // The professional's own consultation notes: never shown to the patient.
    privateNotes: text('private_notes').notNull().default(''),
    meetingLink: varchar('meeting_link', { length: 255 }).notNull(),
    paymentReference: varchar('payment_reference', { length: 100 }),
    // A paid consultation (decision 0051): its price as booked (null: free), the purchase that pays
    // it or the package credit it used (never both), and until when its time is held unpaid.
    priceCents: integer('price_cents'),
    purchaseId: integer('purchase_id').references((): AnyPgColumn => purchases.id),
    creditId: integer('credit_id').references((): AnyPgColumn => consultationCredits.id),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    cancelledBy: varchar('cancelled_by', { length: 20 }).$type<CancelledBy>(),
    cancellationReason: text('cancellation_reason').notNull().default(''),
    refund: varchar('refund', { length: 10 }).$type<Refund>(),
    // The event mirroring it in the professional's Google calendar (calendar/appointment-events.ts).
    googleEventId: varchar('google_event_id', { length: 1024 }),
    // The booking form's key (decision 0034): the same key from the same patient is the same booking.
    idempotencyKey: varchar('idempotency_key', { length: 64 }),
    // The key of the reschedule that last moved it: the same key again changes nothing.
    rescheduleKey: varchar('reschedule_key', { length: 64 }),
  },
  (table) => [
    index('appointments_professional_start_idx').on(table.professionalId, table.startTime),
    uniqueIndex('appointments_patient_idempotency_key_unique').on(table.patientId, table.idempotencyKey).where(sql`${table.idempotencyKey} is not null`),
    index('appointments_patient_start_idx').on(table.patientId, table.startTime),
    uniqueIndex('appointments_purchase_unique').on(table.purchaseId).where(sql`${table.purchaseId} is not null`),
    index('appointments_credit_idx').on(table.creditId).where(sql`${table.creditId} is not null`),
    check('appointments_status_check', sql`${table.status} in ('awaiting_payment', 'scheduled', 'confirmed', 'completed', 'cancelled', 'no_show')`),
    check('appointments_price_check', sql`${table.priceCents} is null or (${table.priceCents} > 0 and ${table.priceCents} <= 99999999)`),
    check('appointments_payment_check', sql`${table.purchaseId} is null or ${table.creditId} is null`),
    check('appointments_hold_check', sql`${table.status} <> 'awaiting_payment' or (${table.holdExpiresAt} is not null and ${table.purchaseId} is not null)`),
    check('appointments_times_check', sql`${table.endTime} > ${table.startTime} and ${table.blockedUntil} >= ${table.endTime}`),
    check('appointments_cancelled_by_check', sql`${table.cancelledBy} is null or ${table.cancelledBy} in ('patient', 'professional', 'admin')`),
    check('appointments_refund_check', sql`${table.refund} is null or ${table.refund} in ('full', 'none')`),
  ],
)

export const SCHEDULED_MESSAGE_KINDS = ['confirmation', 'reminder_24h', 'reminder_1h'] as const
export type ScheduledMessageKind = (typeof SCHEDULED_MESSAGE_KINDS)[number]
export type MessageRecipient = 'patient' | 'professional'
/** pending: waits for due_at; sent: turned into an outbox row; cancelled: the appointment was; skipped: too late or nobody to tell. */
export type ScheduledMessageStatus = 'pending' | 'sent' | 'cancelled' | 'skipped'

/**
 * The e-mails an appointment schedules (issue 12): a confirmation at booking and reminders 24 h
 * and 1 h before, to each of its two people. One row per (appointment, kind, recipient), enforced
 * here; a due row becomes an outbox message exactly once, whichever process claims it
 * (appointments/reminders.ts). Moving the appointment moves the pending rows; cancelling it
 * cancels them.
 */
export const scheduledMessages = pgTable(
  'scheduled_messages',
  {
    id: serial('id').primaryKey(),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 20 }).$type<ScheduledMessageKind>().notNull(),
    recipient: varchar('recipient', { length: 20 }).$type<MessageRecipient>().notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    status: varchar('status', { length: 20 }).$type<ScheduledMessageStatus>().notNull().default('pending'),
    outboxId: integer('outbox_id').references(() => outbox.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('scheduled_messages_appointment_kind_recipient_unique').on(table.appointmentId, table.kind, table.recipient),
    index('scheduled_messages_due_idx').on(table.dueAt, table.id).where(sql`${table.status} = 'pending'`),
    check('scheduled_messages_kind_check', sql`${table.kind} in ('confirmation', 'reminder_24h', 'reminder_1h')`),
    check('scheduled_messages_recipient_check', sql`${table.recipient} in ('patient', 'professional')`),
    check('scheduled_messages_status_check', sql`${table.status} in ('pending', 'sent', 'cancelled', 'skipped')`),
  ],
)

/**
 * A user's private calendar feed (issue 12): the URL's secret is 32 random bytes of which only the
 * SHA-256 is kept. One per user; creating another replaces it, deleting the row revokes it.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('calendar_feeds_token_hash_unique').on(table.tokenHash)],
)

/** A Google event time: a `dateTime` with its offset (timed) or a `date` (all-day, end exclusive). */
export type GoogleEventTime = { dateTime?: string; date?: string; timeZone?: string }
export type GoogleAttendee = { email: string; displayName?: string; responseStatus?: string; self?: boolean }

/**
 * A professional's Google Calendar connection (decision 0025). The refresh token (and the cached
 * access token) are sealed with AES-256-GCM under a key derived from PROVIDER_JWT_SECRET
 * (calendar/token-sealing.ts). `token_valid` turns false when Google answers invalid_grant (the
 * grant was revoked or expired): the professional must connect again. A sync holds the lease
 * (`sync_lease_id` until `sync_lease_until`), so one sync of a calendar runs at a time across
 * processes.
 */
export const calendarConnections = pgTable(
  'calendar_connections',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    googleEmail: varchar('google_email', { length: 254 }),
    primaryCalendarId: varchar('primary_calendar_id', { length: 1024 }),
    // The calendar's own zone: where its all-day events begin and end.
    calendarTimeZone: varchar('calendar_time_zone', { length: 64 }),
    refreshTokenSealed: text('refresh_token_sealed').notNull(),
    accessTokenSealed: text('access_token_sealed'),
    // As Google's client library counts it (the wall clock), only to reuse the access token.
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true, mode: 'date' }),
    scope: text('scope').notNull().default(''),
    tokenValid: boolean('token_valid').notNull().default(true),
    syncToken: text('sync_token'),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true, mode: 'date' }),
    syncStartedAt: timestamp('sync_started_at', { withTimezone: true, mode: 'date' }),
    syncLeaseId: varchar('sync_lease_id', { length: 64 }),
    syncLeaseUntil: timestamp('sync_lease_until', { withTimezone: true, mode: 'date' }),
    connectedAt: createdAt(),
  },
  (table) => [index('calendar_connections_last_sync_idx').on(table.lastSyncAt).where(sql`${table.tokenValid}`)],
)

/**
 * The synced copy of each connected professional's primary calendar: what GET /calendar/ reads
 * within the cache time and what free times count as busy (decision 0026). Cancelled events are
 * not kept. `start_at`/`end_at` are instants (an all-day event's dates at midnight in the
 * calendar's zone); `start`/`end` are Google's own.
 */
export const calendarEvents = pgTable(
  'calendar_events',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    googleEventId: varchar('google_event_id', { length: 1024 }).notNull(),
    summary: text('summary').notNull().default(''),
    description: text('description').notNull().default(''),
    location: text('location').notNull().default(''),
    start: jsonb('start').$type<GoogleEventTime>().notNull(),
    end: jsonb('end').$type<GoogleEventTime>().notNull(),
    startAt: timestamp('start_at', { withTimezone: true, mode: 'date' }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true, mode: 'date' }).notNull(),
    allDay: boolean('all_day').notNull(),
    status: varchar('status', { length: 20 }).notNull(),
    transparency: varchar('transparency', { length: 20 }).notNull().default('opaque'),
    attendees: jsonb('attendees').$type<GoogleAttendee[]>().notNull().default([]),
    // The calendar owner's answer when the event is an invitation (accepted, declined, …).
    selfResponseStatus: varchar('self_response_status', { length: 20 }),
    htmlLink: text('html_link'),
    colorId: varchar('color_id', { length: 20 }),
    // Set on the events the product writes for its appointments (no foreign key: the event outlives a deleted appointment until the hook removes it).
    inneraAppointmentId: integer('innera_appointment_id'),
    createdByInnera: boolean('created_by_innera').notNull().default(false),
  },
  (table) => [
    uniqueIndex('calendar_events_user_event_unique').on(table.userId, table.googleEventId),
    index('calendar_events_user_start_idx').on(table.userId, table.startAt),
  ],
)

/**
 * The notes a professional typed for an event of their calendar (decision 0029): kept here only,
 * never written to Google (they may hold health details: LGPD). Keyed by the event's Google id,
 * apart from the synced copy, so no sync rewrites them; an event that leaves the synced copy
 * (deleted here or at Google, a disconnect) takes its notes along.
 */
export const calendarEventNotes = pgTable(
  'calendar_event_notes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    googleEventId: varchar('google_event_id', { length: 1024 }).notNull(),
    notes: text('notes').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.googleEventId] })],
)

/** How often a habit is due (decision 0027): every day, chosen weekdays, or N times a week (Monday to Sunday). */
export type HabitFrequency = { kind: 'daily' } | { kind: 'weekdays'; days: Weekday[] } | { kind: 'weekly'; times: number }
export type HabitEntryStatus = 'done' | 'not_done' | 'skipped'

/**
 * A patient's habit (issue 14): one pillar, a frequency, an optional numeric target with its unit
 * and an optional reminder time (wall time in the user's zone). Archived habits keep their history.
 */
export const habits = pgTable(
  'habits',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pillarSlug: varchar('pillar_slug', { length: 50 }).notNull(),
    name: varchar('name', { length: 120 }).notNull(),
    frequency: jsonb('frequency').$type<HabitFrequency>().notNull(),
    target: doublePrecision('target'),
    unit: varchar('unit', { length: 30 }).notNull().default(''),
    // "HH:MM" in the user's time zone, or null for no reminder.
    reminderTime: varchar('reminder_time', { length: 5 }),
    // The user's local date the habit was made on: no day before it is due.
    createdOn: date('created_on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    archivedAt: timestamp('archived_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('habits_user_idx').on(table.userId, table.archivedAt)],
)

/** One answer per habit and local date: the primary key makes a day count once, whatever the retries or processes. */
export const habitEntries = pgTable(
  'habit_entries',
  {
    habitId: integer('habit_id')
      .notNull()
      .references(() => habits.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    status: varchar('status', { length: 10 }).$type<HabitEntryStatus>().notNull(),
    amount: doublePrecision('amount'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.habitId, table.date] }), check('habit_entries_status_check', sql`${table.status} in ('done', 'not_done', 'skipped')`)],
)

/** The reminder of one habit on one local date, sent once: the primary key is the "exactly once" across processes. */
export const habitReminders = pgTable(
  'habit_reminders',
  {
    habitId: integer('habit_id')
      .notNull()
      .references(() => habits.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.habitId, table.date] })],
)

export const PRODUCT_TYPES = ['consultation_package', 'program', 'course', 'digital_material', 'subscription'] as const
export type ProductType = (typeof PRODUCT_TYPES)[number]
export const PLAN_INTERVALS = ['monthly', 'yearly', 'trial', 'program'] as const
export type PlanInterval = (typeof PLAN_INTERVALS)[number]
/** A consultation package holds one of these numbers of consultations. */
export const PACKAGE_SIZES = [1, 4, 8] as const
/** Prices are integer cents of BRL, from R$ 0,01 to R$ 100.000,00. */
export const MAX_PRICE_CENTS = 10_000_000
/** Slugs (a product's, a category): lowercase letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$'
/** The admins' order numbers (products, courses, lessons): 0 to this. */
export const SORT_ORDER_MAX = 1_000_000
export const PRODUCT_NAME_MAX = 120
export const PRODUCT_DESCRIPTION_MAX = 2000

/**
 * A {pt, en, es} text of 1 to `max` characters in each language. A CHECK passes when its
 * expression is NULL, and a missing key reads as NULL: coalesce makes that a refusal.
 */
const localizedTextCheck = (column: AnyPgColumn, max: number) =>
  sql.join(
    (['pt', 'en', 'es'] as const).map((language) => {
      const key = sql.raw(`'${language}'`)
      return sql`coalesce(jsonb_typeof(${column} -> ${key}) = 'string' and char_length(${column} ->> ${key}) between 1 and ${sql.raw(String(max))}, false)`
    }),
    sql` and `,
  )

/**
 * The solutions catalogue (issue 24, decision 0045): what the platform sells. The type decides
 * which of the type-specific columns hold a value, and the CHECK constraints make every other
 * combination impossible to store: consultations (1, 4 or 8) and an optional professional (null:
 * any professional) only for a consultation package; weeks (8-12) for a program and for a
 * program-specific subscription; a plan interval and trial days (0-90, at least 1 for a trial)
 * only for a subscription. Inactive products are kept (purchases will point at them) and hidden.
 */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    // A stable, readable identity: the seed's key ("never duplicated") and a name for URLs.
    slug: varchar('slug', { length: 80 }).notNull().unique(),
    productType: varchar('product_type', { length: 30 }).$type<ProductType>().notNull(),
    category: varchar('category', { length: 40 }).notNull(),
    pillarSlug: varchar('pillar_slug', { length: 50 }).references(() => pillars.slug),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    priceCents: integer('price_cents').notNull(),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    consultations: integer('consultations'),
    professionalId: integer('professional_id').references(() => users.id, { onDelete: 'cascade' }),
    weeks: integer('weeks'),
    planInterval: varchar('plan_interval', { length: 10 }).$type<PlanInterval>(),
    trialDays: integer('trial_days'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('products_listing_idx').on(table.sortOrder, table.id).where(sql`${table.active}`),
    index('products_pillar_idx').on(table.pillarSlug),
    index('products_professional_idx').on(table.professionalId),
    check('products_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('products_type_check', sql`${table.productType} in ('consultation_package', 'program', 'course', 'digital_material', 'subscription')`),
    check('products_category_check', sql`${table.category} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('products_name_check', localizedTextCheck(table.name, PRODUCT_NAME_MAX)),
    check('products_description_check', localizedTextCheck(table.description, PRODUCT_DESCRIPTION_MAX)),
    check('products_price_check', sql`${table.priceCents} > 0 and ${table.priceCents} <= ${sql.raw(String(MAX_PRICE_CENTS))}`),
    check('products_sort_order_check', sql`${table.sortOrder} between 0 and 1000000`),
    // Each rule is written so that a NULL never makes it pass (a CHECK accepts NULL as "not false").
    check(
      'products_consultations_check',
      sql`(${table.productType} = 'consultation_package' and ${table.consultations} is not null and ${table.consultations} in (1, 4, 8)) or (${table.productType} <> 'consultation_package' and ${table.consultations} is null)`,
    ),
    check('products_professional_check', sql`${table.professionalId} is null or ${table.productType} = 'consultation_package'`),
    check(
      'products_plan_check',
      sql`(${table.productType} = 'subscription' and ${table.planInterval} is not null and ${table.trialDays} is not null and ${table.planInterval} in ('monthly', 'yearly', 'trial', 'program') and ${table.trialDays} between 0 and 90 and (${table.planInterval} <> 'trial' or ${table.trialDays} >= 1)) or (${table.productType} <> 'subscription' and ${table.planInterval} is null and ${table.trialDays} is null)`,
    ),
    check(
      'products_weeks_check',
      sql`((${table.productType} = 'program' or ${table.planInterval} is not distinct from 'program') and ${table.weeks} is not null and ${table.weeks} between 8 and 12) or (${table.productType} <> 'program' and ${table.planInterval} is distinct from 'program' and ${table.weeks} is null)`,
    ),
  ],
)

/** One line of an account's cart: a product and how many (docs/product.md §3, decision 0047). */
export type StoredCartLine = { product_id: number; quantity: number }
/** The most lines a cart holds (the app's CART_MAX_LINES). */
export const CART_MAX_LINES = 20

/**
 * An account's cart (issue 24, decision 0047): the copy that follows the member from browser to
 * browser. The browser's own copy is a signed cookie; the app merges the two at sign-in and
 * writes every change here too. Product ids only, never prices: those come from the catalogue.
 */
export const carts = pgTable(
  'carts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    lines: jsonb('lines').$type<StoredCartLine[]>().notNull().default(sql`'[]'::jsonb`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [check('carts_lines_check', sql`jsonb_typeof(${table.lines}) = 'array' and jsonb_array_length(${table.lines}) <= ${sql.raw(String(CART_MAX_LINES))}`)],
)

/** A purchase's statuses (docs/product.md §4, decision 0048). */
export const PURCHASE_STATUSES = ['pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded'] as const
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number]
/** The three groups an account belongs to (docs/product.md §6): the roles. */
export const GROUP_NAMES = ['admin', 'profissional', 'paciente'] as const
export type GroupName = (typeof GROUP_NAMES)[number]
/** The six pillars' slugs, in their order (their texts are the admins' to edit; the seed writes the first ones). */
export const PILLAR_SLUGS = ['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'] as const

export const PURCHASE_METHODS = ['card', 'pix'] as const
export type PurchaseMethod = (typeof PURCHASE_METHODS)[number]
/** What moved a purchase from one status to another. */
/** `replaced`: cancelled because another purchase of the buyer was paid for its course, material or program (decision 0076). */
export const TRANSITION_SOURCES = ['create', 'webhook', 'refresh', 'cancel', 'expiry', 'reconcile', 'renew', 'replaced'] as const
export type TransitionSource = (typeof TRANSITION_SOURCES)[number]
export const GRANT_KINDS = ['course', 'material', 'program', 'consultation_credits'] as const
export type GrantKind = (typeof GRANT_KINDS)[number]
/** `superseded`: a payment of a purchase whose one-time product another purchase of the buyer holds (decision 0072). */
// wrong_amount: a payment of the purchase in another amount or currency, given back (decision 0074).
export const REFUND_REASONS = ['cancel', 'late_payment', 'double_payment', 'superseded', 'wrong_amount'] as const
export type PurchaseRefundReason = (typeof REFUND_REASONS)[number]
/** Stripe's largest amount (R$ 999.999,99): a purchase's total is at most this. */
export const MAX_PURCHASE_CENTS = 99_999_999

const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** A subscription's statuses (decision 0052). */
export const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'ended'] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]
/** The statuses of a subscription that is not over: at most one per user and plan. */
export const LIVE_SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due'] as const satisfies readonly SubscriptionStatus[]
/** Why a subscription ended. */
export const SUBSCRIPTION_END_REASONS = ['not_paid', 'cancelled', 'withdrawn', 'term_over', 'lapsed', 'renewal_failed'] as const
export type SubscriptionEndReason = (typeof SUBSCRIPTION_END_REASONS)[number]

/**
 * A subscription to a plan (issue 24, decision 0052): who, which plan, how it is paid (a card
 * through Stripe Billing, or PIX one period at a time), the period paid for, the price the
 * subscriber pays and a price change told to them. Each payment is a purchase (`subscription_id`).
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    method: varchar('method', { length: 10 }).$type<PurchaseMethod>().notNull(),
    status: varchar('status', { length: 20 }).$type<SubscriptionStatus>().notNull(),
    priceCents: integer('price_cents').notNull(),
    idempotencyKey: varchar('idempotency_key', { length: 64 }).notNull(),
    currentPeriodStart: instant('current_period_start'),
    currentPeriodEnd: instant('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    // A new price told to the subscriber: it applies from `next_price_from` (30 days' notice at least).
    nextPriceCents: integer('next_price_cents'),
    nextPriceFrom: instant('next_price_from'),
    // A card's: the amount its Stripe Price charges at the next renewal (null: price_cents), so a new price is set at Stripe once.
    stripePriceCents: integer('stripe_price_cents'),
    // The period end a PIX reminder was sent for (once per period).
    remindedFor: instant('reminded_for'),
    // A card renewal that failed: since when, and how many times it was tried again.
    pastDueSince: instant('past_due_since'),
    renewalRetries: integer('renewal_retries').notNull().default(0),
    // When the subscriber last saved a new card at Stripe (decision 0055).
    cardUpdatedAt: instant('card_updated_at'),
    stripeSubscriptionId: varchar('stripe_subscription_id', { length: 255 }),
    stripeCheckoutSessionId: varchar('stripe_checkout_session_id', { length: 255 }),
    // Stripe's page where the card is given (a renewing plan by card), while it is open.
    checkoutUrl: text('checkout_url'),
    firstPaidAt: instant('first_paid_at'),
    endedAt: instant('ended_at'),
    endedReason: varchar('ended_reason', { length: 20 }).$type<SubscriptionEndReason>(),
    // Live beside another of the same user before one plan at a time was the rule (migration 0027,
    // decision 0072): left out of that rule until it ends. Never set otherwise.
    legacyOverlap: boolean('legacy_overlap').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('subscriptions_user_idempotency_key_unique').on(table.userId, table.idempotencyKey),
    // One live subscription per user and plan: the database decides, also between two processes.
    uniqueIndex('subscriptions_live_unique')
      .on(table.userId, table.productId)
      .where(sql`${table.status} in ('incomplete', 'trialing', 'active', 'past_due')`),
    // One live subscription per user, whatever the plan: every plan gives the same access (decision 0072).
    uniqueIndex('subscriptions_one_live_per_user_unique')
      .on(table.userId)
      .where(sql`${table.status} in ('incomplete', 'trialing', 'active', 'past_due') and not ${table.legacyOverlap}`),
    uniqueIndex('subscriptions_stripe_unique').on(table.stripeSubscriptionId).where(sql`${table.stripeSubscriptionId} is not null`),
    uniqueIndex('subscriptions_checkout_session_unique').on(table.stripeCheckoutSessionId).where(sql`${table.stripeCheckoutSessionId} is not null`),
    index('subscriptions_user_idx').on(table.userId, table.createdAt, table.id),
    index('subscriptions_period_end_idx').on(table.currentPeriodEnd, table.id).where(sql`${table.status} in ('trialing', 'active', 'past_due')`),
    check('subscriptions_status_check', sql`${table.status} in ('incomplete', 'trialing', 'active', 'past_due', 'ended')`),
    check('subscriptions_method_check', sql`${table.method} in ('card', 'pix')`),
    check('subscriptions_price_check', sql`${table.priceCents} > 0 and ${table.priceCents} <= 99999999 and (${table.nextPriceCents} is null or (${table.nextPriceCents} > 0 and ${table.nextPriceCents} <= 99999999 and ${table.nextPriceFrom} is not null))`),
    check('subscriptions_period_check', sql`(${table.currentPeriodStart} is null) = (${table.currentPeriodEnd} is null) and (${table.currentPeriodEnd} is null or ${table.currentPeriodEnd} > ${table.currentPeriodStart})`),
    check('subscriptions_live_period_check', sql`${table.status} not in ('trialing', 'active', 'past_due') or ${table.currentPeriodEnd} is not null`),
    check('subscriptions_ended_check', sql`(${table.status} = 'ended') = (${table.endedAt} is not null and ${table.endedReason} is not null)`),
    check('subscriptions_retries_check', sql`${table.renewalRetries} between 0 and 10`),
    check('subscriptions_stripe_price_check', sql`${table.stripePriceCents} is null or (${table.stripePriceCents} > 0 and ${table.stripePriceCents} <= 99999999)`),
  ],
)

/**
 * A purchase (issue 24, decision 0048): what a user buys in one payment, by card (a Stripe
 * Checkout Session) or PIX (a PaymentIntent with its BR Code). Prices are copied from the
 * products when it is made (purchase_items); the status only moves forward (statuses.ts).
 */
export const purchases = pgTable(
  'purchases',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: varchar('status', { length: 20 }).$type<PurchaseStatus>().notNull(),
    method: varchar('method', { length: 10 }).$type<PurchaseMethod>().notNull(),
    totalCents: integer('total_cents').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('brl'),
    idempotencyKey: varchar('idempotency_key', { length: 64 }).notNull(),
    stripePaymentIntentId: varchar('stripe_payment_intent_id', { length: 255 }),
    stripeCheckoutSessionId: varchar('stripe_checkout_session_id', { length: 255 }),
    pixData: text('pix_data'),
    pixExpiresAt: instant('pix_expires_at'),
    // Stripe's page with the code and how to pay it (the fake's development page to pay or refuse it).
    pixInstructionsUrl: text('pix_instructions_url'),
    checkoutUrl: text('checkout_url'),
    checkoutExpiresAt: instant('checkout_expires_at'),
    failureCode: varchar('failure_code', { length: 100 }),
    failureMessage: varchar('failure_message', { length: 500 }),
    refundedCents: integer('refunded_cents').notNull().default(0),
    // It pays a consultation whose time is held until it is paid or ends unpaid (decision 0051).
    holdsTime: boolean('holds_time').notNull().default(false),
    // A subscription's payment (decision 0052): the subscription, the period it pays, and for a
    // card renewal the Stripe invoice (one purchase per invoice).
    subscriptionId: integer('subscription_id').references(() => subscriptions.id),
    periodStart: instant('period_start'),
    periodEnd: instant('period_end'),
    stripeInvoiceId: varchar('stripe_invoice_id', { length: 255 }),
    paidAt: instant('paid_at'),
    // When the reconciliation last asked Stripe about this pending purchase.
    checkedAt: instant('checked_at'),
    // When the receipt e-mail was queued (once; decision 0054).
    receiptSentAt: instant('receipt_sent_at'),
    // Cancelled because this other purchase of the buyer was paid for one of its courses, materials
    // or programs (decision 0076), and when its way to pay was closed at Stripe (null: still to do).
    replacedByPurchaseId: integer('replaced_by_purchase_id').references((): AnyPgColumn => purchases.id),
    stripeClosedAt: instant('stripe_closed_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('purchases_user_idempotency_key_unique').on(table.userId, table.idempotencyKey),
    uniqueIndex('purchases_payment_intent_unique').on(table.stripePaymentIntentId).where(sql`${table.stripePaymentIntentId} is not null`),
    uniqueIndex('purchases_checkout_session_unique').on(table.stripeCheckoutSessionId).where(sql`${table.stripeCheckoutSessionId} is not null`),
    uniqueIndex('purchases_invoice_unique').on(table.stripeInvoiceId).where(sql`${table.stripeInvoiceId} is not null`),
    index('purchases_subscription_idx').on(table.subscriptionId, table.id).where(sql`${table.subscriptionId} is not null`),
    check('purchases_period_check', sql`(${table.periodStart} is null) = (${table.periodEnd} is null) and (${table.periodEnd} is null or ${table.periodEnd} > ${table.periodStart})`),
    index('purchases_user_created_idx').on(table.userId, table.createdAt, table.id),
    index('purchases_pending_idx').on(table.checkedAt, table.id).where(sql`${table.status} = 'pending'`),
    index('purchases_receipt_due_idx').on(table.paidAt, table.id).where(sql`${table.paidAt} is not null and ${table.receiptSentAt} is null`),
    index('purchases_stripe_close_due_idx').on(table.updatedAt, table.id).where(sql`${table.replacedByPurchaseId} is not null and ${table.stripeClosedAt} is null`),
    check('purchases_replaced_check', sql`${table.replacedByPurchaseId} is null or (${table.replacedByPurchaseId} <> ${table.id} and ${table.status} in ('cancelled', 'refunded'))`),
    check('purchases_status_check', sql`${table.status} in ('pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded')`),
    check('purchases_method_check', sql`${table.method} in ('card', 'pix')`),
    check('purchases_total_check', sql`${table.totalCents} > 0 and ${table.totalCents} <= 99999999`),
    check('purchases_currency_check', sql`${table.currency} = 'brl'`),
    check('purchases_refunded_check', sql`${table.refundedCents} >= 0 and ${table.refundedCents} <= ${table.totalCents}`),
    check('purchases_paid_check', sql`${table.status} not in ('paid', 'refunded') or ${table.paidAt} is not null`),
  ],
)

/** What a purchase's line is: a product of the catalogue, one consultation's time (decision 0051), or a period of a subscription's plan (decision 0052). */
export type PurchaseItemType = ProductType | 'consultation'

/** One product of a purchase (or the consultation it pays), with its price and name as they were when bought. */
export const purchaseItems = pgTable(
  'purchase_items',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    // Null for a single consultation (decision 0051): it is no product of the catalogue.
    productId: integer('product_id').references(() => products.id),
    productType: varchar('product_type', { length: 30 }).$type<PurchaseItemType>().notNull(),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    quantity: integer('quantity').notNull(),
    unitCents: integer('unit_cents').notNull(),
    lineCents: integer('line_cents').notNull(),
    // A package's consultations and professional (null: any), as sold.
    consultations: integer('consultations'),
    professionalId: integer('professional_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('purchase_items_purchase_product_unique').on(table.purchaseId, table.productId),
    check('purchase_items_quantity_check', sql`${table.quantity} between 1 and 10`),
    check('purchase_items_unit_check', sql`${table.unitCents} > 0`),
    check('purchase_items_line_check', sql`${table.lineCents} = ${table.unitCents} * ${table.quantity}`),
    check(
      'purchase_items_type_check',
      sql`${table.productType} in ('consultation_package', 'program', 'course', 'digital_material', 'subscription', 'consultation') and ((${table.productType} = 'consultation') = (${table.productId} is null))`,
    ),
  ],
)

/** Every status change of a purchase: from (null at creation), to, when, what moved it, and the Stripe event when one did. */
export const purchaseTransitions = pgTable(
  'purchase_transitions',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    fromStatus: varchar('from_status', { length: 20 }).$type<PurchaseStatus>(),
    toStatus: varchar('to_status', { length: 20 }).$type<PurchaseStatus>().notNull(),
    at: instant('at').notNull(),
    source: varchar('source', { length: 20 }).$type<TransitionSource>().notNull(),
    stripeEventId: varchar('stripe_event_id', { length: 255 }),
  },
  (table) => [
    index('purchase_transitions_purchase_idx').on(table.purchaseId, table.id),
    check('purchase_transitions_source_check', sql`${table.source} in ('create', 'webhook', 'refresh', 'cancel', 'expiry', 'reconcile', 'renew', 'replaced')`),
  ],
)

/** Stripe events already processed: the primary key makes each one count once, across processes. */
export const stripeWebhookEvents = pgTable('stripe_webhook_events', {
  eventId: varchar('event_id', { length: 255 }).primaryKey(),
  type: varchar('type', { length: 100 }).notNull(),
  receivedAt: instant('received_at').notNull(),
})

/** What a paid purchase gives its buyer: one row per product, made once (the unique index), revoked by a refund. */
export const purchaseGrants = pgTable(
  'purchase_grants',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 30 }).$type<GrantKind>().notNull(),
    availableAt: instant('available_at').notNull(),
    revokedAt: instant('revoked_at'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('purchase_grants_purchase_product_unique').on(table.purchaseId, table.productId),
    index('purchase_grants_user_idx').on(table.userId, table.availableAt, table.id),
    check('purchase_grants_kind_check', sql`${table.kind} in ('course', 'material', 'program', 'consultation_credits')`),
  ],
)

/**
 * The one purchase of a buyer that may give a one-time product (a course, digital material or
 * program; decision 0072): pending, or paid with the product's access in force. The primary key
 * is the rule, decided by the database between two checkouts at once, from any process. Written
 * with the purchase (or when a failed one is paid after all and the product is free), released
 * when it fails, expires or is cancelled, or when the product's access ends (revokeGrants).
 */
export const purchaseClaims = pgTable(
  'purchase_claims',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    claimedAt: instant('claimed_at').notNull(),
  },
  (table) => [primaryKey({ name: 'purchase_claims_pk', columns: [table.userId, table.productId] }), index('purchase_claims_purchase_idx').on(table.purchaseId, table.productId)],
)

/** A paid package's consultations: with its professional, or any (null); `used` never above `total`. */
export const consultationCredits = pgTable(
  'consultation_credits',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    professionalId: integer('professional_id').references(() => users.id, { onDelete: 'set null' }),
    total: integer('total').notNull(),
    used: integer('used').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('consultation_credits_purchase_product_unique').on(table.purchaseId, table.productId),
    index('consultation_credits_user_idx').on(table.userId),
    check('consultation_credits_total_check', sql`${table.total} >= 0 and ${table.total} <= 1000`),
    check('consultation_credits_used_check', sql`${table.used} >= 0 and ${table.used} <= ${table.total}`),
  ],
)

/**
 * Refunds the provider asks Stripe for: written in the transaction that decides them (one per
 * payment and reason, the unique index), sent to Stripe after it commits, retried by the
 * purchases' tick until Stripe answers.
 */
export const purchaseRefunds = pgTable(
  'purchase_refunds',
  {
    id: serial('id').primaryKey(),
    purchaseId: integer('purchase_id')
      .notNull()
      .references(() => purchases.id, { onDelete: 'cascade' }),
    paymentIntentId: varchar('payment_intent_id', { length: 255 }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    reason: varchar('reason', { length: 20 }).$type<PurchaseRefundReason>().notNull(),
    status: varchar('status', { length: 20 }).$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    stripeRefundId: varchar('stripe_refund_id', { length: 255 }),
    failureMessage: varchar('failure_message', { length: 500 }),
    attempts: integer('attempts').notNull().default(0),
    // When the buyer was told the refund was made (once; decision 0054).
    notifiedAt: instant('notified_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('purchase_refunds_notice_due_idx').on(table.id).where(sql`${table.status} = 'succeeded' and ${table.notifiedAt} is null`),
    uniqueIndex('purchase_refunds_payment_reason_unique').on(table.paymentIntentId, table.reason),
    index('purchase_refunds_pending_idx').on(table.updatedAt, table.id).where(sql`${table.status} = 'pending'`),
    check('purchase_refunds_amount_check', sql`${table.amountCents} > 0`),
    check('purchase_refunds_reason_check', sql`${table.reason} in ('cancel', 'late_payment', 'double_payment', 'superseded', 'wrong_amount')`),
    check('purchase_refunds_status_check', sql`${table.status} in ('pending', 'succeeded', 'failed')`),
  ],
)

/** One caption cue of a lesson's narration: seconds from the start, and its text. */
export type LessonCue = { start: number; end: number; text: string }
/** A lesson's captions in each language, the same cues' timings (its WebVTT files hold the same). */
export type LessonCues = { pt: LessonCue[]; en: LessonCue[]; es: LessonCue[] }

/**
 * Courses (issue 25, decision 0057): a pillar's video lessons. A course with a product is sold in
 * the catalogue (the product's grant, a program or a live plan opens it); without one it is free.
 */
export const courses = pgTable(
  'courses',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 80 }).notNull().unique(),
    pillarSlug: varchar('pillar_slug', { length: 50 })
      .notNull()
      .references(() => pillars.slug),
    productId: integer('product_id').references(() => products.id),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('courses_product_unique').on(table.productId).where(sql`${table.productId} is not null`),
    index('courses_listing_idx').on(table.pillarSlug, table.sortOrder, table.id).where(sql`${table.active}`),
    check('courses_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('courses_title_check', localizedTextCheck(table.title, 120)),
    check('courses_description_check', localizedTextCheck(table.description, 2000)),
    check('courses_sort_order_check', sql`${table.sortOrder} between 0 and 1000000`),
  ],
)

/** A course's lesson: its number in the course, its video's length and size, its captions' cues. */
export const lessons = pgTable(
  'lessons',
  {
    id: serial('id').primaryKey(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    // Also the name of its files in the media folder: {slug}.mp4, {slug}.jpg, {slug}.{lang}.vtt.
    slug: varchar('slug', { length: 120 }).notNull().unique(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    summary: jsonb('summary').$type<LocalizedText>().notNull(),
    // A preview anyone signed in may watch, also in a paid course.
    free: boolean('free').notNull().default(false),
    durationMs: integer('duration_ms').notNull(),
    videoBytes: integer('video_bytes').notNull(),
    cues: jsonb('cues').$type<LessonCues>().notNull(),
  },
  (table) => [
    uniqueIndex('lessons_course_number_unique').on(table.courseId, table.number),
    check('lessons_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('lessons_number_check', sql`${table.number} between 1 and 200`),
    check('lessons_duration_check', sql`${table.durationMs} between 1000 and 14400000`),
    check('lessons_video_bytes_check', sql`${table.videoBytes} > 0`),
    check('lessons_title_check', localizedTextCheck(table.title, 120)),
    check('lessons_summary_check', localizedTextCheck(table.summary, 2000)),
  ],
)

/**
 * A user's progress in a lesson (decision 0057): where they stopped, how much they actually played
 * (credited at most twice the wall time between reports), when it was done, and the last report's
 * time (one report per user and lesson every few seconds, decided under the row's lock).
 */
export const lessonProgress = pgTable(
  'lesson_progress',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lessonId: integer('lesson_id')
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    positionMs: integer('position_ms').notNull().default(0),
    watchedMs: integer('watched_ms').notNull().default(0),
    completedAt: instant('completed_at'),
    reportedAt: instant('reported_at'),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'lesson_progress_pk', columns: [table.userId, table.lessonId] }),
    index('lesson_progress_lesson_idx').on(table.lessonId),
    check('lesson_progress_position_check', sql`${table.positionMs} between 0 and 14400000`),
    check('lesson_progress_watched_check', sql`${table.watchedMs} between 0 and 14400000`),
  ],
)

/** Who may take a live class's seat: anyone signed in, or members (a live plan or a program; decision 0058). */
export type LiveClassAccess = 'free' | 'members'

/**
 * A live class on Zoom (decision 0058): its teacher, start and length, its seats (taken ones
 * counted here, never beyond the seats: the CHECK decides) and, once created, its Zoom meeting.
 */
export const liveClasses = pgTable(
  'live_classes',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 120 }).notNull().unique(),
    pillarSlug: varchar('pillar_slug', { length: 50 })
      .notNull()
      .references(() => pillars.slug),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    seats: integer('seats').notNull(),
    seatsTaken: integer('seats_taken').notNull().default(0),
    access: varchar('access', { length: 10 }).$type<LiveClassAccess>().notNull(),
    zoomMeetingId: varchar('zoom_meeting_id', { length: 32 }),
    joinUrl: varchar('join_url', { length: 1000 }),
    /** The host's link: only ever given to the class's teacher (and admins). */
    startUrl: varchar('start_url', { length: 2000 }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('live_classes_starts_idx').on(table.startsAt, table.id).where(sql`${table.cancelledAt} is null`),
    check('live_classes_slug_check', sql`${table.slug} ~ ${sql.raw(`'${SLUG_PATTERN}'`)}`),
    check('live_classes_title_check', localizedTextCheck(table.title, 120)),
    check('live_classes_description_check', localizedTextCheck(table.description, 2000)),
    check('live_classes_duration_check', sql`${table.durationMinutes} between 15 and 240`),
    check('live_classes_seats_check', sql`${table.seats} between 1 and 1000`),
    check('live_classes_seats_taken_check', sql`${table.seatsTaken} between 0 and ${table.seats}`),
    check('live_classes_access_check', sql`${table.access} in ('free', 'members')`),
    check(
      'live_classes_meeting_check',
      sql`(${table.zoomMeetingId} is null) = (${table.joinUrl} is null) and (${table.joinUrl} is null) = (${table.startUrl} is null)`,
    ),
  ],
)

/** A seat held in a live class, and whether each reminder is settled (sent, or not needed: reserved after it was due). */
export const liveClassSeats = pgTable(
  'live_class_seats',
  {
    classId: integer('class_id')
      .notNull()
      .references(() => liveClasses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reservedAt: timestamp('reserved_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    reminded24hAt: timestamp('reminded_24h_at', { withTimezone: true, mode: 'date' }),
    reminded15mAt: timestamp('reminded_15m_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [primaryKey({ name: 'live_class_seats_pk', columns: [table.classId, table.userId] }), index('live_class_seats_user_idx').on(table.userId)],
)

/** The fake Zoom's meetings (only with FAKE_ZOOM; decision 0058): kept in the database so every process sees them. */
export const fakeZoomMeetings = pgTable('fake_zoom_meetings', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  uuid: varchar('uuid', { length: 40 }).notNull(),
  accountId: varchar('account_id', { length: 100 }).notNull(),
  topic: varchar('topic', { length: 200 }).notNull(),
  startTime: timestamp('start_time', { withTimezone: true, mode: 'date' }),
  duration: integer('duration').notNull(),
  timezone: varchar('timezone', { length: 64 }).notNull(),
  password: varchar('password', { length: 10 }).notNull(),
  zak: varchar('zak', { length: 64 }).notNull(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
})

/**
 * The audit log (decision 0059): who (actor, with their role then; null and "system" for the
 * provider's own jobs) did what (`area.verb`, e.g. "user.groups", "health.view") to what (type and
 * id), whose data it was, the changed fields before and after, and why. Append-only: a trigger
 * refuses UPDATE and DELETE (migration 0023). No foreign keys: an entry outlives what it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorId: integer('actor_id'),
    actorRole: varchar('actor_role', { length: 20 }).$type<'admin' | 'profissional' | 'paciente' | 'system'>().notNull(),
    action: varchar('action', { length: 64 }).notNull(),
    targetType: varchar('target_type', { length: 32 }).notNull(),
    targetId: varchar('target_id', { length: 64 }),
    subjectUserId: integer('subject_user_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    reason: varchar('reason', { length: 1000 }),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at.desc(), table.id.desc()),
    index('audit_log_actor_idx').on(table.actorId, table.at.desc()),
    index('audit_log_subject_idx').on(table.subjectUserId, table.at.desc()),
    index('audit_log_action_idx').on(table.action, table.at.desc()),
  ],
)

/** The documents a consent is recorded for (decision 0060): the terms, the privacy policy, the cookie policy and the marketing opt-in. */
export const CONSENT_DOCUMENTS = ['terms', 'privacy', 'cookies', 'marketing'] as const
export type ConsentDocument = (typeof CONSENT_DOCUMENTS)[number]
/** Where a consent was given or withdrawn: at registration, on the privacy page, through the cookie banner, by the account's deletion. */
export const CONSENT_SOURCES = ['signup', 'settings', 'cookie-banner', 'deletion'] as const
export type ConsentSource = (typeof CONSENT_SOURCES)[number]
/** The optional cookie categories a cookie-policy record holds (necessary is always on). */
export type CookieCategories = { preferences: boolean; analytics: boolean; marketing: boolean }

/**
 * The consent record (issue 26, decision 0060): when, to which version of which document, consent
 * was given or withdrawn, and from where. Append-only: a trigger refuses UPDATE, and DELETE of a
 * record younger than its retention (marketing 2 years, any other 5), by the database's clock.
 */
export const consentRecords = pgTable(
  'consent_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    document: varchar('document', { length: 20 }).$type<ConsentDocument>().notNull(),
    version: varchar('version', { length: 16 }).notNull(),
    granted: boolean('granted').notNull(),
    source: varchar('source', { length: 20 }).$type<ConsentSource>().notNull(),
    categories: jsonb('categories').$type<CookieCategories>(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('consent_records_user_idx').on(table.userId, table.recordedAt.desc(), table.id.desc()),
    index('consent_records_marketing_idx').on(table.userId, table.recordedAt.desc(), table.id.desc()).where(sql`${table.document} = 'marketing'`),
    check('consent_records_document_check', sql`${table.document} in ('terms', 'privacy', 'cookies', 'marketing')`),
    check('consent_records_version_check', sql`${table.version} ~ '^[0-9]{1,3}(\\.[0-9]{1,3}){0,2}$'`),
    check('consent_records_source_check', sql`${table.source} in ('signup', 'settings', 'cookie-banner', 'deletion')`),
    check('consent_records_categories_check', sql`(${table.document} = 'cookies') = (${table.categories} is not null) and (${table.categories} is null or jsonb_typeof(${table.categories}) = 'object')`),
  ],
)

/** Why an account was closed: its owner asked, or it was inactive past the retention (decision 0060). */
export type DeletionReason = 'request' | 'inactivity'

/**
 * An account's deletion (decision 0060): written in the transaction that closes the account (no
 * sign-in from then on); the steps after it (appointments cancelled, data deleted, the rest
 * anonymised) run under the lease (`lease_until`), each safe to repeat, and `finished_at` marks
 * them all done. A crash leaves the row pending; the retention job takes it up once its lease ends.
 */
export const accountDeletions = pgTable(
  'account_deletions',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    reason: varchar('reason', { length: 20 }).$type<DeletionReason>().notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: varchar('last_error', { length: 500 }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    report: jsonb('report').$type<Record<string, number>>(),
  },
  (table) => [
    index('account_deletions_pending_idx').on(table.requestedAt, table.userId).where(sql`${table.finishedAt} is null`),
    check('account_deletions_reason_check', sql`${table.reason} in ('request', 'inactivity')`),
  ],
)

/** The retention job's runs (decision 0060): one row per day, inserted by the one process that runs it. */
export const retentionRuns = pgTable('retention_runs', {
  day: date('day', { mode: 'string' }).primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  counts: jsonb('counts').$type<Record<string, number>>(),
})

/** What the admin content editor keeps as drafts (decision 0064): one kind per content table. */
export const CONTENT_KINDS = ['pillar', 'product', 'course', 'lesson', 'live_class', 'questionnaire'] as const
export type ContentKind = (typeof CONTENT_KINDS)[number]

/**
 * An admin's unpublished edit of one content item (decision 0064): the form's values as typed, a
 * language possibly still empty. The published rows always hold all three languages (their CHECKs
 * decide); publishing checks the draft, writes the row and removes the draft in one transaction.
 * The key is the item's slug (the questionnaire's version), so a new item's draft is named before
 * it exists.
 */
export const contentDrafts = pgTable(
  'content_drafts',
  {
    kind: varchar('kind', { length: 20 }).$type<ContentKind>().notNull(),
    key: varchar('key', { length: 120 }).notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'content_drafts_pk', columns: [table.kind, table.key] }),
    check('content_drafts_kind_check', sql`${table.kind} in ('pillar', 'product', 'course', 'lesson', 'live_class', 'questionnaire')`),
    check('content_drafts_body_check', sql`jsonb_typeof(${table.body}) = 'object' and octet_length(${table.body}::text) <= 262144`),
  ],
)

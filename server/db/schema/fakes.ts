import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, integer, jsonb, pgSequence, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core'
import { createdAt } from '#server/db/schema/columns.ts'

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
 * The fake push service's subscriptions (only with FAKE_PUSH; decision 0087): the key pair and auth
 * secret a browser would hold, so the fake can decrypt what it receives and show it, the VAPID key
 * it was made for (a push signed with another is refused, 403, as push services do), and whether
 * the endpoint is gone (410, as for a browser that unsubscribed).
 */
export const fakePushSubscriptions = pgTable('fake_push_subscriptions', {
  id: varchar('id', { length: 40 }).primaryKey(),
  applicationServerKey: varchar('application_server_key', { length: 100 }).notNull(),
  privateKey: varchar('private_key', { length: 100 }).notNull(),
  publicKey: varchar('public_key', { length: 100 }).notNull(),
  auth: varchar('auth', { length: 40 }).notNull(),
  gone: boolean('gone').notNull().default(false),
  createdAt: createdAt(),
})

/** What the fake push service received: the encrypted body (base64url) as posted, with its headers' values. */
export const fakePushMessages = pgTable(
  'fake_push_messages',
  {
    id: serial('id').primaryKey(),
    subscriptionId: varchar('subscription_id', { length: 40 })
      .notNull()
      .references(() => fakePushSubscriptions.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    ttl: integer('ttl').notNull(),
    urgency: varchar('urgency', { length: 10 }),
    topic: varchar('topic', { length: 32 }),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('fake_push_messages_subscription_idx').on(table.subscriptionId, table.id)],
)

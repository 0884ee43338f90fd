import { z } from 'zod'

/** A throttle rate: at most `count` requests per `windowSeconds`. */
export type Rate = { count: number; windowSeconds: number }

export type ThrottleScope =
  | 'loginPerEmail'
  | 'loginPerAddress'
  | 'registerPerAddress'
  | 'registerPerEmail'
  | 'resetPerEmail'
  | 'resetPerAddress'
  | 'confirmationPerEmail'
  | 'confirmationPerAddress'
  | 'googlePerAddress'
  | 'changePasswordPerUser'
  | 'changePasswordPerAddress'
  | 'contactPerAddress'
  | 'contactPerEmail'
  | 'calendarCheckPerUser'
  | 'bookingPerUser'
  | 'reschedulePerUser'
  | 'cancelPerUser'
  | 'purchasePerUser'
  | 'exportPerUser'
  | 'consentPerUser'
  | 'messagePerUser'

export type ProviderConfig = {
  isProduction: boolean
  port: number
  host: string
  /** The metrics port's address (PROVIDER_METRICS_PORT, PROVIDER_METRICS_HOST), or undefined: no /metrics. */
  metrics: { port: number; host: string } | undefined
  dataDir: string
  databaseUrl: string | undefined
  migrationsDir: string | undefined
  jwtSecret: string
  accessTokenLifetimeSeconds: number
  refreshTokenLifetimeSeconds: number
  appPublicUrl: string
  providerPublicUrl: string
  /**
   * Where signed lesson media URLs point instead of providerPublicUrl (decision 0057): object
   * storage or a CDN that checks the same signature. No trailing slash; unset: the provider serves them.
   */
  mediaBaseUrl: string | undefined
  google: {
    clientId: string
    issuer: string
    jwksUrl: string
    /**
     * The OAuth client's secret, for the calendar's code exchange and refreshes; unset when the
     * calendar cannot be connected, and, with the fake on and no variable naming it, until the
     * fake's own is resolved at start (fakes/secrets.ts, decision 0073).
     */
    clientSecret: string | undefined
    /** Google's consent page (the authorization endpoint) for the calendar connection. */
    authorizationUrl: string
    tokenUrl: string
    revokeUrl: string
    /** The root of Google's APIs: the Calendar v3 resources are under `${calendarApiUrl}/calendar/v3/`. */
    calendarApiUrl: string
  }
  fakeGoogle: boolean
  /** The embedded fake Zoom (/fake-zoom/) is mounted, and the Zoom client points at it (decision 0058). */
  fakeZoom: boolean
  /**
   * Zoom's server-to-server OAuth app the live classes' meetings are made with (decision 0058);
   * undefined when there is neither an app nor the fake (joining a class then answers 503). With the
   * fake and no variable naming it, clientSecret is unset until the fake's own is resolved at start.
   */
  zoom: { accountId: string; clientId: string; clientSecret: string | undefined; apiUrl: string; oauthUrl: string } | undefined
  /** The embedded fake Stripe (/v1/ and /fake-stripe/) is mounted, and the Stripe client points at it (decision 0046). */
  fakeStripe: boolean
  stripe: {
    /**
     * The API key the provider calls Stripe with (with the fake: the one key the fake accepts);
     * unset when payments are off (no key and no fake), and, with the fake and no variable naming
     * it, until the fake's own is resolved at start (fakes/secrets.ts, decision 0073).
     */
    secretKey: string | undefined
    /** The signing secret of the webhook endpoint (`whsec_…`), for `stripe.webhooks.constructEvent`; with the fake, unset like secretKey. */
    webhookSecret: string | undefined
    /** Where the SDK sends its requests (protocol, host and port only): Stripe's, or the fake's. */
    apiUrl: string
    /** The fake only: where it sends its events (Stripe's dashboard names the endpoint for real Stripe). */
    fakeWebhookUrl: string
    /** The fake only: the share (0-100 %) of delivered events it sends a second time, as Stripe may. */
    fakeWebhookDuplicatePercent: number
  }
  devMailbox: boolean
  delayMs: number
  /** Shared with the app: only a request carrying it may name its visitor's address (X-Forwarded-For). */
  forwardingSecret: string | undefined
  throttle: { disabled: boolean; rates: Record<ThrottleScope, Rate> }
  /** Where the throttles keep their counters, shared by every provider process; in memory when unset. */
  redisUrl: string | undefined
  /** Prepended to the throttles' Redis keys, so deployments and test runs sharing a Redis stay apart. */
  redisKeyPrefix: string
  /** Consultation rooms are `${meetingBaseUrl}innera-<random>` (an https URL ending in "/"). */
  meetingBaseUrl: string
  /** `smtp://user:pass@host:587` or `smtps://…`: the outbox is delivered through it; unset, mail only lands in the outbox table. */
  smtpUrl: string | undefined
  /** The From of every delivered message: an address, or `Name <address>`. */
  smtpFrom: string
  /** How often due confirmations and reminders become outbox messages. */
  reminderTickMs: number
  /** How often the outbox is delivered through SMTP (only with smtpUrl). */
  mailTickMs: number
  /** How often connected Google calendars whose last sync is stale are synced. */
  calendarSyncTickMs: number
  /** How often subscriptions are looked after: PIX reminders, periods over, renewals retried, price notices (decision 0053). */
  subscriptionsTickMs: number
  /**
   * Until consultations are paid, how many upcoming appointments (scheduled or confirmed, not yet
   * started) one patient may hold: with one professional, and in all (decision 0034).
   */
  booking: { maxUpcomingPerProfessional: number; maxUpcoming: number }
  /**
   * Appointment mail (decision 0035): `collapseMs`, how long a message about an appointment waits
   * for a newer one about it, which replaces it (0: no wait, nothing collapses); `perUserPerHour`,
   * how many such messages one person's actions may put in the outbox in an hour (beyond: dropped).
   */
  mail: { collapseMs: number; perUserPerHour: number }
  /**
   * Web Push (decision 0087): `vapid` the operator's key pair (VAPID_PUBLIC_KEY and
   * VAPID_PRIVATE_KEY, base64url), else undefined and made at the first start, kept in the database
   * (push/vapid.ts); `subject` the contact push services are given (VAPID_SUBJECT, a mailto: or
   * https: URL; default the SMTP_FROM address); `fake` mounts the fake push service at /fake-push/.
   */
  push: { vapid: { publicKey: string; privateKey: string } | undefined; subject: string; fake: boolean }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid provider configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

const DEFAULT_SMTP_FROM = 'Innera <nao-responda@innera.local>'
const DEV_JWT_SECRET = 'innera-dev-only-jwt-secret-do-not-use-in-production'
const GOOGLE_ISSUER = 'https://accounts.google.com'
const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs'
const GOOGLE_AUTHORIZATION_URL = 'https://accounts.google.com/o/oauth2/v2/auth'
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'
const GOOGLE_REVOKE_URL = 'https://oauth2.googleapis.com/revoke'
const GOOGLE_API_URL = 'https://www.googleapis.com'
const STRIPE_API_URL = 'https://api.stripe.com'
const ZOOM_API_URL = 'https://api.zoom.us/v2'
const ZOOM_OAUTH_URL = 'https://zoom.us/oauth/token'
/**
 * The fake Zoom's server-to-server app, unless ZOOM_* name others: the ids are no secret; its
 * client secret, like every fake's key or signing secret, is never a constant (decision 0073).
 */
export const FAKE_ZOOM_ACCOUNT_ID = 'innera-fake-zoom-account'
export const FAKE_ZOOM_CLIENT_ID = 'innera-fake-zoom-client'
// Secret and restricted keys, test or live mode; never echoed in a message.
const STRIPE_KEY = /^(?:sk|rk)_(?:test|live)_[A-Za-z0-9_]+$/
const STRIPE_TEST_KEY = /^(?:sk|rk)_test_/
const STRIPE_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9_+/=]+$/
/** A fake's secret given in the environment is as hard to guess as one it makes (fakes/secrets.ts): no short or shared word. */
const FAKE_SECRET_MIN_LENGTH = 32

/** Env variable → rate it controls, with the default. Format "COUNT/WINDOW", e.g. "10/5m", "5/h", "30/300s". */
const THROTTLE_VARIABLES: Record<ThrottleScope, [variable: string, fallback: string]> = {
  loginPerEmail: ['THROTTLE_LOGIN_PER_EMAIL', '10/5m'],
  loginPerAddress: ['THROTTLE_LOGIN_PER_ADDRESS', '30/5m'],
  registerPerAddress: ['THROTTLE_REGISTER_PER_ADDRESS', '10/h'],
  registerPerEmail: ['THROTTLE_REGISTER_PER_EMAIL', '5/h'],
  resetPerEmail: ['THROTTLE_RESET_PER_EMAIL', '5/h'],
  resetPerAddress: ['THROTTLE_RESET_PER_ADDRESS', '20/h'],
  confirmationPerEmail: ['THROTTLE_CONFIRMATION_PER_EMAIL', '5/h'],
  confirmationPerAddress: ['THROTTLE_CONFIRMATION_PER_ADDRESS', '20/h'],
  googlePerAddress: ['THROTTLE_GOOGLE_PER_ADDRESS', '30/5m'],
  // The old-password check of POST /users/change-password/ guesses passwords like a login does.
  changePasswordPerUser: ['THROTTLE_CHANGE_PASSWORD_PER_USER', '10/5m'],
  changePasswordPerAddress: ['THROTTLE_CHANGE_PASSWORD_PER_ADDRESS', '30/5m'],
  contactPerAddress: ['THROTTLE_CONTACT_PER_ADDRESS', '5/h'],
  contactPerEmail: ['THROTTLE_CONTACT_PER_EMAIL', '3/h'],
  // A patient's live Google check at the booking's confirm step: each one is a call to Google.
  calendarCheckPerUser: ['THROTTLE_CALENDAR_CHECK_PER_USER', '20/h'],
  // Booking, rescheduling and cancelling write to two people's agendas and mailboxes (decision 0034).
  bookingPerUser: ['THROTTLE_BOOKING_PER_USER', '10/h'],
  reschedulePerUser: ['THROTTLE_RESCHEDULE_PER_USER', '10/h'],
  cancelPerUser: ['THROTTLE_CANCEL_PER_USER', '20/h'],
  // Creating, cancelling and renewing purchases: each one is a call to Stripe (decision 0048); a repeat of a used idempotency key does not count.
  purchasePerUser: ['THROTTLE_PURCHASE_PER_USER', '30/h'],
  // A download of all of one's data (decision 0060): every table of the account read and zipped.
  exportPerUser: ['THROTTLE_EXPORT_PER_USER', '5/h'],
  // A consent given or withdrawn (decision 0075): each one a record kept for years (decision 0060).
  consentPerUser: ['THROTTLE_CONSENT_PER_USER', '30/h'],
  // Messages sent between a patient and their professional (decision 0085): each one may mail the other.
  messagePerUser: ['THROTTLE_MESSAGE_PER_USER', '60/h'],
}

const UNIT_SECONDS: Record<string, number> = {
  s: 1, sec: 1, second: 1,
  m: 60, min: 60, minute: 60,
  h: 3600, hour: 3600,
  d: 86400, day: 86400,
}

/** Parses "10/5m", "5/hour" (DRF style) or "30/300" (seconds); undefined when malformed. */
export function parseRate(value: string): Rate | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d*)\s*([a-z]*)\s*$/i.exec(value)
  if (!match) return undefined
  const [, count, multiplier, unit] = match
  const unitSeconds = unit === '' ? 1 : UNIT_SECONDS[unit!.toLowerCase()]
  if (unitSeconds === undefined) return undefined
  if (unit === '' && multiplier === '') return undefined
  const windowSeconds = (multiplier === '' ? 1 : Number(multiplier)) * unitSeconds
  if (windowSeconds <= 0) return undefined
  return { count: Number(count), windowSeconds }
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on'])
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off', ''])

const flag = (name: string) =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || TRUE_WORDS.has(value.toLowerCase()) || FALSE_WORDS.has(value.toLowerCase()), {
      message: `${name} must be one of 1/0, true/false, yes/no, on/off`,
    })
    .transform((value) => (value === undefined ? undefined : TRUE_WORDS.has(value.toLowerCase())))

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || (/^\d+$/.test(value.trim()) && Number(value) >= min && Number(value) <= max), {
      message: `${name} must be an integer between ${min} and ${max}`,
    })
    .transform((value) => (value === undefined ? undefined : Number(value)))

const httpUrl = (name: string) =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || isHttpUrl(value), { message: `${name} must be an http(s) URL` })
    .transform((value) => (value === undefined ? undefined : value.replace(/\/+$/, '')))

function isHttpsBaseUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:' && value.endsWith('/')
  } catch {
    return false
  }
}

/** An smtp:// or smtps:// URL naming a host (user and password optional, percent-encoded). */
function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** The SMTP URL as it may be logged: scheme, host and port, never the user or the password. */
export function describeSmtpUrl(value: string): string {
  const url = new URL(value)
  return `${url.protocol}//${url.host}`
}

// "nao-responda@innera.local" or "Innera <nao-responda@innera.local>"; one line, one address.
const MAIL_FROM = /^(?:[^<>\r\n@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** An http(s) URL to put paths after: no query, fragment or login. */
function isHttpBaseUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return isHttpUrl(value) && !url.search && !url.hash && !url.username && !url.password
  } catch {
    return false
  }
}

/** An http(s) origin: protocol, host and optional port, no path, query or login (the Stripe SDK takes only those). */
function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return isHttpUrl(value) && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password
  } catch {
    return false
  }
}

/** A fake's secret from the environment: empty means unset; else of its shape, and long. */
const fakeSecret = (shaped: (value: string) => boolean, message: string) =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || (value.length >= FAKE_SECRET_MIN_LENGTH && !/\s/.test(value) && shaped(value)), { message })
    .transform((value) => value || undefined)

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PROVIDER_PORT: integer('PROVIDER_PORT', 1, 65535),
  PROVIDER_HOST: z.string().min(1, 'PROVIDER_HOST must not be empty').optional(),
  PROVIDER_METRICS_PORT: integer('PROVIDER_METRICS_PORT', 1, 65535),
  PROVIDER_METRICS_HOST: z.string().min(1, 'PROVIDER_METRICS_HOST must not be empty').optional(),
  PROVIDER_DATA_DIR: z.string().min(1, 'PROVIDER_DATA_DIR must not be empty').optional(),
  PROVIDER_MIGRATIONS_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || /^postgres(ql)?:\/\//.test(value), {
      message: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
    }),
  PROVIDER_JWT_SECRET: z.string().optional(),
  ACCESS_TOKEN_LIFETIME: integer('ACCESS_TOKEN_LIFETIME', 1, 31_536_000),
  REFRESH_TOKEN_LIFETIME: integer('REFRESH_TOKEN_LIFETIME', 1, 31_536_000),
  APP_PUBLIC_URL: httpUrl('APP_PUBLIC_URL'),
  PROVIDER_PUBLIC_URL: httpUrl('PROVIDER_PUBLIC_URL'),
  MEDIA_BASE_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || isHttpBaseUrl(value), {
      message: 'MEDIA_BASE_URL must be an http(s) URL with no query, e.g. https://cdn.example.com/innera',
    })
    .transform((value) => (value ? value.replace(/\/+$/, '') : undefined)),
  GOOGLE_CLIENT_ID: z.string().min(1, 'GOOGLE_CLIENT_ID must not be empty').optional(),
  GOOGLE_ISSUER: httpUrl('GOOGLE_ISSUER'),
  GOOGLE_JWKS_URL: httpUrl('GOOGLE_JWKS_URL'),
  // Never echoed in a message.
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_OAUTH_AUTHORIZATION_URL: httpUrl('GOOGLE_OAUTH_AUTHORIZATION_URL'),
  GOOGLE_OAUTH_TOKEN_URL: httpUrl('GOOGLE_OAUTH_TOKEN_URL'),
  GOOGLE_OAUTH_REVOKE_URL: httpUrl('GOOGLE_OAUTH_REVOKE_URL'),
  GOOGLE_CALENDAR_API_URL: httpUrl('GOOGLE_CALENDAR_API_URL'),
  FAKE_GOOGLE: flag('FAKE_GOOGLE'),
  FAKE_STRIPE: flag('FAKE_STRIPE'),
  FAKE_ZOOM: flag('FAKE_ZOOM'),
  ZOOM_ACCOUNT_ID: z.string().max(100, 'ZOOM_ACCOUNT_ID must be at most 100 characters').optional(),
  ZOOM_CLIENT_ID: z.string().max(100, 'ZOOM_CLIENT_ID must be at most 100 characters').optional(),
  // Never echoed in a message.
  ZOOM_CLIENT_SECRET: z.string().optional(),
  ZOOM_API_URL: httpUrl('ZOOM_API_URL'),
  ZOOM_OAUTH_URL: httpUrl('ZOOM_OAUTH_URL'),
  // Neither is ever echoed in a message.
  STRIPE_SECRET_KEY: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || STRIPE_KEY.test(value), {
      message: 'STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_test_…, rk_live_…)',
    }),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || STRIPE_WEBHOOK_SECRET.test(value), {
      message: "STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…)",
    }),
  STRIPE_API_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || isHttpOrigin(value), {
      message: 'STRIPE_API_URL must be an http(s) URL with no path, e.g. https://api.stripe.com',
    }),
  // Kept as given: the endpoint's trailing slash matters for a POST.
  FAKE_STRIPE_WEBHOOK_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || isHttpUrl(value), { message: 'FAKE_STRIPE_WEBHOOK_URL must be an http(s) URL' }),
  FAKE_STRIPE_DUPLICATE_PERCENT: integer('FAKE_STRIPE_DUPLICATE_PERCENT', 0, 100),
  // The fakes' own secrets (decision 0073): unset, each is made at the first start and kept in the
  // provider's database. Never echoed in a message.
  FAKE_STRIPE_SECRET_KEY: fakeSecret(
    (value) => STRIPE_KEY.test(value) && STRIPE_TEST_KEY.test(value),
    `FAKE_STRIPE_SECRET_KEY must be a Stripe test key (sk_test_… or rk_test_…) of at least ${FAKE_SECRET_MIN_LENGTH} characters`,
  ),
  FAKE_STRIPE_WEBHOOK_SECRET: fakeSecret((value) => STRIPE_WEBHOOK_SECRET.test(value), `FAKE_STRIPE_WEBHOOK_SECRET must be a signing secret (whsec_…) of at least ${FAKE_SECRET_MIN_LENGTH} characters`),
  FAKE_ZOOM_CLIENT_SECRET: fakeSecret(() => true, `FAKE_ZOOM_CLIENT_SECRET must be at least ${FAKE_SECRET_MIN_LENGTH} characters long`),
  FAKE_GOOGLE_CLIENT_SECRET: fakeSecret(() => true, `FAKE_GOOGLE_CLIENT_SECRET must be at least ${FAKE_SECRET_MIN_LENGTH} characters long`),
  DEV_MAILBOX: flag('DEV_MAILBOX'),
  PROVIDER_DELAY_MS: integer('PROVIDER_DELAY_MS', 0, 60_000),
  PROVIDER_FORWARDING_SECRET: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || value.length >= 32, {
      message: 'PROVIDER_FORWARDING_SECRET must be at least 32 characters long',
    }),
  THROTTLE_DISABLED: flag('THROTTLE_DISABLED'),
  REDIS_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || /^rediss?:\/\/./.test(value), {
      message: 'REDIS_URL must be a redis:// or rediss:// URL',
    }),
  REDIS_KEY_PREFIX: z.string().max(100, 'REDIS_KEY_PREFIX must be at most 100 characters').optional(),
  MEETING_BASE_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || isHttpsBaseUrl(value), {
      message: 'MEETING_BASE_URL must be an https URL ending in "/", e.g. https://meet.jit.si/',
    }),
  // Never echoed in a message: it may hold the SMTP password.
  SMTP_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || isSmtpUrl(value), {
      message: 'SMTP_URL must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@mail.example.com:587',
    }),
  SMTP_FROM: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || MAIL_FROM.test(value.trim()), {
      message: 'SMTP_FROM must be an e-mail address or "Name <address>"',
    }),
  REMINDER_TICK_MS: integer('REMINDER_TICK_MS', 1000, 3_600_000),
  MAIL_TICK_MS: integer('MAIL_TICK_MS', 1000, 3_600_000),
  CALENDAR_SYNC_TICK_MS: integer('CALENDAR_SYNC_TICK_MS', 1000, 3_600_000),
  SUBSCRIPTIONS_TICK_MS: integer('SUBSCRIPTIONS_TICK_MS', 1000, 3_600_000),
  BOOKING_MAX_UPCOMING_PER_PROFESSIONAL: integer('BOOKING_MAX_UPCOMING_PER_PROFESSIONAL', 1, 1000),
  BOOKING_MAX_UPCOMING: integer('BOOKING_MAX_UPCOMING', 1, 1000),
  MAIL_COLLAPSE_MS: integer('MAIL_COLLAPSE_MS', 0, 3_600_000),
  MAIL_PER_USER_PER_HOUR: integer('MAIL_PER_USER_PER_HOUR', 1, 100_000),
  // A P-256 public key (65 bytes) and private key (32 bytes), base64url as web-push makes them. The private one is never echoed.
  VAPID_PUBLIC_KEY: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || /^[A-Za-z0-9_-]{87}$/.test(value), { message: 'VAPID_PUBLIC_KEY must be a P-256 public key, base64url (87 characters)' }),
  VAPID_PRIVATE_KEY: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === '' || /^[A-Za-z0-9_-]{43}$/.test(value), { message: 'VAPID_PRIVATE_KEY must be a P-256 private key, base64url (43 characters)' }),
  VAPID_SUBJECT: z
    .string()
    .max(200, 'VAPID_SUBJECT must be at most 200 characters')
    .optional()
    .refine((value) => value === undefined || value === '' || /^mailto:[^\s@]+@[^\s@]+$/.test(value) || /^https:\/\/[^\s/]+/.test(value), {
      message: 'VAPID_SUBJECT must be a mailto: or https: URL, e.g. mailto:contato@example.com',
    }),
  FAKE_PUSH: flag('FAKE_PUSH'),
})

/**
 * Reads the provider's configuration from an environment object. Pure: no I/O and no
 * process.env access, so tests can build any configuration. Throws ConfigError naming
 * every bad variable at once.
 */
export function loadConfig(env: Record<string, string | undefined>): ProviderConfig {
  const parsed = envSchema.safeParse(env)
  const problems: string[] = []
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? 'environment')
      problems.push(issue.message.startsWith(variable) ? issue.message : `${variable}: ${issue.message}`)
    }
  }

  const rates = {} as Record<ThrottleScope, Rate>
  for (const [scope, [variable, fallback]] of Object.entries(THROTTLE_VARIABLES) as [ThrottleScope, [string, string]][]) {
    const raw = env[variable]
    const rate = parseRate(raw === undefined || raw === '' ? fallback : raw)
    if (rate) rates[scope] = rate
    else problems.push(`${variable} must look like COUNT/WINDOW, e.g. "10/5m", "5/h" or "30/300"`)
  }

  const isProduction = env.NODE_ENV === 'production'
  const secret = env.PROVIDER_JWT_SECRET
  if (isProduction && (secret === undefined || secret === '')) {
    problems.push('PROVIDER_JWT_SECRET is required when NODE_ENV=production')
  } else if (isProduction && secret !== undefined && secret.length < 32) {
    problems.push('PROVIDER_JWT_SECRET must be at least 32 characters long in production')
  }

  // A real key without the fake, unless the fake is named: an operator's key means real Stripe.
  const stripeKey = env.STRIPE_SECRET_KEY || undefined
  const stripeWebhookSecret = env.STRIPE_WEBHOOK_SECRET || undefined
  const fakeStripe = parsed.success ? (parsed.data.FAKE_STRIPE ?? (!isProduction && stripeKey === undefined)) : false
  if (parsed.success && fakeStripe && stripeKey !== undefined && STRIPE_KEY.test(stripeKey) && !STRIPE_TEST_KEY.test(stripeKey)) {
    problems.push('STRIPE_SECRET_KEY must be a test key (sk_test_… or rk_test_…) while FAKE_STRIPE is on')
  }
  if (parsed.success && !fakeStripe && (stripeKey === undefined) !== (stripeWebhookSecret === undefined)) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together: set both for Stripe, or neither for no payments')
  }

  // As with Stripe: an operator's Zoom app means real Zoom, unless the fake is named.
  const zoomNamed = [env.ZOOM_ACCOUNT_ID, env.ZOOM_CLIENT_ID, env.ZOOM_CLIENT_SECRET].filter((value) => value !== undefined && value !== '').length
  const fakeZoom = parsed.success ? (parsed.data.FAKE_ZOOM ?? (!isProduction && zoomNamed === 0)) : false
  if (zoomNamed !== 0 && zoomNamed !== 3) problems.push('ZOOM_ACCOUNT_ID, ZOOM_CLIENT_ID and ZOOM_CLIENT_SECRET go together: set all three for Zoom, or none')

  // With a fake on, the variable our client sends with (the SDK's key, the app's client secret) is
  // the one the fake takes too: a FAKE_… naming another value would leave the client refused.
  const fakeGoogle = parsed.success ? (parsed.data.FAKE_GOOGLE ?? !isProduction) : false
  for (const [fakeVariable, ownVariable, on] of [
    ['FAKE_STRIPE_SECRET_KEY', 'STRIPE_SECRET_KEY', fakeStripe],
    ['FAKE_STRIPE_WEBHOOK_SECRET', 'STRIPE_WEBHOOK_SECRET', fakeStripe],
    ['FAKE_ZOOM_CLIENT_SECRET', 'ZOOM_CLIENT_SECRET', fakeZoom],
    ['FAKE_GOOGLE_CLIENT_SECRET', 'GOOGLE_CLIENT_SECRET', fakeGoogle],
  ] as const) {
    if (on && env[fakeVariable] && env[ownVariable] && env[fakeVariable] !== env[ownVariable]) {
      problems.push(`${ownVariable} and ${fakeVariable} differ: with the fake on both are the fake's secret; set one of them`)
    }
  }

  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither for a key pair made at the first start')

  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems)
  const values = parsed.data

  const port = values.PROVIDER_PORT ?? 8000
  const providerPublicUrl = values.PROVIDER_PUBLIC_URL ?? `http://127.0.0.1:${port}`
  // The defaults follow the fake: with it on, sign-in works offline against ourselves.
  const googleIssuer = values.GOOGLE_ISSUER ?? (fakeGoogle ? `${providerPublicUrl}/fake-google` : GOOGLE_ISSUER)
  const googleJwksUrl = values.GOOGLE_JWKS_URL ?? (fakeGoogle ? `${providerPublicUrl}/fake-google/certs` : GOOGLE_JWKS_URL)
  const fakeGoogleBase = `${providerPublicUrl}/fake-google`

  return {
    isProduction,
    port,
    host: values.PROVIDER_HOST ?? '127.0.0.1',
    // Its own port, on loopback unless named (decision 0089); off without a port.
    metrics: values.PROVIDER_METRICS_PORT ? { port: values.PROVIDER_METRICS_PORT, host: values.PROVIDER_METRICS_HOST ?? '127.0.0.1' } : undefined,
    dataDir: values.PROVIDER_DATA_DIR ?? './data/provider',
    databaseUrl: values.DATABASE_URL || undefined,
    migrationsDir: values.PROVIDER_MIGRATIONS_DIR,
    jwtSecret: secret || DEV_JWT_SECRET,
    accessTokenLifetimeSeconds: values.ACCESS_TOKEN_LIFETIME ?? 300,
    refreshTokenLifetimeSeconds: values.REFRESH_TOKEN_LIFETIME ?? 86_400,
    appPublicUrl: values.APP_PUBLIC_URL ?? 'http://localhost:3000',
    providerPublicUrl,
    mediaBaseUrl: values.MEDIA_BASE_URL,
    google: {
      clientId: values.GOOGLE_CLIENT_ID ?? 'innera-dev-client',
      issuer: googleIssuer,
      jwksUrl: googleJwksUrl,
      clientSecret: values.GOOGLE_CLIENT_SECRET || (fakeGoogle ? values.FAKE_GOOGLE_CLIENT_SECRET : undefined),
      authorizationUrl: values.GOOGLE_OAUTH_AUTHORIZATION_URL ?? (fakeGoogle ? `${fakeGoogleBase}/authorize` : GOOGLE_AUTHORIZATION_URL),
      tokenUrl: values.GOOGLE_OAUTH_TOKEN_URL ?? (fakeGoogle ? `${fakeGoogleBase}/token` : GOOGLE_TOKEN_URL),
      revokeUrl: values.GOOGLE_OAUTH_REVOKE_URL ?? (fakeGoogle ? `${fakeGoogleBase}/revoke` : GOOGLE_REVOKE_URL),
      calendarApiUrl: values.GOOGLE_CALENDAR_API_URL ?? (fakeGoogle ? fakeGoogleBase : GOOGLE_API_URL),
    },
    fakeGoogle,
    fakeZoom,
    zoom:
      zoomNamed === 3 || fakeZoom
        ? {
            accountId: values.ZOOM_ACCOUNT_ID || FAKE_ZOOM_ACCOUNT_ID,
            clientId: values.ZOOM_CLIENT_ID || FAKE_ZOOM_CLIENT_ID,
            clientSecret: values.ZOOM_CLIENT_SECRET || values.FAKE_ZOOM_CLIENT_SECRET,
            apiUrl: values.ZOOM_API_URL ?? (fakeZoom ? `${providerPublicUrl}/fake-zoom/v2` : ZOOM_API_URL),
            oauthUrl: values.ZOOM_OAUTH_URL ?? (fakeZoom ? `${providerPublicUrl}/fake-zoom/oauth/token` : ZOOM_OAUTH_URL),
          }
        : undefined,
    fakeStripe,
    stripe: {
      // With the fake and neither variable: made at the first start (fakes/secrets.ts), never a constant.
      secretKey: stripeKey ?? (fakeStripe ? values.FAKE_STRIPE_SECRET_KEY : undefined),
      webhookSecret: stripeWebhookSecret ?? (fakeStripe ? values.FAKE_STRIPE_WEBHOOK_SECRET : undefined),
      // The fake answers at the root of the provider's own address, as Stripe does at api.stripe.com.
      apiUrl: (values.STRIPE_API_URL || (fakeStripe ? new URL(providerPublicUrl).origin : STRIPE_API_URL)).replace(/\/+$/, ''),
      fakeWebhookUrl: values.FAKE_STRIPE_WEBHOOK_URL || `${providerPublicUrl}/purchases/webhook/`,
      fakeWebhookDuplicatePercent: values.FAKE_STRIPE_DUPLICATE_PERCENT ?? 5,
    },
    devMailbox: values.DEV_MAILBOX ?? !isProduction,
    delayMs: values.PROVIDER_DELAY_MS ?? 0,
    forwardingSecret: values.PROVIDER_FORWARDING_SECRET || undefined,
    throttle: { disabled: values.THROTTLE_DISABLED ?? false, rates },
    redisUrl: values.REDIS_URL || undefined,
    redisKeyPrefix: values.REDIS_KEY_PREFIX || 'innera:throttle:',
    meetingBaseUrl: values.MEETING_BASE_URL || 'https://meet.jit.si/',
    smtpUrl: values.SMTP_URL || undefined,
    smtpFrom: values.SMTP_FROM?.trim() || DEFAULT_SMTP_FROM,
    reminderTickMs: values.REMINDER_TICK_MS ?? 30_000,
    mailTickMs: values.MAIL_TICK_MS ?? 5_000,
    calendarSyncTickMs: values.CALENDAR_SYNC_TICK_MS ?? 60_000,
    subscriptionsTickMs: values.SUBSCRIPTIONS_TICK_MS ?? 60_000,
    booking: {
      maxUpcomingPerProfessional: values.BOOKING_MAX_UPCOMING_PER_PROFESSIONAL ?? 4,
      maxUpcoming: values.BOOKING_MAX_UPCOMING ?? 8,
    },
    mail: { collapseMs: values.MAIL_COLLAPSE_MS ?? 120_000, perUserPerHour: values.MAIL_PER_USER_PER_HOUR ?? 30 },
    push: {
      vapid: values.VAPID_PUBLIC_KEY && values.VAPID_PRIVATE_KEY ? { publicKey: values.VAPID_PUBLIC_KEY, privateKey: values.VAPID_PRIVATE_KEY } : undefined,
      subject: values.VAPID_SUBJECT || `mailto:${mailAddressOf(values.SMTP_FROM?.trim() || DEFAULT_SMTP_FROM)}`,
      fake: values.FAKE_PUSH ?? !isProduction,
    },
  }
}

/** The address of "Name <address>" or of a bare address. */
function mailAddressOf(from: string): string {
  return /<([^<>]+)>/.exec(from)?.[1] ?? from
}

/**
 * Lines to log at start about a risky configuration: the development stand-ins switched on
 * explicitly in production, each saying what it opens to whom (decision 0073), and a test-mode
 * Stripe key in production. The fakes' keys and signing secrets are the install's own (made at the
 * first start and kept in the provider's database, or given as FAKE_… variables), never public;
 * what stays open is what a fake is: a sign-in, a mailbox, a payment page anyone can use.
 */
export function startupWarnings(config: ProviderConfig): string[] {
  if (!config.isProduction) return []
  const warnings: string[] = []
  if (config.fakeGoogle) {
    warnings.push(
      'FAKE_GOOGLE is on with NODE_ENV=production: anyone can sign in through /fake-google/ as any Google identity, so into any account that signs in with Google; its client secret (GOOGLE_CLIENT_SECRET or FAKE_GOOGLE_CLIENT_SECRET, else kept in the provider\'s database) guards only the code exchange.',
    )
  }
  if (config.devMailbox) warnings.push('DEV_MAILBOX is on with NODE_ENV=production: anyone can read every e-mail sent through /dev/mailbox/, password reset links included, so take any account.')
  if (config.fakeZoom) {
    warnings.push(
      'FAKE_ZOOM is on with NODE_ENV=production: live classes get fake meetings from /fake-zoom/, which nobody can join on Zoom; anyone with its client secret (ZOOM_CLIENT_SECRET or FAKE_ZOOM_CLIENT_SECRET, else kept in the provider\'s database) can make, change and delete them.',
    )
  }
  if (config.push.fake) warnings.push('FAKE_PUSH is on with NODE_ENV=production: anyone can make subscriptions at /fake-push/ and read what is pushed to them (never a message\'s text); real browsers are not affected.')
  if (config.fakeStripe) {
    warnings.push(
      "FAKE_STRIPE is on with NODE_ENV=production: no payment is real, and anyone can pay any charge through /fake-stripe/; anyone with its API key (STRIPE_SECRET_KEY or FAKE_STRIPE_SECRET_KEY, else kept in the provider's database) can list every buyer's payments and e-mails and refund them, and anyone with its webhook secret (likewise) can sign events that mark purchases paid.",
    )
  } else if (config.stripe.secretKey && STRIPE_TEST_KEY.test(config.stripe.secretKey)) warnings.push('STRIPE_SECRET_KEY is a test-mode key with NODE_ENV=production: no payment is real.')
  return warnings
}

import { isIP } from 'node:net'
import { z } from 'zod'

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value))

const DEV_SESSION_SECRET = 'innera-dev-session-secret-change-me'

/** Express's names for address ranges, accepted in a TRUST_PROXY list. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** An address or subnet ("10.0.0.0/8", "fd00::/8", "10.0.0.0/255.0.0.0") or one of Express's range names. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true
  const [address = '', range, ...rest] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  if (range === undefined) return true
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128)
  return family === 4 && isIP(range) === 4
}

/**
 * Which hops in front of the app may tell it the visitor's address (X-Forwarded-For), in Express's
 * trust-proxy terms. Trusting every hop (`true`) is refused: anyone could then name any address.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    const text = value?.trim() ?? ''
    if (text === '' || text === 'false' || text === '0') return false
    if (/^\d+$/.test(text)) return Number(text)
    const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean)
    const bad = entries.filter((entry) => !isProxyAddress(entry))
    if (text === 'true' || bad.length > 0 || entries.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, a number of proxy hops, or a comma-separated list of proxy addresses/subnets (e.g. 10.0.0.1,172.16.0.0/12 or loopback)${text === 'true' ? '; "true" would trust a forged X-Forwarded-For from anyone' : `: not ${bad.join(', ')}`}`,
      })
      return z.NEVER
    }
    return entries
  })

const schema = z
  .object({
    NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    // /metrics on its own port, on loopback unless named (decision 0089); off without a port.
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    // Pages and data requests rendered at once; the rest wait their turn in arrival order (decision 0021).
    APP_MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(1).max(10_000).default(8),
    // Slow clients (decision 0038): the headers must arrive within this, and a form's body within
    // APP_BODY_TIMEOUT_MS after them (an upload, six times as large, six times as long); bodies wait
    // whole, outside the render slots, at most APP_MAX_BUFFERED_BODY_BYTES of them at once; one
    // address (not a trusted proxy) holds at most APP_MAX_CONNECTIONS_PER_ADDRESS connections.
    APP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
    APP_BODY_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
    APP_MAX_BUFFERED_BODY_BYTES: z.coerce.number().int().min(1024 * 1024).max(4 * 1024 * 1024 * 1024).default(64 * 1024 * 1024),
    APP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(64),
    PROVIDER_API_URL: z.url({ message: 'must be an absolute http(s) URL, e.g. http://127.0.0.1:8000' }),
    // Writes wait longer than reads: a write the provider is slow to finish is still worth its answer.
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    PROVIDER_READ_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).optional(),
    // Proves to the provider that the X-Forwarded-For the app sends is the app's own word.
    PROVIDER_FORWARDING_SECRET: z.string().min(32, { message: 'must be at least 32 characters long' }).optional(),
    TRUST_PROXY: trustProxy,
    SESSION_SECRET: z
      .string()
      .min(1)
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((secret) => secret.trim())
          .filter(Boolean),
      ),
    SESSION_COOKIE_SECURE: booleanFromString.optional(),
    // Every absolute URL (sitemap, robots.txt, hreflang, the Google callback) is built from this,
    // never from the request's Host or X-Forwarded-Host, which a visitor chooses.
    APP_PUBLIC_URL: z
      .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL, e.g. https://innera.example' })
      .optional(),
    LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
    // The benchmarks' own pages (/bench/*): off unless `npm run bench` asks for them, so production
    // serves no page that exists only to be measured.
    APP_BENCH_ROUTES: booleanFromString.default(false),
    // Sign-in with Google: off when GOOGLE_CLIENT_ID is unset. The URLs default to Google's and
    // are pointed at the embedded provider's fake Google in development and tests.
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
    GOOGLE_USERINFO_URL: z.url().default('https://www.googleapis.com/oauth2/v3/userinfo'),
    // Where a card payment's page lives (the checkout form redirects there, so the page's
    // Content-Security-Policy must allow it): Stripe's, or the embedded provider's fake Stripe.
    PAYMENT_PAGES_URL: z.url().default('https://checkout.stripe.com'),
    // The same value as the provider's: where the lessons' videos are served when not by the
    // provider (a CDN or object storage). Its origin joins the CSP's media-src and the lesson page
    // plays the video from there; captions and posters still come through /media/.
    MEDIA_BASE_URL: z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL with no query, e.g. https://cdn.example.com/innera' })
      .refine((value) => !value.includes('?') && !value.includes('#'), { message: 'must be an http(s) URL with no query, e.g. https://cdn.example.com/innera' })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production') {
      if (env.SESSION_SECRET.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production (comma-separated, newest first)' })
      }
      if (env.GOOGLE_CLIENT_ID && !env.GOOGLE_CLIENT_SECRET) {
        ctx.addIssue({ code: 'custom', path: ['GOOGLE_CLIENT_SECRET'], message: 'is required when GOOGLE_CLIENT_ID is set' })
      }
      for (const secret of env.SESSION_SECRET) {
        if (secret.length < 32) {
          ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'each secret must be at least 32 characters long in production' })
          break
        }
      }
    }
  })
  .transform((env) => ({
    ...env,
    SESSION_SECRET: env.SESSION_SECRET.length > 0 ? env.SESSION_SECRET : [DEV_SESSION_SECRET],
    SESSION_COOKIE_SECURE: env.SESSION_COOKIE_SECURE ?? env.NODE_ENV === 'production',
    // Unset, a read waits 5 s, or less when every call must be quicker than that.
    PROVIDER_READ_TIMEOUT_MS: env.PROVIDER_READ_TIMEOUT_MS ?? Math.min(5_000, env.PROVIDER_TIMEOUT_MS),
    /** The public origin, without a trailing slash. */
    APP_PUBLIC_URL: new URL(env.APP_PUBLIC_URL ?? `http://localhost:${env.PORT}`).origin,
  }))

type Env = z.infer<typeof schema>

export class EnvError extends Error {}

/** Parses an environment, naming every bad variable in one message. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const result = schema.safeParse(cleaned)
  if (result.success) return result.data
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)'
    const message = issue.code === 'invalid_type' && cleaned[name] === undefined ? 'is required' : issue.message
    return `  - ${name}: ${message}`
  })
  throw new EnvError(`Invalid environment variables:\n${lines.join('\n')}\nSee .env.example for every variable.`)
}

let cached: Env | undefined

/** The validated environment; validated once, at start (entry.server calls it). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env)
  return cached
}

import { randomBytes } from 'node:crypto'
import { inArray } from 'drizzle-orm'
import type { ProviderConfig } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { fakeSecrets } from '#server/db/schema.ts'

/**
 * The embedded fakes' own keys and signing secrets (issue 41, decision 0073): the fake Stripe's
 * API key and webhook secret, the fake Zoom's and the fake Google's client secrets. None is a
 * constant: loadConfig takes them from the environment (FAKE_STRIPE_SECRET_KEY, … or the client's
 * own variable), and those it was not given are resolved here at start, before the app is built:
 * made once, at the first start of an install with the fake on, and kept in the provider's
 * database. The database, not a file beside it, so that every provider process sharing one
 * PostgreSQL accepts and signs with the same ones (the SDK in one process calls the fake in
 * another through the load balancer); the embedded PGlite's database is in the data folder.
 */

export type FakeSecretName = 'stripe_secret_key' | 'stripe_webhook_secret' | 'zoom_client_secret' | 'google_client_secret'

/** The variable that gives each one instead (server/config.ts), for messages and logs: never the value. */
export const FAKE_SECRET_VARIABLES: Record<FakeSecretName, string> = {
  stripe_secret_key: 'FAKE_STRIPE_SECRET_KEY',
  stripe_webhook_secret: 'FAKE_STRIPE_WEBHOOK_SECRET',
  zoom_client_secret: 'FAKE_ZOOM_CLIENT_SECRET',
  google_client_secret: 'FAKE_GOOGLE_CLIENT_SECRET',
}

// The real services' shapes: Stripe's test keys and signing secrets, Google's client secrets; Zoom's are bare.
const PREFIXES: Record<FakeSecretName, string> = {
  stripe_secret_key: 'sk_test_',
  stripe_webhook_secret: 'whsec_',
  zoom_client_secret: '',
  google_client_secret: 'GOCSPX-',
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** 48 characters of 62: about 285 bits, more than the 32 bytes asked of a secret. */
const RANDOM_CHARACTERS = 48

/** Random letters and digits, each as likely as the others (bytes past the last whole 62 are dropped). */
function randomAlphanumeric(length: number): string {
  let text = ''
  while (text.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < 248 && text.length < length) text += ALPHABET[byte % 62]
    }
  }
  return text
}

/** A new secret in the shape of the real service's (e.g. `sk_test_…`, `whsec_…`). */
export function generateFakeSecret(name: FakeSecretName): string {
  return `${PREFIXES[name]}${randomAlphanumeric(RANDOM_CHARACTERS)}`
}

/** One new secret of each kind: what a fresh install makes. */
export function generateFakeSecrets(): Record<FakeSecretName, string> {
  return {
    stripe_secret_key: generateFakeSecret('stripe_secret_key'),
    stripe_webhook_secret: generateFakeSecret('stripe_webhook_secret'),
    zoom_client_secret: generateFakeSecret('zoom_client_secret'),
    google_client_secret: generateFakeSecret('google_client_secret'),
  }
}

/** The secrets of the fakes that are on which the environment did not give: what start must resolve. */
export function pendingFakeSecrets(config: ProviderConfig): FakeSecretName[] {
  const pending: FakeSecretName[] = []
  if (config.fakeStripe && !config.stripe.secretKey) pending.push('stripe_secret_key')
  if (config.fakeStripe && !config.stripe.webhookSecret) pending.push('stripe_webhook_secret')
  if (config.fakeZoom && config.zoom && !config.zoom.clientSecret) pending.push('zoom_client_secret')
  if (config.fakeGoogle && !config.google.clientSecret) pending.push('google_client_secret')
  return pending
}

/** The configuration with its pending secrets filled in from `values`; a secret already set (given) is kept. Pure. */
export function withFakeSecrets(config: ProviderConfig, values: Partial<Record<FakeSecretName, string>>): ProviderConfig {
  const pending = new Set(pendingFakeSecrets(config))
  const value = (name: FakeSecretName) => (pending.has(name) ? values[name] : undefined)
  return {
    ...config,
    stripe: {
      ...config.stripe,
      secretKey: config.stripe.secretKey ?? value('stripe_secret_key'),
      webhookSecret: config.stripe.webhookSecret ?? value('stripe_webhook_secret'),
    },
    zoom: config.zoom && { ...config.zoom, clientSecret: config.zoom.clientSecret ?? value('zoom_client_secret') },
    google: { ...config.google, clientSecret: config.google.clientSecret ?? value('google_client_secret') },
  }
}

/**
 * The configuration with every pending secret resolved from the database: those it holds are
 * used, the others made now and stored. Two processes starting at once each insert theirs and
 * keep whichever the database took first (the name is the key), so both end with the same.
 * `made` names the secrets this call created (for a log line; never their values).
 */
export async function resolveFakeSecrets(db: Database, config: ProviderConfig): Promise<{ config: ProviderConfig; made: FakeSecretName[] }> {
  const pending = pendingFakeSecrets(config)
  if (pending.length === 0) return { config, made: [] }
  const inserted = await db
    .insert(fakeSecrets)
    .values(pending.map((name) => ({ name, value: generateFakeSecret(name) })))
    .onConflictDoNothing()
    .returning({ name: fakeSecrets.name })
  const rows = await db.select({ name: fakeSecrets.name, value: fakeSecrets.value }).from(fakeSecrets).where(inArray(fakeSecrets.name, pending))
  const resolved = withFakeSecrets(config, Object.fromEntries(rows.map((row) => [row.name, row.value])))
  const missing = pendingFakeSecrets(resolved)
  if (missing.length > 0) throw new Error(`the fakes' secrets ${missing.join(', ')} could not be kept in the database`)
  return { config: resolved, made: inserted.map((row) => row.name as FakeSecretName) }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProviderApp } from '#server/app.ts'
import { loadConfig, type ProviderConfig } from '#server/config.ts'
import { findMigrationsDir, openDatabase, type DatabaseHandle } from '#server/db/client.ts'
import { fakeSecrets } from '#server/db/schema.ts'
import { generateFakeSecret, pendingFakeSecrets, resolveFakeSecrets, withFakeSecrets, type FakeSecretName } from '#server/fakes/secrets.ts'
import { createMemoryDatabase, describeOnPostgres } from '#server/testing/harness.ts'

// Every fake on, nothing given: what a fresh `npm start` (or `npm run dev`) configures.
const ALL_FAKES = { PROVIDER_PUBLIC_URL: 'http://provider.test' }
const secretsOf = (config: ProviderConfig) => ({
  stripe_secret_key: config.stripe.secretKey,
  stripe_webhook_secret: config.stripe.webhookSecret,
  zoom_client_secret: config.zoom?.clientSecret,
  google_client_secret: config.google.clientSecret,
})

describe('generateFakeSecret', () => {
  it("makes each in the real service's shape, with at least 32 bytes of randomness, never the same twice", () => {
    const shapes: Record<FakeSecretName, RegExp> = {
      stripe_secret_key: /^sk_test_[A-Za-z0-9]{48}$/,
      stripe_webhook_secret: /^whsec_[A-Za-z0-9]{48}$/,
      zoom_client_secret: /^[A-Za-z0-9]{48}$/,
      google_client_secret: /^GOCSPX-[A-Za-z0-9]{48}$/,
    }
    for (const [name, shape] of Object.entries(shapes) as [FakeSecretName, RegExp][]) {
      const made = Array.from({ length: 50 }, () => generateFakeSecret(name))
      for (const secret of made) expect(secret).toMatch(shape)
      expect(new Set(made).size).toBe(50)
    }
    // 48 characters of 62 carry 285 bits; and each character is used (no bias to a few).
    expect(48 * Math.log2(62)).toBeGreaterThan(256)
    const characters = new Set(Array.from({ length: 200 }, () => generateFakeSecret('zoom_client_secret')).join(''))
    expect(characters.size).toBe(62)
  })

  it('makes what the configuration accepts as given (FAKE_STRIPE_SECRET_KEY, …)', () => {
    const env = {
      FAKE_STRIPE_SECRET_KEY: generateFakeSecret('stripe_secret_key'),
      FAKE_STRIPE_WEBHOOK_SECRET: generateFakeSecret('stripe_webhook_secret'),
      FAKE_ZOOM_CLIENT_SECRET: generateFakeSecret('zoom_client_secret'),
      FAKE_GOOGLE_CLIENT_SECRET: generateFakeSecret('google_client_secret'),
    }
    const config = loadConfig({ ...ALL_FAKES, ...env })
    expect(pendingFakeSecrets(config)).toEqual([])
    expect(secretsOf(config)).toEqual({
      stripe_secret_key: env.FAKE_STRIPE_SECRET_KEY,
      stripe_webhook_secret: env.FAKE_STRIPE_WEBHOOK_SECRET,
      zoom_client_secret: env.FAKE_ZOOM_CLIENT_SECRET,
      google_client_secret: env.FAKE_GOOGLE_CLIENT_SECRET,
    })
  })
})

describe('withFakeSecrets', () => {
  it('fills only the pending ones: a given secret, or real Stripe’s key, is never replaced', () => {
    const values = { stripe_secret_key: 'sk_test_from_elsewhere', stripe_webhook_secret: 'whsec_from_elsewhere', zoom_client_secret: 'z', google_client_secret: 'g' }
    const real = loadConfig({ STRIPE_SECRET_KEY: 'sk_live_operator', STRIPE_WEBHOOK_SECRET: 'whsec_operator', FAKE_GOOGLE: 'off', FAKE_ZOOM: 'off' })
    expect(pendingFakeSecrets(real)).toEqual([])
    expect(secretsOf(withFakeSecrets(real, values))).toEqual({ stripe_secret_key: 'sk_live_operator', stripe_webhook_secret: 'whsec_operator', zoom_client_secret: undefined, google_client_secret: undefined })
    // Payments off stay off: no fake, no key made up for it.
    expect(withFakeSecrets(loadConfig({ FAKE_STRIPE: 'off' }), values).stripe.secretKey).toBeUndefined()
  })
})

describe('createProviderApp', () => {
  let database: DatabaseHandle
  beforeAll(async () => {
    database = await createMemoryDatabase()
  })
  afterAll(() => database.close())

  it('refuses a configuration whose fakes have no secret yet, rather than run them keyless', () => {
    expect(() => createProviderApp({ db: database.db, config: loadConfig(ALL_FAKES) })).toThrow(
      "the fakes' secrets stripe_secret_key, stripe_webhook_secret, zoom_client_secret, google_client_secret are not resolved",
    )
  })
})

describe('resolveFakeSecrets', () => {
  const databases: DatabaseHandle[] = []
  const folders: string[] = []
  const fresh = async () => {
    const handle = await createMemoryDatabase()
    databases.push(handle)
    return handle
  }
  afterAll(async () => {
    for (const handle of databases) await handle.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  it('gives two fresh installs different secrets, each made once and stored', async () => {
    const [first, second] = [await fresh(), await fresh()]
    const one = await resolveFakeSecrets(first.db, loadConfig(ALL_FAKES))
    const other = await resolveFakeSecrets(second.db, loadConfig(ALL_FAKES))
    expect(one.made).toEqual(['stripe_secret_key', 'stripe_webhook_secret', 'zoom_client_secret', 'google_client_secret'])
    expect(pendingFakeSecrets(one.config)).toEqual([])
    const a = secretsOf(one.config)
    const b = secretsOf(other.config)
    for (const name of Object.keys(a) as FakeSecretName[]) {
      expect(a[name]).toBeTruthy()
      expect(a[name]).not.toBe(b[name])
    }
    expect(a.stripe_secret_key).toMatch(/^sk_test_/)
    expect(a.stripe_webhook_secret).toMatch(/^whsec_/)
    // Stored as made: the next start of this install reads them.
    const stored = Object.fromEntries((await first.db.select().from(fakeSecrets)).map((row) => [row.name, row.value]))
    expect(stored).toEqual(a)
  })

  it('keeps them across a restart of an install in a data folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'innera-fake-secrets-'))
    folders.push(folder)
    const start = async () => {
      const handle = await openDatabase({ dataDir: folder })
      await handle.migrate(findMigrationsDir())
      try {
        return await resolveFakeSecrets(handle.db, loadConfig({ ...ALL_FAKES, PROVIDER_DATA_DIR: folder }))
      } finally {
        await handle.close()
      }
    }
    const first = await start()
    const again = await start()
    expect(again.made).toEqual([])
    expect(secretsOf(again.config)).toEqual(secretsOf(first.config))
  })

  it('takes the variables over the database, and stores only what it had to make', async () => {
    const handle = await fresh()
    const key = generateFakeSecret('stripe_secret_key')
    const zoom = generateFakeSecret('zoom_client_secret')
    const given = await resolveFakeSecrets(handle.db, loadConfig({ ...ALL_FAKES, FAKE_STRIPE_SECRET_KEY: key, FAKE_ZOOM_CLIENT_SECRET: zoom }))
    expect(given.made).toEqual(['stripe_webhook_secret', 'google_client_secret'])
    expect(given.config.stripe.secretKey).toBe(key)
    expect(given.config.zoom!.clientSecret).toBe(zoom)
    expect((await handle.db.select().from(fakeSecrets)).map((row) => row.name).sort()).toEqual(['google_client_secret', 'stripe_webhook_secret'])

    // A later start without the variables makes its own for those; the others stay as stored.
    const later = await resolveFakeSecrets(handle.db, loadConfig(ALL_FAKES))
    expect(later.made).toEqual(['stripe_secret_key', 'zoom_client_secret'])
    expect(later.config.stripe.secretKey).not.toBe(key)
    expect(later.config.stripe.webhookSecret).toBe(given.config.stripe.webhookSecret)
    // And a start that gives one again uses it, whatever the database holds.
    const overridden = await resolveFakeSecrets(handle.db, loadConfig({ ...ALL_FAKES, FAKE_STRIPE_SECRET_KEY: key }))
    expect(overridden.config.stripe.secretKey).toBe(key)
  })

  it('touches nothing when no fake needs a secret', async () => {
    const handle = await fresh()
    const config = loadConfig({ NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'p'.repeat(40) })
    expect(await resolveFakeSecrets(handle.db, config)).toEqual({ config, made: [] })
    expect(await handle.db.select().from(fakeSecrets)).toEqual([])
  })
})

await describeOnPostgres('resolveFakeSecrets on PostgreSQL', (open) => {
  it('gives every provider process sharing the database the same secrets, also when they start at once', async () => {
    const { first, second, dispose } = await open()
    try {
      const [a, b] = await Promise.all([resolveFakeSecrets(first.db, loadConfig(ALL_FAKES)), resolveFakeSecrets(second.db, loadConfig(ALL_FAKES))])
      expect(secretsOf(a.config)).toEqual(secretsOf(b.config))
      // Each secret was made by exactly one of them.
      expect([...a.made, ...b.made].sort()).toEqual(['google_client_secret', 'stripe_secret_key', 'stripe_webhook_secret', 'zoom_client_secret'])
      const later = await resolveFakeSecrets(second.db, loadConfig(ALL_FAKES))
      expect(secretsOf(later.config)).toEqual(secretsOf(a.config))
    } finally {
      await dispose()
    }
  })
})

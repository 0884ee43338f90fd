import { describe, expect, it } from 'vitest'
import { ConfigError, describeSmtpUrl, FAKE_ZOOM_CLIENT_ID, loadConfig, parseRate, startupWarnings } from '#server/config.ts'
import { pendingFakeSecrets } from '#server/fakes/secrets.ts'

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  it('has working defaults for development', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      dataDir: './data/provider',
      databaseUrl: undefined,
      accessTokenLifetimeSeconds: 300,
      refreshTokenLifetimeSeconds: 86_400,
      appPublicUrl: 'http://localhost:3000',
      providerPublicUrl: 'http://127.0.0.1:8000',
      google: {
        clientId: 'innera-dev-client',
        issuer: 'http://127.0.0.1:8000/fake-google',
        jwksUrl: 'http://127.0.0.1:8000/fake-google/certs',
      },
      fakeGoogle: true,
      devMailbox: true,
      delayMs: 0,
    })
    expect(config.jwtSecret.length).toBeGreaterThan(20)
    expect(config.throttle.rates.loginPerEmail).toEqual({ count: 10, windowSeconds: 300 })
    expect(config.throttle.rates.resetPerEmail).toEqual({ count: 5, windowSeconds: 3600 })
  })

  it('derives the public URL from the port and strips trailing slashes', () => {
    expect(loadConfig({ PROVIDER_PORT: '9001' }).providerPublicUrl).toBe('http://127.0.0.1:9001')
    expect(loadConfig({ APP_PUBLIC_URL: 'https://innera.example/' }).appPublicUrl).toBe('https://innera.example')
  })

  it('uses the real Google and no dev tools in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'x'.repeat(40) })
    expect(config).toMatchObject({
      isProduction: true,
      fakeGoogle: false,
      devMailbox: false,
      google: { issuer: 'https://accounts.google.com', jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs' },
    })
  })

  it('requires a real JWT secret in production', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual(['PROVIDER_JWT_SECRET is required when NODE_ENV=production'])
    expect(problemsOf({ NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'short' })).toEqual([
      'PROVIDER_JWT_SECRET must be at least 32 characters long in production',
    ])
  })

  it('names every bad variable at once', () => {
    const problems = problemsOf({
      PROVIDER_PORT: 'eighty',
      ACCESS_TOKEN_LIFETIME: '-5',
      APP_PUBLIC_URL: 'ftp://x',
      DATABASE_URL: 'mysql://db',
      FAKE_GOOGLE: 'maybe',
      THROTTLE_LOGIN_PER_EMAIL: 'lots',
    })
    expect(problems).toHaveLength(6)
    expect(problems.join('\n')).toMatch(/PROVIDER_PORT must be an integer between 1 and 65535/)
    expect(problems.join('\n')).toMatch(/ACCESS_TOKEN_LIFETIME/)
    expect(problems.join('\n')).toMatch(/APP_PUBLIC_URL must be an http\(s\) URL/)
    expect(problems.join('\n')).toMatch(/DATABASE_URL/)
    expect(problems.join('\n')).toMatch(/FAKE_GOOGLE/)
    expect(problems.join('\n')).toMatch(/THROTTLE_LOGIN_PER_EMAIL/)
  })

  it('reads switches and throttle rates', () => {
    const config = loadConfig({ THROTTLE_DISABLED: '1', FAKE_GOOGLE: 'off', PROVIDER_DELAY_MS: '250', THROTTLE_LOGIN_PER_ADDRESS: '1000/m' })
    expect(config.throttle.disabled).toBe(true)
    expect(config.fakeGoogle).toBe(false)
    expect(config.google.issuer).toBe('https://accounts.google.com')
    expect(config.delayMs).toBe(250)
    expect(config.throttle.rates.loginPerAddress).toEqual({ count: 1000, windowSeconds: 60 })
  })
  it('limits booking: per-user rates, upcoming appointments per patient, and appointment mail (issue 22)', () => {
    const defaults = loadConfig({})
    expect(defaults.throttle.rates).toMatchObject({
      bookingPerUser: { count: 10, windowSeconds: 3600 },
      reschedulePerUser: { count: 10, windowSeconds: 3600 },
      cancelPerUser: { count: 20, windowSeconds: 3600 },
    })
    expect(defaults).toMatchObject({ booking: { maxUpcomingPerProfessional: 4, maxUpcoming: 8 }, mail: { collapseMs: 120_000, perUserPerHour: 30 } })
    const set = loadConfig({ THROTTLE_BOOKING_PER_USER: '3/m', BOOKING_MAX_UPCOMING_PER_PROFESSIONAL: '2', BOOKING_MAX_UPCOMING: '5', MAIL_COLLAPSE_MS: '0', MAIL_PER_USER_PER_HOUR: '100' })
    expect(set.throttle.rates.bookingPerUser).toEqual({ count: 3, windowSeconds: 60 })
    expect(set).toMatchObject({ booking: { maxUpcomingPerProfessional: 2, maxUpcoming: 5 }, mail: { collapseMs: 0, perUserPerHour: 100 } })
    expect(problemsOf({ BOOKING_MAX_UPCOMING: '0', MAIL_PER_USER_PER_HOUR: 'many', MAIL_COLLAPSE_MS: '3600001' })).toEqual([
      'BOOKING_MAX_UPCOMING must be an integer between 1 and 1000',
      'MAIL_COLLAPSE_MS must be an integer between 0 and 3600000',
      'MAIL_PER_USER_PER_HOUR must be an integer between 1 and 100000',
    ])
  })

  it('keeps throttles in memory unless REDIS_URL names a Redis, with a default key prefix', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: undefined, redisKeyPrefix: 'innera:throttle:' })
    expect(loadConfig({ REDIS_URL: '', REDIS_KEY_PREFIX: '' })).toMatchObject({ redisUrl: undefined, redisKeyPrefix: 'innera:throttle:' })
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379/2', REDIS_KEY_PREFIX: 'clinic-a:' })).toMatchObject({
      redisUrl: 'redis://cache:6379/2',
      redisKeyPrefix: 'clinic-a:',
    })
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@cache:6380' }).redisUrl).toBe('rediss://user:pw@cache:6380')
    expect(problemsOf({ REDIS_URL: 'http://cache:6379' }).join('\n')).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/)
  })

  it('builds meeting links on MEETING_BASE_URL, an https URL ending in "/"', () => {
    expect(loadConfig({}).meetingBaseUrl).toBe('https://meet.jit.si/')
    expect(loadConfig({ MEETING_BASE_URL: '' }).meetingBaseUrl).toBe('https://meet.jit.si/')
    expect(loadConfig({ MEETING_BASE_URL: 'https://video.example.com/rooms/' }).meetingBaseUrl).toBe('https://video.example.com/rooms/')
    for (const bad of ['http://meet.example.com/', 'https://meet.example.com', 'meet.jit.si/', 'javascript:alert(1)//']) {
      expect(problemsOf({ MEETING_BASE_URL: bad })).toEqual(['MEETING_BASE_URL must be an https URL ending in "/", e.g. https://meet.jit.si/'])
    }
  })
})

describe('development stand-ins (FAKE_GOOGLE, DEV_MAILBOX)', () => {
  const production = { NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'x'.repeat(40) }

  it('are on in development and off in production by default, without warnings either way', () => {
    expect(loadConfig({})).toMatchObject({ fakeGoogle: true, devMailbox: true })
    expect(startupWarnings(loadConfig({}))).toEqual([])
    expect(loadConfig(production)).toMatchObject({ fakeGoogle: false, devMailbox: false })
    expect(startupWarnings(loadConfig(production))).toEqual([])
  })

  it('can be switched off in development', () => {
    expect(loadConfig({ FAKE_GOOGLE: '0', DEV_MAILBOX: 'no' })).toMatchObject({ fakeGoogle: false, devMailbox: false })
  })

  it('can still be switched on explicitly in production, with one warning line for each', () => {
    const config = loadConfig({ ...production, FAKE_GOOGLE: 'on', DEV_MAILBOX: 'true' })
    expect(config).toMatchObject({ fakeGoogle: true, devMailbox: true })
    const warnings = startupWarnings(config)
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(/^FAKE_GOOGLE is on with NODE_ENV=production: anyone can sign in through \/fake-google\/ as any Google identity/)
    // Where its secret comes from, never the secret: the fakes have no public one any more (decision 0073).
    expect(warnings[0]).toContain("GOOGLE_CLIENT_SECRET or FAKE_GOOGLE_CLIENT_SECRET, else kept in the provider's database")
    expect(warnings[1]).toMatch(/^DEV_MAILBOX is on with NODE_ENV=production: anyone can read every e-mail sent through \/dev\/mailbox\/, password reset links included/)
    expect(startupWarnings(loadConfig({ ...production, DEV_MAILBOX: '1' }))).toEqual([expect.stringMatching(/^DEV_MAILBOX/)])
  })
})

describe('PROVIDER_FORWARDING_SECRET', () => {
  it('is unset by default, and empty means unset', () => {
    expect(loadConfig({}).forwardingSecret).toBeUndefined()
    expect(loadConfig({ PROVIDER_FORWARDING_SECRET: '' }).forwardingSecret).toBeUndefined()
  })

  it('must be at least 32 characters long', () => {
    expect(loadConfig({ PROVIDER_FORWARDING_SECRET: 'f'.repeat(32) }).forwardingSecret).toBe('f'.repeat(32))
    expect(problemsOf({ PROVIDER_FORWARDING_SECRET: 'short' })).toEqual(['PROVIDER_FORWARDING_SECRET must be at least 32 characters long'])
  })
})

describe('mail delivery and reminders (SMTP_URL, SMTP_FROM, REMINDER_TICK_MS, MAIL_TICK_MS)', () => {
  it('sends nothing by default, from Innera <nao-responda@innera.local>, ticking every 30 s and 5 s', () => {
    expect(loadConfig({})).toMatchObject({ smtpUrl: undefined, smtpFrom: 'Innera <nao-responda@innera.local>', reminderTickMs: 30_000, mailTickMs: 5_000 })
    expect(loadConfig({ SMTP_URL: '', SMTP_FROM: '' })).toMatchObject({ smtpUrl: undefined, smtpFrom: 'Innera <nao-responda@innera.local>' })
  })

  it('takes smtp:// and smtps:// URLs, with or without a login', () => {
    for (const url of ['smtp://user:p%40ss@mail.example.com:587', 'smtps://mail.example.com', 'smtp://127.0.0.1:2525']) expect(loadConfig({ SMTP_URL: url }).smtpUrl).toBe(url)
  })

  it('refuses anything else, without repeating the value (it may hold the password)', () => {
    for (const url of ['http://user:hunter22@mail.example.com', 'mail.example.com:587', 'smtp://', 'smtp:///path']) {
      const problems = problemsOf({ SMTP_URL: url })
      expect(problems).toEqual(['SMTP_URL must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@mail.example.com:587'])
      expect(problems.join()).not.toContain('hunter22')
    }
  })

  it('logs the SMTP server as scheme, host and port only', () => {
    expect(describeSmtpUrl('smtp://user:hunter22@mail.example.com:587')).toBe('smtp://mail.example.com:587')
    expect(describeSmtpUrl('smtps://mail.example.com')).toBe('smtps://mail.example.com')
  })

  it('takes a From as an address or "Name <address>", on one line', () => {
    expect(loadConfig({ SMTP_FROM: 'consultas@innera.com.br' }).smtpFrom).toBe('consultas@innera.com.br')
    expect(loadConfig({ SMTP_FROM: ' Equipe Innera <consultas@innera.com.br> ' }).smtpFrom).toBe('Equipe Innera <consultas@innera.com.br>')
    for (const from of ['Innera', 'Innera <innera>', 'a@b.c\nBcc: x@y.z', 'Innera <a@b.c> <d@e.f>']) {
      expect(problemsOf({ SMTP_FROM: from })).toEqual(['SMTP_FROM must be an e-mail address or "Name <address>"'])
    }
  })

  it('takes ticks from 1 s to 1 h', () => {
    expect(loadConfig({ REMINDER_TICK_MS: '1000', MAIL_TICK_MS: '3600000' })).toMatchObject({ reminderTickMs: 1000, mailTickMs: 3_600_000, subscriptionsTickMs: 60_000 })
    expect(loadConfig({ SUBSCRIPTIONS_TICK_MS: '1000' }).subscriptionsTickMs).toBe(1000)
    expect(problemsOf({ REMINDER_TICK_MS: '999', MAIL_TICK_MS: 'soon', SUBSCRIPTIONS_TICK_MS: '0' })).toEqual([
      'REMINDER_TICK_MS must be an integer between 1000 and 3600000',
      'MAIL_TICK_MS must be an integer between 1000 and 3600000',
      'SUBSCRIPTIONS_TICK_MS must be an integer between 1000 and 3600000',
    ])
  })
})

describe('Google Calendar (GOOGLE_CLIENT_SECRET, GOOGLE_OAUTH_*_URL, GOOGLE_CALENDAR_API_URL, CALENDAR_SYNC_TICK_MS)', () => {
  const production = { NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'x'.repeat(40) }

  it("points at the fake Google's consent, token, revoke and calendar URLs while the fake is on, its secret left to start", () => {
    const config = loadConfig({ PROVIDER_PUBLIC_URL: 'http://provider.test' })
    expect(pendingFakeSecrets(config)).toContain('google_client_secret')
    expect(config.google).toMatchObject({
      clientSecret: undefined,
      authorizationUrl: 'http://provider.test/fake-google/authorize',
      tokenUrl: 'http://provider.test/fake-google/token',
      revokeUrl: 'http://provider.test/fake-google/revoke',
      calendarApiUrl: 'http://provider.test/fake-google',
    })
  })

  it("points at Google's own URLs in production, with no secret unless given", () => {
    expect(loadConfig(production).google).toMatchObject({
      clientSecret: undefined,
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      calendarApiUrl: 'https://www.googleapis.com',
    })
  })

  it('takes each URL and the secret from the environment', () => {
    const config = loadConfig({
      ...production,
      GOOGLE_CLIENT_SECRET: 'a-real-secret',
      GOOGLE_OAUTH_AUTHORIZATION_URL: 'https://auth.example/authorize',
      GOOGLE_OAUTH_TOKEN_URL: 'https://auth.example/token',
      GOOGLE_OAUTH_REVOKE_URL: 'https://auth.example/revoke',
      GOOGLE_CALENDAR_API_URL: 'https://apis.example/google/',
    })
    expect(config.google).toMatchObject({
      clientSecret: 'a-real-secret',
      authorizationUrl: 'https://auth.example/authorize',
      tokenUrl: 'https://auth.example/token',
      revokeUrl: 'https://auth.example/revoke',
      calendarApiUrl: 'https://apis.example/google',
    })
  })

  it('refuses URLs that are not http(s), without repeating the secret', () => {
    const problems = problemsOf({
      GOOGLE_CLIENT_SECRET: 'hunter22',
      GOOGLE_OAUTH_AUTHORIZATION_URL: 'accounts.google.com',
      GOOGLE_OAUTH_TOKEN_URL: 'ftp://x',
      GOOGLE_OAUTH_REVOKE_URL: 'revoke',
      GOOGLE_CALENDAR_API_URL: 'javascript:alert(1)',
    })
    expect(problems).toEqual([
      'GOOGLE_OAUTH_AUTHORIZATION_URL must be an http(s) URL',
      'GOOGLE_OAUTH_TOKEN_URL must be an http(s) URL',
      'GOOGLE_OAUTH_REVOKE_URL must be an http(s) URL',
      'GOOGLE_CALENDAR_API_URL must be an http(s) URL',
    ])
    expect(problems.join()).not.toContain('hunter22')
  })

  it('syncs stale calendars every minute by default, every 1 s to 1 h when set', () => {
    expect(loadConfig({}).calendarSyncTickMs).toBe(60_000)
    expect(loadConfig({ CALENDAR_SYNC_TICK_MS: '5000' }).calendarSyncTickMs).toBe(5000)
    expect(problemsOf({ CALENDAR_SYNC_TICK_MS: '10' })).toEqual(['CALENDAR_SYNC_TICK_MS must be an integer between 1000 and 3600000'])
  })
})

describe('parseRate', () => {
  it('understands DRF and compact spellings', () => {
    expect(parseRate('10/5m')).toEqual({ count: 10, windowSeconds: 300 })
    expect(parseRate('5/hour')).toEqual({ count: 5, windowSeconds: 3600 })
    expect(parseRate('30/300')).toEqual({ count: 30, windowSeconds: 300 })
    expect(parseRate('2/d')).toEqual({ count: 2, windowSeconds: 86_400 })
  })

  it('rejects malformed rates', () => {
    expect(parseRate('10')).toBeUndefined()
    expect(parseRate('10/')).toBeUndefined()
    expect(parseRate('10/5 fortnights')).toBeUndefined()
    expect(parseRate('10/0s')).toBeUndefined()
  })
})

describe('Stripe (FAKE_STRIPE, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_URL, FAKE_STRIPE_*)', () => {
  const production = { NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'x'.repeat(40) }
  const real = { STRIPE_SECRET_KEY: 'sk_live_51AbCdEfGh0123456789', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef' }

  it('uses the fake by default in development, at the root of the provider, its key and secret left to start (never a constant)', () => {
    const config = loadConfig({ PROVIDER_PUBLIC_URL: 'http://provider.test/' })
    expect(config.fakeStripe).toBe(true)
    expect(pendingFakeSecrets(config)).toEqual(['stripe_secret_key', 'stripe_webhook_secret', 'zoom_client_secret', 'google_client_secret'])
    expect(config.stripe).toEqual({
      secretKey: undefined,
      webhookSecret: undefined,
      apiUrl: 'http://provider.test',
      fakeWebhookUrl: 'http://provider.test/purchases/webhook/',
      fakeWebhookDuplicatePercent: 5,
    })
    expect(loadConfig({ PROVIDER_PORT: '8123' }).stripe.apiUrl).toBe('http://127.0.0.1:8123')
    // Served behind a path, the fake's API is still at the origin's /v1/ (the SDK takes no path).
    expect(loadConfig({ PROVIDER_PUBLIC_URL: 'https://innera.example/provider' }).stripe.apiUrl).toBe('https://innera.example')
  })

  it('uses real Stripe once an operator gives a key and a webhook secret', () => {
    for (const env of [real, { ...production, ...real }]) {
      const config = loadConfig(env)
      expect(config.fakeStripe).toBe(false)
      expect(config.stripe).toMatchObject({ secretKey: real.STRIPE_SECRET_KEY, webhookSecret: real.STRIPE_WEBHOOK_SECRET, apiUrl: 'https://api.stripe.com' })
    }
    expect(startupWarnings(loadConfig({ ...production, ...real }))).toEqual([])
  })

  it('has no payments in production without a key, and never the fake unless named', () => {
    const config = loadConfig(production)
    expect(config.fakeStripe).toBe(false)
    expect(config.stripe).toMatchObject({ secretKey: undefined, webhookSecret: undefined, apiUrl: 'https://api.stripe.com' })
    expect(startupWarnings(config)).toEqual([])
  })

  it('runs the fake in production only when named, with a warning', () => {
    const config = loadConfig({ ...production, FAKE_STRIPE: 'on' })
    expect(config.fakeStripe).toBe(true)
    expect(pendingFakeSecrets(config)).toEqual(['stripe_secret_key', 'stripe_webhook_secret'])
    expect(startupWarnings(config)).toEqual([
      "FAKE_STRIPE is on with NODE_ENV=production: no payment is real, and anyone can pay any charge through /fake-stripe/; anyone with its API key (STRIPE_SECRET_KEY or FAKE_STRIPE_SECRET_KEY, else kept in the provider's database) can list every buyer's payments and e-mails and refund them, and anyone with its webhook secret (likewise) can sign events that mark purchases paid.",
    ])
  })

  it('warns of a test-mode key with real Stripe in production', () => {
    const config = loadConfig({ ...production, STRIPE_SECRET_KEY: 'sk_test_51AbC', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })
    expect(config.fakeStripe).toBe(false)
    expect(startupWarnings(config)).toEqual([expect.stringMatching(/^STRIPE_SECRET_KEY is a test-mode key/)])
  })

  it('can be switched off in development, or kept on with a test key of your own', () => {
    expect(loadConfig({ FAKE_STRIPE: 'off' })).toMatchObject({ fakeStripe: false, stripe: { secretKey: undefined } })
    const own = loadConfig({ FAKE_STRIPE: '1', STRIPE_SECRET_KEY: 'rk_test_mine', STRIPE_WEBHOOK_SECRET: 'whsec_mine' })
    expect(own).toMatchObject({ fakeStripe: true, stripe: { secretKey: 'rk_test_mine', webhookSecret: 'whsec_mine' } })
    expect(pendingFakeSecrets(own)).not.toContain('stripe_secret_key')
  })

  it("takes the fake's own key and webhook secret from FAKE_STRIPE_SECRET_KEY and FAKE_STRIPE_WEBHOOK_SECRET, long and in Stripe's shape", () => {
    const key = `sk_test_${'k'.repeat(40)}`
    const secret = `whsec_${'s'.repeat(40)}`
    const config = loadConfig({ FAKE_STRIPE_SECRET_KEY: key, FAKE_STRIPE_WEBHOOK_SECRET: secret })
    expect(config.stripe).toMatchObject({ secretKey: key, webhookSecret: secret })
    expect(pendingFakeSecrets(config)).not.toEqual(expect.arrayContaining(['stripe_secret_key']))
    // With the fake off they name nothing: real Stripe's are STRIPE_*.
    expect(loadConfig({ FAKE_STRIPE: 'off', FAKE_STRIPE_SECRET_KEY: key }).stripe.secretKey).toBeUndefined()
    // The SDK's key is the fake's: naming two different ones is refused, the same one twice is fine.
    expect(loadConfig({ FAKE_STRIPE: 'on', STRIPE_SECRET_KEY: key, FAKE_STRIPE_SECRET_KEY: key }).stripe.secretKey).toBe(key)
    expect(problemsOf({ FAKE_STRIPE: 'on', STRIPE_SECRET_KEY: 'sk_test_another_one', STRIPE_WEBHOOK_SECRET: secret, FAKE_STRIPE_SECRET_KEY: key })).toEqual([
      "STRIPE_SECRET_KEY and FAKE_STRIPE_SECRET_KEY differ: with the fake on both are the fake's secret; set one of them",
    ])
    const problems = problemsOf({ FAKE_STRIPE_SECRET_KEY: 'sk_test_short_hunter2', FAKE_STRIPE_WEBHOOK_SECRET: `sk_test_${'x'.repeat(40)}` })
    expect(problems).toEqual([
      'FAKE_STRIPE_SECRET_KEY must be a Stripe test key (sk_test_… or rk_test_…) of at least 32 characters',
      'FAKE_STRIPE_WEBHOOK_SECRET must be a signing secret (whsec_…) of at least 32 characters',
    ])
    expect(problems.join()).not.toMatch(/hunter2|xxxx/)
    expect(problemsOf({ FAKE_STRIPE_SECRET_KEY: `sk_live_${'k'.repeat(40)}` })).toEqual(['FAKE_STRIPE_SECRET_KEY must be a Stripe test key (sk_test_… or rk_test_…) of at least 32 characters'])
  })

  it('refuses a live key for the fake, and a key without its webhook secret, without repeating either', () => {
    expect(problemsOf({ FAKE_STRIPE: 'on', ...real })).toEqual(['STRIPE_SECRET_KEY must be a test key (sk_test_… or rk_test_…) while FAKE_STRIPE is on'])
    for (const env of [{ STRIPE_SECRET_KEY: real.STRIPE_SECRET_KEY }, { ...production, STRIPE_WEBHOOK_SECRET: real.STRIPE_WEBHOOK_SECRET }] as Record<string, string>[]) {
      const problems = problemsOf(env)
      expect(problems).toEqual(['STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together: set both for Stripe, or neither for no payments'])
      expect(problems.join()).not.toMatch(/51AbCdEf|0123456789abcdef/)
    }
  })

  it('refuses malformed keys, secrets and URLs, without repeating the secrets', () => {
    const problems = problemsOf({
      FAKE_STRIPE: 'sometimes',
      STRIPE_SECRET_KEY: 'pk_live_hunter22',
      STRIPE_WEBHOOK_SECRET: 'hunter23',
      STRIPE_API_URL: 'https://api.stripe.com/v1',
      FAKE_STRIPE_WEBHOOK_URL: 'purchases/webhook',
      FAKE_STRIPE_DUPLICATE_PERCENT: '101',
    })
    expect(problems).toEqual([
      'FAKE_STRIPE must be one of 1/0, true/false, yes/no, on/off',
      'STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_test_…, rk_live_…)',
      "STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…)",
      'STRIPE_API_URL must be an http(s) URL with no path, e.g. https://api.stripe.com',
      'FAKE_STRIPE_WEBHOOK_URL must be an http(s) URL',
      'FAKE_STRIPE_DUPLICATE_PERCENT must be an integer between 0 and 100',
    ])
    expect(problems.join()).not.toMatch(/hunter2/)
    for (const url of ['ftp://api.stripe.com', 'https://user:pw@api.stripe.com', 'https://api.stripe.com?x=1']) expect(problemsOf({ STRIPE_API_URL: url })).toHaveLength(1)
  })

  it('takes the API URL, the webhook URL and the duplicate share from the environment', () => {
    const config = loadConfig({ STRIPE_API_URL: 'http://127.0.0.1:12111/', FAKE_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/hook/', FAKE_STRIPE_DUPLICATE_PERCENT: '0' })
    expect(config.stripe).toMatchObject({ apiUrl: 'http://127.0.0.1:12111', fakeWebhookUrl: 'http://127.0.0.1:9/hook/', fakeWebhookDuplicatePercent: 0 })
  })
})

describe('Zoom (FAKE_ZOOM, ZOOM_ACCOUNT_ID, ZOOM_CLIENT_ID, ZOOM_CLIENT_SECRET, ZOOM_API_URL, ZOOM_OAUTH_URL)', () => {
  const production = { NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'x'.repeat(40) }
  const real = { ZOOM_ACCOUNT_ID: 'acct', ZOOM_CLIENT_ID: 'client', ZOOM_CLIENT_SECRET: 'secret' }

  it('uses the fake in development, at the provider’s own address, and nothing in production by default', () => {
    expect(loadConfig({ PROVIDER_PUBLIC_URL: 'http://p.test' })).toMatchObject({
      fakeZoom: true,
      zoom: { clientId: FAKE_ZOOM_CLIENT_ID, clientSecret: undefined, apiUrl: 'http://p.test/fake-zoom/v2', oauthUrl: 'http://p.test/fake-zoom/oauth/token' },
    })
    expect(pendingFakeSecrets(loadConfig({}))).toContain('zoom_client_secret')
    expect(loadConfig(production)).toMatchObject({ fakeZoom: false, zoom: undefined })
    expect(startupWarnings(loadConfig(production))).toEqual([])
  })

  it('uses real Zoom when its app is named, and warns of the fake named in production', () => {
    expect(loadConfig({ ...production, ...real })).toMatchObject({
      fakeZoom: false,
      zoom: { accountId: 'acct', clientId: 'client', clientSecret: 'secret', apiUrl: 'https://api.zoom.us/v2', oauthUrl: 'https://zoom.us/oauth/token' },
    })
    expect(loadConfig(real)).toMatchObject({ fakeZoom: false })
    const config = loadConfig({ ...production, FAKE_ZOOM: 'on' })
    expect(config.fakeZoom).toBe(true)
    expect(startupWarnings(config)).toEqual([
      "FAKE_ZOOM is on with NODE_ENV=production: live classes get fake meetings from /fake-zoom/, which nobody can join on Zoom; anyone with its client secret (ZOOM_CLIENT_SECRET or FAKE_ZOOM_CLIENT_SECRET, else kept in the provider's database) can make, change and delete them.",
    ])
  })

  it("takes the fake's own client secret from FAKE_ZOOM_CLIENT_SECRET, and the fake Google's from FAKE_GOOGLE_CLIENT_SECRET", () => {
    const zoomSecret = 'z'.repeat(32)
    const googleSecret = `GOCSPX-${'g'.repeat(32)}`
    const config = loadConfig({ FAKE_ZOOM_CLIENT_SECRET: zoomSecret, FAKE_GOOGLE_CLIENT_SECRET: googleSecret })
    expect(config.zoom).toMatchObject({ clientId: FAKE_ZOOM_CLIENT_ID, clientSecret: zoomSecret })
    expect(config.google.clientSecret).toBe(googleSecret)
    expect(pendingFakeSecrets(config)).toEqual(['stripe_secret_key', 'stripe_webhook_secret'])
    // A named Zoom app's secret is the fake's with FAKE_ZOOM on; the fakes off, the variables name nothing.
    expect(loadConfig({ ...real, FAKE_ZOOM: 'on' }).zoom!.clientSecret).toBe('secret')
    expect(loadConfig({ ...production, FAKE_ZOOM_CLIENT_SECRET: zoomSecret, FAKE_GOOGLE_CLIENT_SECRET: googleSecret })).toMatchObject({ zoom: undefined, google: { clientSecret: undefined } })
    expect(problemsOf({ FAKE_GOOGLE_CLIENT_SECRET: googleSecret, GOOGLE_CLIENT_SECRET: 'another-secret' })).toEqual([
      "GOOGLE_CLIENT_SECRET and FAKE_GOOGLE_CLIENT_SECRET differ: with the fake on both are the fake's secret; set one of them",
    ])
    const problems = problemsOf({ FAKE_ZOOM_CLIENT_SECRET: 'hush-hush', FAKE_GOOGLE_CLIENT_SECRET: 'innera' })
    expect(problems).toEqual(['FAKE_ZOOM_CLIENT_SECRET must be at least 32 characters long', 'FAKE_GOOGLE_CLIENT_SECRET must be at least 32 characters long'])
    expect(problems.join()).not.toMatch(/hush-hush|innera/)
  })

  it('refuses half an app and bad addresses, never echoing the secret', () => {
    const problems = problemsOf({ ZOOM_CLIENT_ID: 'client', ZOOM_CLIENT_SECRET: 'hush-hush', ZOOM_API_URL: 'api.zoom.us', FAKE_ZOOM: 'maybe' })
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^ZOOM_ACCOUNT_ID, ZOOM_CLIENT_ID and ZOOM_CLIENT_SECRET go together/), expect.stringMatching(/^ZOOM_API_URL/), expect.stringMatching(/^FAKE_ZOOM/)]))
    expect(problems.join('\n')).not.toContain('hush-hush')
  })
})

describe('Web Push (decision 0087)', () => {
  const publicKey = `B${'a'.repeat(86)}`
  const privateKey = 'b'.repeat(43)

  it('makes its own key pair unless both keys are given, the contact from SMTP_FROM, the fake on in the demo only', () => {
    expect(loadConfig({}).push).toEqual({ vapid: undefined, subject: 'mailto:nao-responda@innera.local', fake: true })
    expect(loadConfig({ NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'x'.repeat(32), SMTP_FROM: 'Innera <ola@innera.com.br>' }).push).toEqual({ vapid: undefined, subject: 'mailto:ola@innera.com.br', fake: false })
    expect(loadConfig({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: 'https://innera.com.br/contato' }).push).toEqual({ vapid: { publicKey, privateKey }, subject: 'https://innera.com.br/contato', fake: true })
  })

  it('refuses one key alone, keys of the wrong shape and a subject that is no contact, never echoing the private key', () => {
    expect(problemsOf({ VAPID_PUBLIC_KEY: publicKey })).toEqual([expect.stringContaining('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together')])
    const problems = problemsOf({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: 'secret-value-of-the-wrong-size', VAPID_SUBJECT: 'ops@example.com' })
    expect(problems).toHaveLength(3)
    expect(problems.join(' ')).not.toContain('secret-value-of-the-wrong-size')
    expect(startupWarnings(loadConfig({ NODE_ENV: 'production', PROVIDER_JWT_SECRET: 'x'.repeat(32), FAKE_PUSH: 'on' }))).toContainEqual(expect.stringContaining('FAKE_PUSH is on'))
  })
})

import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LogEntry } from '#server/log.ts'
import { createThrottleRedis, redactRedisUrl, Throttle } from '#server/http/throttle.ts'

const minute = { count: 2, windowSeconds: 60 }

describe('Throttle in memory', () => {
  // The library reads the wall clock: only Date is faked, its expiry timers stay real.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.UTC(2025, 2, 18, 12, 0, 0))
  })
  afterEach(() => vi.useRealTimers())
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms)

  it('allows up to the limit, then tells how long to wait', async () => {
    const throttle = new Throttle()
    expect(throttle.store).toBe('memory')
    expect(await throttle.hit('login', 'a', minute)).toEqual({ allowed: true })
    advance(10_000)
    expect(await throttle.hit('login', 'a', minute)).toEqual({ allowed: true })
    advance(5_000)
    expect(await throttle.hit('login', 'a', minute)).toEqual({ allowed: false, retryAfterSeconds: 45 })
    expect(await throttle.hit('login', 'b', minute)).toEqual({ allowed: true })
    expect(await throttle.hit('reset', 'a', minute)).toEqual({ allowed: true })
  })

  it('starts a new window once the first one is over', async () => {
    const throttle = new Throttle()
    const rate = { count: 1, windowSeconds: 60 }
    await throttle.hit('k', 'x', rate)
    advance(59_999)
    expect(await throttle.hit('k', 'x', rate)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    advance(1)
    expect((await throttle.hit('k', 'x', rate)).allowed).toBe(true)
  })

  it('never blocks when disabled', async () => {
    const throttle = new Throttle({ disabled: true })
    for (let index = 0; index < 5; index += 1) expect((await throttle.hit('k', 'x', { count: 1, windowSeconds: 60 })).allowed).toBe(true)
  })

  it('counts per instance: two processes without Redis each allow the full rate', async () => {
    const first = new Throttle()
    const second = new Throttle()
    const rate = { count: 1, windowSeconds: 60 }
    expect((await first.hit('login', 'x', rate)).allowed).toBe(true)
    expect((await second.hit('login', 'x', rate)).allowed).toBe(true)
    expect((await first.hit('login', 'x', rate)).allowed).toBe(false)
  })
})

describe('Throttle with Redis unreachable', () => {
  it('keeps limiting in memory, reports the outage and logs it once', async () => {
    const logged: LogEntry[] = []
    // Nothing listens on port 1: the connection is refused at once, again and again.
    const redis = createThrottleRedis('redis://:secret@127.0.0.1:1', (entry) => logged.push(entry))
    const throttle = new Throttle({ redis, keyPrefix: 'innera:test:' })
    try {
      await vi.waitFor(() => expect(logged).toHaveLength(1))
      expect(await throttle.hit('login', 'x', minute)).toEqual({ allowed: true })
      expect(await throttle.hit('login', 'x', minute)).toEqual({ allowed: true })
      expect(await throttle.hit('login', 'x', minute)).toMatchObject({ allowed: false })
      expect(await throttle.redisHealth()).toBe('error')
      expect(logged).toEqual([expect.objectContaining({ level: 'warn', redis: 'redis://:***@127.0.0.1:1' })])
      expect(JSON.stringify(logged)).not.toContain('secret')
    } finally {
      await throttle.close()
    }
  })

  it('redacts the password of a Redis URL for logs', () => {
    expect(redactRedisUrl('redis://user:pass@host:6379/0')).toBe('redis://user:***@host:6379/0')
    expect(redactRedisUrl('redis://host:6379')).toBe('redis://host:6379')
  })
})

// Like the PostgreSQL tests: run against this machine's Redis when it answers, skipped otherwise.
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'

async function redisAvailability(): Promise<string | undefined> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null })
  probe.on('error', () => undefined)
  try {
    await probe.connect()
    await probe.ping()
    return undefined
  } catch (error) {
    return `${redactRedisUrl(REDIS_URL)} does not answer (${error instanceof Error ? error.message : String(error)})`
  } finally {
    probe.disconnect()
  }
}

const redisUnavailable = await redisAvailability()
if (redisUnavailable) {
  console.warn(`[provider] Redis throttle tests skipped: ${redisUnavailable}. Set TEST_REDIS_URL to run them.`)
  describe.skip(`Throttle in Redis (skipped: ${redisUnavailable})`, () => {
    it('needs TEST_REDIS_URL', () => undefined)
  })
} else {
  describe('Throttle in Redis', () => {
    // Each run gets its own keys, so parallel runs and leftovers never meet.
    const prefix = `innera:test:${randomBytes(6).toString('hex')}:`
    const clients: Redis[] = []
    const throttles: Throttle[] = []
    const open = () => {
      const redis = createThrottleRedis(REDIS_URL, () => undefined)
      clients.push(redis)
      const throttle = new Throttle({ redis, keyPrefix: prefix })
      throttles.push(throttle)
      return throttle
    }
    const ready = (redis: Redis) => (redis.status === 'ready' ? Promise.resolve() : new Promise((resolve) => redis.once('ready', resolve)))

    afterAll(async () => {
      const admin = new Redis(REDIS_URL)
      const keys = await admin.keys(`${prefix}*`)
      if (keys.length > 0) await admin.del(...keys)
      await admin.quit()
      await Promise.all(throttles.map((throttle) => throttle.close()))
    })

    it('keeps the counters in Redis under the configured prefix', async () => {
      const throttle = open()
      await ready(clients.at(-1)!)
      expect(throttle.store).toBe('redis')
      expect(await throttle.redisHealth()).toBe('ok')
      expect(await throttle.hit('loginPerEmail', 'paciente@innera.local', minute)).toEqual({ allowed: true })
      const admin = new Redis(REDIS_URL)
      try {
        expect(await admin.get(`${prefix}loginPerEmail:paciente@innera.local`)).toBe('1')
        const ttl = await admin.pttl(`${prefix}loginPerEmail:paciente@innera.local`)
        expect(ttl).toBeGreaterThan(55_000)
        expect(ttl).toBeLessThanOrEqual(60_000)
      } finally {
        await admin.quit()
      }
    })

    it('counts together across two limiters sharing Redis (two provider processes)', async () => {
      const first = open()
      const second = open()
      await Promise.all(clients.slice(-2).map(ready))
      const rate = { count: 3, windowSeconds: 60 }
      expect(await first.hit('loginPerEmail', 'shared@x.test', rate)).toEqual({ allowed: true })
      expect(await second.hit('loginPerEmail', 'shared@x.test', rate)).toEqual({ allowed: true })
      expect(await first.hit('loginPerEmail', 'shared@x.test', rate)).toEqual({ allowed: true })
      const refused = await second.hit('loginPerEmail', 'shared@x.test', rate)
      expect(refused.allowed).toBe(false)
      expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThan(50)
      expect(refused.allowed === false && refused.retryAfterSeconds).toBeLessThanOrEqual(60)
      expect((await first.hit('loginPerEmail', 'shared@x.test', rate)).allowed).toBe(false)
      expect((await second.hit('loginPerEmail', 'other@x.test', rate)).allowed).toBe(true)
    })

    it('keeps another prefix apart', async () => {
      const redis = createThrottleRedis(REDIS_URL, () => undefined)
      const other = new Throttle({ redis, keyPrefix: `${prefix}other:` })
      const ours = open()
      try {
        await Promise.all([ready(redis), ready(clients.at(-1)!)])
        const rate = { count: 1, windowSeconds: 60 }
        expect((await ours.hit('contactPerEmail', 'a@x.test', rate)).allowed).toBe(true)
        expect((await other.hit('contactPerEmail', 'a@x.test', rate)).allowed).toBe(true)
        expect((await ours.hit('contactPerEmail', 'a@x.test', rate)).allowed).toBe(false)
      } finally {
        await other.close()
      }
    })
  })
}

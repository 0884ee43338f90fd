import { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import type { Rate } from '#server/config.ts'
import type { Logger } from '#server/log.ts'

/**
 * Request throttles on rate-limiter-flexible: each scope allows `count` requests per window,
 * the window starting at the key's first request (a fixed window, like DRF's rates read as
 * "at most COUNT per WINDOW").
 *
 * Without Redis the counters are in this process's memory, so with several provider processes
 * each enforces its own limits. With Redis (REDIS_URL) every process counts in the same keys,
 * so the limits hold for the whole deployment. While Redis is unreachable each process falls
 * back to its own memory counters (docs/decisions/0017-shared-throttles.md): limits stay on,
 * only per process, and sign-in keeps working.
 *
 * Time is the wall clock (Redis key expiry cannot follow an injected clock): tests that move
 * time fake Date.
 */
type ThrottleResult = { allowed: true } | { allowed: false; retryAfterSeconds: number }

type ThrottleOptions = {
  disabled?: boolean
  /** A Redis client to keep the counters in; in memory when absent. */
  redis?: Redis
  /** Prepended to every Redis key, so deployments (and test runs) sharing a Redis stay apart. */
  keyPrefix?: string
}

const DEFAULT_REDIS_KEY_PREFIX = 'innera:throttle:'

// Kept short: a request waits at most this long on a slow Redis before the memory fallback counts it.
const REDIS_COMMAND_TIMEOUT_MS = 500

export class Throttle {
  private readonly limiters = new Map<string, RateLimiterAbstract>()
  private readonly disabled: boolean
  private readonly redis: Redis | undefined
  private readonly keyPrefix: string

  constructor({ disabled = false, redis, keyPrefix = DEFAULT_REDIS_KEY_PREFIX }: ThrottleOptions = {}) {
    this.disabled = disabled
    this.redis = redis
    this.keyPrefix = keyPrefix
  }

  /** Where the counters are kept. */
  get store(): 'memory' | 'redis' {
    return this.redis ? 'redis' : 'memory'
  }

  /** Records a request for `key` in `scope` under `rate`; refuses it once over the limit. */
  async hit(scope: string, key: string, rate: Rate): Promise<ThrottleResult> {
    if (this.disabled) return { allowed: true }
    try {
      await this.limiter(scope, rate).consume(key)
      return { allowed: true }
    } catch (rejection) {
      // The library rejects with its result when over the limit, and with an Error on failure.
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) }
      }
      throw rejection
    }
  }

  /** The Redis connection's state for /healthz/; undefined when counters are in memory. */
  async redisHealth(): Promise<'ok' | 'error' | undefined> {
    if (!this.redis) return undefined
    try {
      return (await this.redis.ping()) === 'PONG' ? 'ok' : 'error'
    } catch {
      return 'error'
    }
  }

  /** Closes the Redis connection (on shutdown). */
  async close(): Promise<void> {
    if (!this.redis) return
    // A closing connection is no outage: the state-change logger stays quiet.
    this.redis.removeAllListeners('close')
    try {
      await this.redis.quit()
    } catch {
      this.redis.disconnect()
    }
  }

  private limiter(scope: string, rate: Rate): RateLimiterAbstract {
    const id = `${scope}|${rate.count}/${rate.windowSeconds}`
    let limiter = this.limiters.get(id)
    if (limiter) return limiter
    // The library joins prefix and key with ':': keys read "innera:throttle:loginPerEmail:<key>".
    const options = { keyPrefix: `${this.keyPrefix}${scope}`, points: rate.count, duration: rate.windowSeconds }
    limiter = this.redis
      ? new RateLimiterRedis({
          ...options,
          storeClient: this.redis,
          // Not waiting for a reconnect: a request goes to the memory fallback at once.
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(options),
        })
      : new RateLimiterMemory(options)
    this.limiters.set(id, limiter)
    return limiter
  }
}

/**
 * A Redis client for the throttles: it fails commands instead of queueing them while
 * disconnected (the limiter then uses its memory fallback), reconnects in the background, and
 * logs only changes of state, so an outage is one warning, not one per request.
 */
export function createThrottleRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  })
  let state: 'connecting' | 'ready' | 'down' = 'connecting'
  const markDown = (error?: Error) => {
    if (state === 'down') return
    state = 'down'
    log({
      level: 'warn',
      msg: 'Redis unreachable: throttles count per process until it is back',
      redis: redactRedisUrl(url),
      ...(error ? { error: error.message } : {}),
    })
  }
  redis.on('ready', () => {
    if (state !== 'ready') log({ level: 'info', msg: 'Redis connected: throttles are shared', redis: redactRedisUrl(url) })
    state = 'ready'
  })
  redis.on('error', (error: Error) => markDown(error))
  redis.on('close', () => {
    if (state === 'ready') markDown()
  })
  return redis
}

/** The URL without its password, for logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'redis'
  }
}

import type { Clock } from '../clock'
import type { Rate } from '../config'

/**
 * A sliding-window request throttle like DRF's SimpleRateThrottle: it remembers when each key
 * made its recent requests and refuses once `count` fall inside the window.
 *
 * State is in memory and per process: with several provider processes each enforces its own
 * limits (the effective limit is multiplied by the process count). Good enough for abuse
 * protection; a shared store would be needed for exact limits.
 */
export type ThrottleResult = { allowed: true } | { allowed: false; retryAfterSeconds: number }

const SWEEP_EVERY = 1000

export class Throttle {
  private readonly history = new Map<string, number[]>()
  private hitsSinceSweep = 0

  constructor(
    private readonly clock: Clock,
    private readonly disabled = false,
  ) {}

  /** Records a request for `key` under `rate`, unless it is over the limit. */
  hit(key: string, rate: Rate): ThrottleResult {
    if (this.disabled) return { allowed: true }
    const now = this.clock()
    const windowMs = rate.windowSeconds * 1000
    this.sweepOccasionally(now)

    const recent = (this.history.get(key) ?? []).filter((time) => time > now - windowMs)
    if (recent.length >= rate.count) {
      this.history.set(key, recent)
      const oldest = recent[0] ?? now
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) }
    }
    recent.push(now)
    this.history.set(key, recent)
    return { allowed: true }
  }

  reset(): void {
    this.history.clear()
  }

  get trackedKeys(): number {
    return this.history.size
  }

  // Drops keys whose requests are all older than a day so idle clients do not pile up in memory.
  private sweepOccasionally(now: number): void {
    this.hitsSinceSweep += 1
    if (this.hitsSinceSweep < SWEEP_EVERY) return
    this.hitsSinceSweep = 0
    for (const [key, times] of this.history) {
      if ((times.at(-1) ?? 0) < now - 86_400_000) this.history.delete(key)
    }
  }
}

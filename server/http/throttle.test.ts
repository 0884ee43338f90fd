import { describe, expect, it } from 'vitest'
import { Throttle } from './throttle'

describe('Throttle', () => {
  it('allows up to the limit, then tells how long to wait', () => {
    let now = 0
    const throttle = new Throttle(() => now)
    const rate = { count: 2, windowSeconds: 60 }
    expect(throttle.hit('login:a', rate)).toEqual({ allowed: true })
    now += 10_000
    expect(throttle.hit('login:a', rate)).toEqual({ allowed: true })
    now += 5_000
    expect(throttle.hit('login:a', rate)).toEqual({ allowed: false, retryAfterSeconds: 45 })
    expect(throttle.hit('login:b', rate)).toEqual({ allowed: true })
  })

  it('frees a slot once the oldest request leaves the window', () => {
    let now = 0
    const throttle = new Throttle(() => now)
    const rate = { count: 1, windowSeconds: 60 }
    throttle.hit('k', rate)
    now = 59_999
    expect(throttle.hit('k', rate).allowed).toBe(false)
    now = 60_000
    expect(throttle.hit('k', rate).allowed).toBe(true)
  })

  it('never blocks when disabled', () => {
    const throttle = new Throttle(() => 0, true)
    for (let index = 0; index < 5; index += 1) expect(throttle.hit('k', { count: 1, windowSeconds: 60 }).allowed).toBe(true)
  })

  it('forgets idle keys', () => {
    let now = 0
    const throttle = new Throttle(() => now)
    throttle.hit('idle', { count: 5, windowSeconds: 60 })
    now = 2 * 86_400_000
    for (let index = 0; index < 1000; index += 1) throttle.hit(`busy-${index % 3}`, { count: 10_000, windowSeconds: 60 })
    expect(throttle.trackedKeys).toBe(3)
  })
})

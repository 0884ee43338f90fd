import { type NextFunction, type Request, type Response } from 'express'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { enableStageCosts, stageCostsSnapshot, timeStage, timeStageAsync, timedMiddleware } from './stage-costs.server.ts'

// The clock the stages read, moved by hand: what a stage is told it cost is exact, whatever the
// machine is doing meanwhile.
let now = 0
const busy = (ms: number) => {
  now += ms
}

describe('stage costs', () => {
  beforeEach(() => {
    now = 0
    vi.spyOn(performance, 'now').mockImplementation(() => now)
  })
  afterEach(() => void stageCostsSnapshot({ reset: true }))

  test('time each stage per request, and a middleware only up to its next()', async () => {
    enableStageCosts()
    expect(timeStage('sync', () => (busy(2), 'value'))).toBe('value')
    timeStage('sync', () => busy(2))
    expect(await timeStageAsync('async', async () => (busy(1), 7))).toBe(7)
    const middleware = timedMiddleware('middleware', (_req, _res, next) => {
      busy(1)
      next()
    })
    let after = false
    middleware({} as Request, {} as Response, (() => {
      busy(5)
      after = true
    }) as NextFunction)
    expect(after).toBe(true)
    const snapshot = stageCostsSnapshot({ reset: true })
    expect(snapshot.sync).toEqual({ count: 2, microsPerRequest: 2_000 })
    expect(snapshot.async).toEqual({ count: 1, microsPerRequest: 1_000 })
    // The 5 ms after next() belong to whatever came next.
    expect(snapshot.middleware).toEqual({ count: 1, microsPerRequest: 1_000 })
    expect(stageCostsSnapshot()).toEqual({})
  })
})

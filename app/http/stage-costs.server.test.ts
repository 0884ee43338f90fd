import { type NextFunction, type Request, type Response } from 'express'
import { afterEach, describe, expect, test } from 'vitest'
import { enableStageCosts, stageCostsSnapshot, timeStage, timeStageAsync, timedMiddleware } from './stage-costs.server.ts'

const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // spin: CPU work of a known length
  }
}

describe('stage costs', () => {
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
    expect(snapshot.sync!.count).toBe(2)
    expect(snapshot.sync!.microsPerRequest).toBeGreaterThanOrEqual(2_000)
    expect(snapshot.async!.microsPerRequest).toBeGreaterThanOrEqual(1_000)
    // The 5 ms after next() belong to whatever came next.
    expect(snapshot.middleware!.microsPerRequest).toBeGreaterThanOrEqual(1_000)
    expect(snapshot.middleware!.microsPerRequest).toBeLessThan(5_000)
    expect(stageCostsSnapshot()).toEqual({})
  })
})

import { type RequestHandler } from 'express'

/**
 * What each stage of a request costs, for `npm run bench` only (APP_BENCH_ROUTES=on): the HTTP
 * layer's middlewares and the pieces of the page's own work that every request pays (the nonce,
 * locale detection, session reading), each summed over the requests that passed through it. The
 * bench asks for them after a run of sequential requests, where a stage's time is its CPU.
 * Switched off, a stage is the bare function: nothing is timed.
 */
type Totals = Map<string, { ms: number; count: number }>

// On globalThis: the HTTP server and the Remix build are separate bundles, and both time stages.
const key = Symbol.for('innera.stage-costs')
const store = globalThis as unknown as Record<symbol, { enabled: boolean; totals: Totals } | undefined>
const costs = (store[key] ??= { enabled: false, totals: new Map() })

export function enableStageCosts() {
  costs.enabled = true
}

function add(stage: string, ms: number) {
  const entry = costs.totals.get(stage)
  if (entry) {
    entry.ms += ms
    entry.count += 1
  } else costs.totals.set(stage, { ms, count: 1 })
}

/** Runs `work`, timing it as `stage` when costs are on. */
export function timeStage<T>(stage: string, work: () => T): T {
  if (!costs.enabled) return work()
  const started = performance.now()
  try {
    return work()
  } finally {
    add(stage, performance.now() - started)
  }
}

/** Awaits `work`, timing it as `stage` when costs are on (its CPU only where nothing else runs meanwhile). */
export async function timeStageAsync<T>(stage: string, work: () => Promise<T>): Promise<T> {
  if (!costs.enabled) return work()
  const started = performance.now()
  try {
    return await work()
  } finally {
    add(stage, performance.now() - started)
  }
}

/**
 * A middleware timed up to the moment it hands over (calls next) or returns: its own work, not
 * what comes after it. Decided when the server is built: with costs off (enable them first), it is
 * the middleware itself, and a request pays nothing for it.
 */
export function timedMiddleware(stage: string, middleware: RequestHandler): RequestHandler {
  if (!costs.enabled) return middleware
  return (req, res, next) => {
    const started = performance.now()
    let done = false
    const stop = () => {
      if (done) return
      done = true
      add(stage, performance.now() - started)
    }
    try {
      return middleware(req, res, (...args: unknown[]) => {
        stop()
        next(...(args as []))
      })
    } finally {
      stop()
    }
  }
}

/** Each stage's requests and mean time per request in microseconds; `reset` starts a new count. */
export function stageCostsSnapshot({ reset = false } = {}) {
  const snapshot = Object.fromEntries(
    [...costs.totals].map(([stage, { ms, count }]) => [stage, { count, microsPerRequest: Math.round((ms * 1000) / count) }]),
  )
  if (reset) costs.totals.clear()
  return snapshot
}

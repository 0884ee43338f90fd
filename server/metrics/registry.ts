import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * The provider's Prometheus series (docs/metrics.md, decision 0089). Every label takes its values
 * from a closed set: a route is the matched pattern (never the URL), a method one of a few, a job
 * one of jobs.ts' names, an outcome one of OUTCOMES. So no visitor can make a new series, however
 * many ids or paths they try. One registry per provider app (tests build several in one process).
 */

/** What the webhook receiver did with a Stripe event (server/billing/webhook.ts), and `refused`: a bad signature, `failed`: an error (Stripe retries). */
export const WEBHOOK_OUTCOMES = ['applied', 'duplicate', 'ignored', 'mismatch', 'refused', 'failed'] as const
export type WebhookOutcomeLabel = (typeof WEBHOOK_OUTCOMES)[number]

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
/** An HTTP method as a label: the usual ones as they are, anything else `other`. */
export const methodLabel = (method: string) => (METHODS.has(method) ? method : 'other')

/** A status as a label: a number from 100 to 599, else `other`. */
export const statusLabel = (status: number) => (Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other')

/** Seconds, from a request's few milliseconds to a slow export's. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** The connections of the database's pool: node-postgres' counts, or PGlite's one connection. */
export type PoolStats = { driver: 'postgres' | 'pglite'; total: number; idle?: number; waiting?: number; max: number }
/** The outbox's waiting messages (neither sent nor failed for good) and the oldest one's age. */
export type OutboxStats = { pending: number; oldestPendingSeconds: number }

export type ProviderMetricsOptions = {
  pool?: () => PoolStats | undefined
  outbox?: () => Promise<OutboxStats>
  /** Node's own series (event-loop delay, heap, GC): on in a served process, off in tests that build many apps. */
  defaultMetrics?: boolean
}

export type ProviderMetrics = {
  registry: Registry
  /** A request answered: `route` is the matched pattern, or `unmatched`. */
  observeRequest(route: string, method: string, status: number, seconds: number): void
  webhook(outcome: WebhookOutcomeLabel): void
  /** A run of a periodic job ended, well or not. */
  jobRun(job: string, ok: boolean): void
  /** A live message stream opened; the function returned closes it (once). */
  streamOpened(): () => void
}

/** A collect() that asks the database must not hold a scrape for long: past this the series keep their last value. */
const COLLECT_TIMEOUT_MS = 2_000

/** A timer that keeps no process alive. */
const unrefTimer = (timer: unknown) => (timer as { unref?: () => void }).unref?.()

export function createProviderMetrics({ pool, outbox, defaultMetrics = false }: ProviderMetricsOptions = {}): ProviderMetrics {
  const registry = new Registry()
  if (defaultMetrics) collectDefaultMetrics({ register: registry })
  const requests = new Counter({ name: 'innera_provider_http_requests_total', help: 'Requests answered, by matched route pattern, method and status.', labelNames: ['route', 'method', 'status'], registers: [registry] })
  const latency = new Histogram({ name: 'innera_provider_http_request_duration_seconds', help: 'Time to answer a request (to its headers), by matched route pattern and method.', labelNames: ['route', 'method'], buckets: LATENCY_BUCKETS, registers: [registry] })
  const webhooks = new Counter({ name: 'innera_provider_payment_webhooks_total', help: "Stripe events received, by what became of them.", labelNames: ['outcome'], registers: [registry] })
  for (const outcome of WEBHOOK_OUTCOMES) webhooks.inc({ outcome }, 0)
  const jobRuns = new Counter({ name: 'innera_provider_job_runs_total', help: 'Runs of the periodic jobs, by job.', labelNames: ['job'], registers: [registry] })
  const jobFailures = new Counter({ name: 'innera_provider_job_failures_total', help: 'Runs of the periodic jobs that failed, by job.', labelNames: ['job'], registers: [registry] })
  const jobLastSuccess = new Gauge({ name: 'innera_provider_job_last_success_timestamp_seconds', help: 'When each periodic job last ended well (Unix time).', labelNames: ['job'], registers: [registry] })
  const streams = new Gauge({ name: 'innera_provider_message_streams_open', help: 'Live message streams (GET /messages/stream/) open now in this process.', registers: [registry] })

  if (pool) {
    new Gauge({
      name: 'innera_provider_db_pool_connections',
      help: "The database pool's connections by state (total, idle, waiting: requests waiting for one); PGlite has one connection and reports only total.",
      labelNames: ['driver', 'state'],
      registers: [registry],
      collect() {
        const stats = pool()
        if (!stats) return
        this.set({ driver: stats.driver, state: 'total' }, stats.total)
        if (stats.idle !== undefined) this.set({ driver: stats.driver, state: 'idle' }, stats.idle)
        if (stats.waiting !== undefined) this.set({ driver: stats.driver, state: 'waiting' }, stats.waiting)
      },
    })
    new Gauge({
      name: 'innera_provider_db_pool_max',
      help: 'The most connections the database pool opens.',
      labelNames: ['driver'],
      registers: [registry],
      collect() {
        const stats = pool()
        if (stats) this.set({ driver: stats.driver }, stats.max)
      },
    })
  }

  if (outbox) {
    // One query per scrape feeds both gauges: the first to collect asks, the other takes its answer.
    const GAUGES = 2
    let latest: { answer: Promise<OutboxStats | undefined>; takers: number } | undefined
    const read = () => {
      if (!latest) {
        const answer = Promise.race([outbox(), new Promise<undefined>((resolve) => unrefTimer(setTimeout(resolve, COLLECT_TIMEOUT_MS)))]).catch(() => undefined)
        latest = { answer, takers: 0 }
      }
      const taken = latest
      if (++taken.takers === GAUGES) latest = undefined
      return taken.answer
    }
    const gauge = (name: string, help: string, pick: (stats: OutboxStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const stats = await read()
          if (stats) this.set(pick(stats))
        },
      })
    gauge('innera_provider_mail_outbox_pending', 'E-mails in the outbox waiting to be sent (neither sent nor failed for good).', (stats) => stats.pending)
    gauge('innera_provider_mail_outbox_oldest_pending_seconds', 'Age of the oldest e-mail waiting in the outbox, 0 when none waits.', (stats) => stats.oldestPendingSeconds)
  }

  return {
    registry,
    observeRequest(route, method, status, seconds) {
      const labels = { route, method: methodLabel(method) }
      requests.inc({ ...labels, status: statusLabel(status) })
      latency.observe(labels, seconds)
    },
    webhook(outcome) {
      webhooks.inc({ outcome })
    },
    jobRun(job, ok) {
      jobRuns.inc({ job })
      // Counted by 0 too, so the failures' series exists (a rate of 0) from a job's first run.
      jobFailures.inc({ job }, ok ? 0 : 1)
      if (ok) jobLastSuccess.set({ job }, Date.now() / 1000)
    },
    streamOpened() {
      streams.inc()
      let open = true
      return () => {
        if (!open) return
        open = false
        streams.dec()
      }
    },
  }
}

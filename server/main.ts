import { serve, type ServerType } from '@hono/node-server'
import { createProviderApp } from '#server/app.ts'
import { claimDataFolder } from '#server/backup/control.ts'
import { ConfigError, describeSmtpUrl, loadConfig, startupWarnings, type ProviderConfig } from '#server/config.ts'
import { findMigrationsDir, openDatabase, type DatabaseHandle } from '#server/db/client.ts'
import { notReadyResponse, type StartingStage } from '#server/http/starting.ts'
import { serveMetrics } from '#server/metrics/serve.ts'
import { seedDatabase } from '#server/seed/seed.ts'
import { FAKE_SECRET_VARIABLES, resolveFakeSecrets } from '#server/fakes/secrets.ts'
import { startPeriodicJobs } from '#server/jobs.ts'
import { resolveVapidKeys } from '#server/push/vapid.ts'
import { jsonLogger } from '#server/log.ts'

// In-flight requests get this long to finish on shutdown before the process exits anyway.
const DRAIN_TIMEOUT_MS = 10_000

function readConfig(): ProviderConfig {
  try {
    return loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

/**
 * `--migrate-only`: the migrations and the seed, then exit 0 without serving: the one-shot
 * migration service of a deployment of several replicas, run before them (decision 0091). The
 * replicas' own start then finds nothing to do; it is safe anyway, since on PostgreSQL the
 * migrations take an advisory lock and the seed only inserts what is missing.
 */
const migrateOnly = process.argv.includes('--migrate-only')

/**
 * A stop asked while the provider starts (opening the database, migrating, seeding) ends the start
 * at once, as a signal's default would: as a container's first process (PID 1) a process that has
 * no handler ignores SIGTERM, and the engine would kill it after its grace period. Nothing is in
 * flight yet (requests answer 503 "not ready"); a migration cut short is rolled back by the
 * database. A migration run alone (`--migrate-only`) says it did not finish.
 */
function stopWhileStarting(signal: NodeJS.Signals) {
  jsonLogger({ level: 'info', msg: 'stopped while starting', signal })
  process.exit(migrateOnly ? 1 : 0)
}

/**
 * What a stop does now: stopWhileStarting, then the drain once the provider serves. One listener
 * for the whole life of the process, its action changed, never a listener taken off and another
 * put on: a signal that arrives between the two (a supervisor that stops the provider the moment it
 * says it listens) would go to the removed one and be lost, and the provider would never stop.
 */
let onStop: (signal: NodeJS.Signals) => void = stopWhileStarting

async function main(): Promise<void> {
  process.on('SIGTERM', (signal) => onStop(signal))
  process.on('SIGINT', (signal) => onStop(signal))
  const configured = readConfig()
  if (!migrateOnly) for (const warning of startupWarnings(configured)) jsonLogger({ level: 'warn', msg: warning })
  // A PGlite folder is one process's: its control socket is its lock, and how `npm run backup`
  // asks this process for a consistent dump while it runs (decision 0090).
  const claim = configured.databaseUrl || configured.dataDir.startsWith('memory://') ? undefined : await claimDataFolder(configured.dataDir, 'provider')
  // Listening from the start: until the app is built every request is a 503 "not ready" saying
  // why (http/starting.ts), so readiness checks see the migrations run. A migration alone serves nothing.
  let stage: StartingStage = 'opening database'
  let handle: (request: Request, env: unknown) => Response | Promise<Response> = () => notReadyResponse(stage)
  const server: ServerType | undefined = migrateOnly
    ? undefined
    : await new Promise((resolve, reject) => {
        const instance = serve({ fetch: (request, env) => handle(request, env), port: configured.port, hostname: configured.host }, () => resolve(instance))
        instance.once('error', reject)
      })
  const database: DatabaseHandle = await openDatabase(configured.databaseUrl ? { url: configured.databaseUrl } : { dataDir: configured.dataDir })
  const startedAt = performance.now()
  stage = 'migrating'
  await database.migrate(findMigrationsDir(configured.migrationsDir))
  const seeded = await seedDatabase(database.db)
  if (!server) {
    await database.close()
    await claim?.release()
    jsonLogger({ level: 'info', msg: 'migrated', database: database.kind, seeded, ms: Math.round(performance.now() - startedAt) })
    return
  }
  // The fakes' keys and signing secrets the environment did not give: this install's own, made at
  // its first start and kept in the database, before the Stripe client and the fakes are built (decision 0073).
  const { config, made } = await resolveFakeSecrets(database.db, configured)
  // The Web Push key pair, unless VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY give it: made at the first start, kept in the database (decision 0087).
  const vapid = await resolveVapidKeys(database.db, config)

  const app = createProviderApp({ db: database.db, config, poolStats: database.poolStats, defaultMetrics: true })
  // Not public (decision 0089): its own port, on loopback unless PROVIDER_METRICS_HOST names another interface.
  const metricsServer = config.metrics ? await serveMetrics(app.services.metrics.registry, config.metrics) : undefined
  claim?.serve(database)
  handle = (request, env) => app.fetch(request, env)
  // The one line on stdout before any request log: `npm start` waits for it.
  process.stdout.write(`provider listening on http://${config.host}:${config.port}\n`)
  jsonLogger({
    level: 'info',
    msg: 'provider ready',
    database: database.kind,
    seeded,
    throttle_store: app.services.throttle.store,
    // Where mail goes, without the SMTP user or password.
    mail: config.smtpUrl ? describeSmtpUrl(config.smtpUrl) : 'outbox only',
    metrics: config.metrics ? `http://${config.metrics.host}:${config.metrics.port}/metrics` : 'off',
    // Where payments go, never the key: the fake, Stripe's API (or another STRIPE_API_URL), or nowhere.
    payments: config.fakeStripe ? 'fake stripe' : config.stripe.secretKey ? `stripe at ${config.stripe.apiUrl}` : 'off',
  })
  // Named by the variables that would give them instead, never by their values.
  if (vapid.made) jsonLogger({ level: 'info', msg: 'made the Web Push (VAPID) key pair for this install, kept in its database', variables: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] })
  if (made.length > 0) jsonLogger({ level: 'info', msg: "made the fakes' secrets for this install, kept in its database", secrets: made.map((name) => FAKE_SECRET_VARIABLES[name]) })
  // Reminders into the outbox, and the outbox through SMTP: in every process, each message once.
  startPeriodicJobs(app.services)
  app.fakes.startJobs()

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    jsonLogger({ level: 'info', msg: 'shutting down', signal })
    metricsServer?.close()
    const forceExit = setTimeout(() => {
      jsonLogger({ level: 'error', msg: 'drain timed out; exiting' })
      process.exit(1)
    }, DRAIN_TIMEOUT_MS)
    forceExit.unref()
    // No new tick starts from now on; one in progress finishes (its claims are whole transactions).
    const ticksStopped = app.services.background.stop()
    // close() stops accepting and waits for in-flight requests; idle keep-alive sockets are closed now.
    server.close(async (error) => {
      try {
        await ticksStopped
        // Mail and accounts queued after their responses (background.ts) are finished first.
        await app.services.background.idle()
        app.services.mailSender?.close()
        await app.services.throttle.close()
        await app.services.messageBus.close()
        // A backup being answered finishes first; then no new one can ask.
        await claim?.release()
        await database.close()
      } finally {
        process.exit(error ? 1 : 0)
      }
    })
    if ('closeIdleConnections' in server) server.closeIdleConnections()
  }
  onStop = stop
}

main().catch((error: unknown) => {
  jsonLogger({ level: 'error', msg: migrateOnly ? 'migration failed' : 'provider failed to start', error: error instanceof Error ? error.message : String(error) })
  process.exit(1)
})

import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { matchedRoutes } from 'hono/route'
import { createLinkTokenGenerator } from '#server/auth/one-time-links.ts'
import { createTokenService } from '#server/auth/tokens.ts'
import { createBackgroundTasks } from '#server/background.ts'
import { MAX_MESSAGE_BODY_BYTES } from '#server/messages/attachment-rules.ts'
import { messageBusOf } from '#server/messages/bus.ts'
import { createTokenSealer } from '#server/calendar/token-sealing.ts'
import { systemClock, type Clock } from '#server/clock.ts'
import type { ProviderConfig } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { registerFakes, type Fakes } from '#server/fakes/register.ts'
import { pendingFakeSecrets } from '#server/fakes/secrets.ts'
import { createGoogleCalendarApi } from '#server/google/calendar-api.ts'
import { createGoogleIdTokenVerifier } from '#server/google/verify-id-token.ts'
import { Api, type AppContext, type AppEnv } from '#server/http/api.ts'
import { NULL_CHARACTERS } from '#server/http/body.ts'
import { apiError, ApiError, errorResponse, methodNotAllowed, notFound } from '#server/http/errors.ts'
import { RouteTable } from '#server/http/route-table.ts'
import { createThrottleRedis, Throttle } from '#server/http/throttle.ts'
import { errorFields, jsonLogger, redactPath, type Logger } from '#server/log.ts'
import { createSmtpSender, type MailSender } from '#server/mail/delivery.ts'
import { outboxStats } from '#server/mail/outbox-stats.ts'
import { createProviderMetrics, type PoolStats } from '#server/metrics/registry.ts'
import { createPushSender } from '#server/push/sender.ts'
import { createStripeClient } from '#server/stripe/client.ts'
import { registerAccountRoutes } from '#server/routes/accounts.ts'
import { registerAdminContentQuestionnaireRoutes } from '#server/routes/admin-content-questionnaire.ts'
import { registerAdminContentCourseRoutes } from '#server/routes/admin-content-courses.ts'
import { registerAdminAuditRoutes } from '#server/routes/admin-audit.ts'
import { registerAdminContentRoutes } from '#server/routes/admin-content.ts'
import { registerAdminContentClassRoutes } from '#server/routes/admin-content-classes.ts'
import { registerAdminDashboardRoutes } from '#server/routes/admin-dashboard.ts'
import { registerAdminPurchaseRoutes } from '#server/routes/admin-purchases.ts'
import { registerAdminContentPillarRoutes } from '#server/routes/admin-content-pillars.ts'
import { registerAdminContentProductRoutes } from '#server/routes/admin-content-products.ts'
import { registerAppointmentRoutes } from '#server/routes/appointments.ts'
import { registerAuthenticationRoutes } from '#server/routes/authentication.ts'
import { registerCalendarRoutes } from '#server/routes/calendar.ts'
import { registerCartRoutes } from '#server/routes/cart.ts'
import { registerCalendarFeedRoutes } from '#server/routes/calendar-feed.ts'
import { registerContactRoutes } from '#server/routes/contact.ts'
import { registerMessageRoutes } from '#server/routes/messages.ts'
import { registerPushRoutes } from '#server/routes/push.ts'
import { registerAdminMessageReportRoutes } from '#server/routes/admin-message-reports.ts'
import { registerLiveClassRoutes } from '#server/routes/live-classes.ts'
import { createZoomClient } from '#server/zoom/client.ts'
import { registerGoogleAuthRoutes } from '#server/routes/google-auth.ts'
import { registerHabitRoutes } from '#server/routes/habits.ts'
import { registerHealthRoutes } from '#server/routes/health.ts'
import { registerMediaRoutes } from '#server/routes/media.ts'
import { registerCourseRoutes } from '#server/routes/courses.ts'
import { registerPillarRoutes } from '#server/routes/pillars.ts'
import { registerProductRoutes } from '#server/routes/products.ts'
import { registerProfessionalRoutes } from '#server/routes/professionals.ts'
import { registerProfileRoutes } from '#server/routes/profile.ts'
import { registerPrivacyRoutes } from '#server/routes/privacy.ts'
import { registerPurchaseRoutes } from '#server/routes/purchases.ts'
import { registerSubscriptionRoutes } from '#server/routes/subscriptions.ts'
import { registerProgramRoutes } from '#server/routes/program.ts'
import { registerQuestionnaireRoutes } from '#server/routes/questionnaire.ts'
import { resolveRequestAddress } from '#server/routes/throttling.ts'
import { registerUserAdminRoutes } from '#server/routes/user-admin.ts'
import type { Services } from '#server/services.ts'

type ProviderAppOptions = {
  db: Database
  config: ProviderConfig
  clock?: Clock
  log?: Logger
  /** Used to reach Google (its JWKS, OAuth and Calendar), Stripe and Zoom. Defaults to global fetch, served in-process for our own URLs. */
  fetch?: typeof fetch
  /** How the outbox is sent. Defaults to SMTP at config.smtpUrl, or none when that is unset. */
  mailSender?: MailSender
  /** The database pool's connections, for /metrics (main.ts passes the handle's). */
  poolStats?: () => PoolStats | undefined
  /** Node's own series (event loop, heap) on /metrics: main.ts turns them on; tests build many apps in one process. */
  defaultMetrics?: boolean
}

export type ProviderApp = Hono<AppEnv> & { services: Services; fakes: Fakes }

const THREE_DAYS_SECONDS = 3 * 24 * 3600
// Room for a 2 MB photo plus multipart overhead; bigger bodies are refused before parsing.
const MAX_BODY_BYTES = 5 * 1024 * 1024
// A message's files (decision 0086): five of 10 MB each, plus the form around them.
const MESSAGE_PATH = /^\/messages\/conversations\/[0-9]+\/messages\/$/
// Paths that are not part of the provider API (the fake Stripe's API is /v1/): never delayed by PROVIDER_DELAY_MS.
const UNDELAYED_PREFIXES = ['/healthz/', '/readyz/', '/dev/', '/fake-google/', '/v1/', '/fake-stripe/', '/fake-zoom/', '/fake-push/', '/media/']

/** Builds the provider's HTTP app (no listening), so tests can drive it with app.request(). */
export function createProviderApp({ db, config, clock = systemClock, log = jsonLogger, fetch: fetchOverride, mailSender, poolStats, defaultMetrics }: ProviderAppOptions): ProviderApp {
  // A fake without its secret would run keyless (payments off, Zoom refused); main.ts resolves them first.
  const unresolved = pendingFakeSecrets(config)
  if (unresolved.length > 0) throw new Error(`the fakes' secrets ${unresolved.join(', ')} are not resolved: resolveFakeSecrets (fakes/secrets.ts) comes before the app`)
  const app = new Hono<AppEnv>()
  const routes = new RouteTable()
  const api = new Api(app, routes)

  // Requests for our own public URL (the fake Google's JWKS, tokens and calendar) are answered
  // in-process: this works even where the public URL is not reachable from inside, e.g. in a
  // container, and lets tests drive the whole Google flow without a listening socket.
  const ownOrigin = `${config.providerPublicUrl}/`
  const loopbackFetch: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    return url.startsWith(ownOrigin) ? Promise.resolve(app.request(url, init)) : fetch(input, init)
  }

  const metrics = createProviderMetrics({ pool: poolStats, outbox: () => outboxStats(db, clock()), defaultMetrics })
  const services: Services = {
    db,
    config,
    clock,
    log,
    metrics,
    tokens: createTokenService({
      secret: config.jwtSecret,
      accessLifetimeSeconds: config.accessTokenLifetimeSeconds,
      refreshLifetimeSeconds: config.refreshTokenLifetimeSeconds,
      clock,
    }),
    throttle: new Throttle({
      disabled: config.throttle.disabled,
      redis: config.redisUrl && !config.throttle.disabled ? createThrottleRedis(config.redisUrl, log) : undefined,
      keyPrefix: config.redisKeyPrefix,
    }),
    emailConfirmationLinks: createLinkTokenGenerator({ secret: config.jwtSecret, purpose: 'email-confirmation', timeoutSeconds: THREE_DAYS_SECONDS, clock }),
    verifyGoogleIdToken: createGoogleIdTokenVerifier({
      jwksUrl: config.google.jwksUrl,
      issuer: config.google.issuer,
      clientId: config.google.clientId,
      clock,
      fetch: fetchOverride ?? loopbackFetch,
    }),
    background: createBackgroundTasks(log, { onRun: metrics.jobRun }),
    messageBus: messageBusOf(db, log),
    // nodemailer connects only when it sends: building the transport costs nothing.
    mailSender: mailSender ?? (config.smtpUrl ? createSmtpSender(config.smtpUrl, config.smtpFrom) : undefined),
    googleCalendar: createGoogleCalendarApi(config, fetchOverride ?? loopbackFetch),
    tokenSealer: createTokenSealer(config.jwtSecret),
    stripe: createStripeClient(config.stripe, { fetch: fetchOverride ?? loopbackFetch }),
    zoom: createZoomClient(config.zoom, { fetch: fetchOverride ?? loopbackFetch, clock }),
    push: createPushSender({ db, config, fetch: fetchOverride ?? loopbackFetch, log }),
  }

  // One structured line per request, without query string, headers or body (they can hold
  // secrets) and with the secrets in paths redacted (log.ts redactPath).
  app.use(async (c, next) => {
    const started = performance.now()
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID()
    c.set('requestId', requestId)
    c.set('clientAddress', resolveRequestAddress(c, config.forwardingSecret))
    await next()
    metrics.observeRequest(matchedPattern(c), c.req.method, c.res.status, (performance.now() - started) / 1000)
    c.header('X-Request-Id', requestId)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'same-origin')
    log({
      level: 'info',
      msg: 'request',
      request_id: requestId,
      method: c.req.method,
      path: redactPath(c.req.path),
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    })
  })

  // PostgreSQL text cannot hold U+0000, so a NUL would fail the query (a 500): refused here for
  // the path and query of every request; http/body.ts refuses it in bodies.
  app.use(async (c, next) => {
    // The URL as received: a NUL arrives percent-encoded, whatever it was meant to be part of.
    if (c.req.url.includes('%00') || c.req.url.includes('\0')) throw apiError(400, NULL_CHARACTERS)
    await next()
  })

  if (config.delayMs > 0) {
    app.use(async (c, next) => {
      if (!UNDELAYED_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) {
        await new Promise((resolve) => setTimeout(resolve, config.delayMs))
      }
      await next()
    })
  }

  // Only requests that may carry a body are measured: reading c.req.raw makes @hono/node-server
  // build a full web Request, which a GET (most of the traffic) never needs.
  const tooLarge = () => errorResponse(apiError(413, 'Request body is too large.'))
  const limitBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge })
  const limitMessageBody = bodyLimit({ maxSize: MAX_MESSAGE_BODY_BYTES, onError: tooLarge })
  app.use((c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : MESSAGE_PATH.test(c.req.path) ? limitMessageBody(c, next) : limitBody(c, next)))

  registerHealthRoutes(api, services)
  registerAuthenticationRoutes(api, services)
  registerAccountRoutes(api, services)
  registerProfileRoutes(api, services)
  registerPrivacyRoutes(api, services)
  registerProfessionalRoutes(api, services)
  registerUserAdminRoutes(api, services)
  registerAdminAuditRoutes(api, services)
  registerAdminContentRoutes(api, services)
  registerAdminDashboardRoutes(api, services)
  registerGoogleAuthRoutes(api, services)
  registerPillarRoutes(api, services)
  registerProductRoutes(api, services)
  registerCartRoutes(api, services)
  registerPurchaseRoutes(api, services)
  registerAdminPurchaseRoutes(api, services)
  registerAdminContentPillarRoutes(api, services)
  registerAdminContentProductRoutes(api, services)
  registerAdminContentCourseRoutes(api, services)
  registerSubscriptionRoutes(api, services)
  registerQuestionnaireRoutes(api, services)
  registerAdminContentQuestionnaireRoutes(api, services)
  registerProgramRoutes(api, services)
  registerAppointmentRoutes(api, services)
  registerCalendarFeedRoutes(api, services)
  registerCalendarRoutes(api, services)
  registerHabitRoutes(api, services)
  registerContactRoutes(api, services)
  registerMessageRoutes(api, services)
  registerPushRoutes(api, services)
  registerAdminMessageReportRoutes(api, services)
  registerMediaRoutes(api, services)
  registerCourseRoutes(api, services)
  registerLiveClassRoutes(api, services)
  registerAdminContentClassRoutes(api, services)
  // The stand-ins for Google, Zoom, Stripe and the mailbox, those the configuration turns on: never imported by the real code.
  const fakes = registerFakes(api, services, fetchOverride ?? loopbackFetch)

  app.notFound((c) => {
    const path = c.req.path
    const allowed = routes.allowedMethods(path)
    if (allowed) {
      if (c.req.method === 'OPTIONS') return c.body(null, 200, { Allow: allowed.join(', ') })
      return errorResponse(methodNotAllowed(c.req.method, allowed))
    }
    // Django's APPEND_SLASH: a GET without the trailing slash is redirected to the real path.
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && !path.endsWith('/') && routes.allowedMethods(`${path}/`)) {
      const url = new URL(c.req.url)
      return c.redirect(`${path}/${url.search}`, 301)
    }
    return errorResponse(notFound())
  })

  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(error)
    log({
      level: 'error',
      msg: 'unhandled error',
      request_id: c.get('requestId'),
      method: c.req.method,
      path: redactPath(c.req.path),
      ...errorFields(error),
    })
    return errorResponse(apiError(500, 'A server error occurred.'))
  })

  return Object.assign(app, { services, fakes })
}

/**
 * The route pattern that answered, as a metrics label (never the URL: ids would make a series
 * each): `/purchases/:id/` for /purchases/42/, `unmatched` when only the middleware ran (a 404,
 * a 405, a refusal before any route).
 */
function matchedPattern(c: AppContext): string {
  const path = matchedRoutes(c)[c.req.routeIndex]?.path
  if (!path || path === '*' || path === '/*') return 'unmatched'
  return path.replace(/\{[^}]*\}/g, '')
}

import type Stripe from 'stripe'
import type { BackgroundTasks } from '#server/background.ts'
import type { TokenSealer } from '#server/calendar/token-sealing.ts'
import type { Clock } from '#server/clock.ts'
import type { ProviderConfig } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import type { GoogleCalendarApi } from '#server/google/calendar-api.ts'
import type { GoogleIdTokenVerifier } from '#server/google/verify-id-token.ts'
import type { LinkTokenGenerator } from '#server/auth/one-time-links.ts'
import type { TokenService } from '#server/auth/tokens.ts'
import type { Throttle } from '#server/http/throttle.ts'
import type { Logger } from '#server/log.ts'
import type { MailSender } from '#server/mail/delivery.ts'
import type { MessageBus } from '#server/messages/bus.ts'
import type { ProviderMetrics } from '#server/metrics/registry.ts'
import type { PushSender } from '#server/push/sender.ts'
import type { ZoomClient } from '#server/zoom/client.ts'

/** Everything the route modules need, built once per app by createProviderApp. */
export type Services = {
  db: Database
  config: ProviderConfig
  clock: Clock
  log: Logger
  /** The Prometheus series this process serves on its metrics port (metrics/registry.ts, docs/metrics.md). */
  metrics: ProviderMetrics
  tokens: TokenService
  throttle: Throttle
  emailConfirmationLinks: LinkTokenGenerator
  verifyGoogleIdToken: GoogleIdTokenVerifier
  /** Work done after the response, and the periodic ticks (jobs.ts): see background.ts. */
  background: BackgroundTasks
  /** SMTP delivery of the outbox, when SMTP_URL is set (mail/delivery.ts). */
  mailSender: MailSender | undefined
  /** Google's OAuth and Calendar v3 at the configured URLs (the fake's with FAKE_GOOGLE). */
  googleCalendar: GoogleCalendarApi
  /** Seals the stored Google tokens under a key derived from PROVIDER_JWT_SECRET. */
  tokenSealer: TokenSealer
  /** The official Stripe SDK at STRIPE_API_URL (the fake's with FAKE_STRIPE); undefined when payments are off. */
  stripe: Stripe | undefined
  /** Zoom's meetings API at ZOOM_API_URL (the fake's with FAKE_ZOOM), for the live classes. */
  zoom: ZoomClient
  /** Every process's conversation events (LISTEN/NOTIFY), for the live message streams (decision 0085). */
  messageBus: MessageBus
  /** Web Push to the users' browsers (decision 0087), signed with the VAPID keys (the fake push service's with FAKE_PUSH in tests). */
  push: PushSender
}

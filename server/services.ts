import type Stripe from 'stripe'
import type { BackgroundTasks } from './background'
import type { TokenSealer } from './calendar/token-sealing'
import type { Clock } from './clock'
import type { ProviderConfig } from './config'
import type { Database } from './db/client'
import type { GoogleCalendarApi } from './google/calendar-api'
import type { GoogleIdTokenVerifier } from './google/verify-id-token'
import type { LinkTokenGenerator } from './auth/one-time-links'
import type { TokenService } from './auth/tokens'
import type { Throttle } from './http/throttle'
import type { Logger } from './log'
import type { MailSender } from './mail/delivery'
import type { WebhookSender } from './payments/fake-stripe-webhooks'
import type { ZoomClient } from './zoom/client'

/** Everything the route modules need, built once per app by createProviderApp. */
export type Services = {
  db: Database
  config: ProviderConfig
  clock: Clock
  log: Logger
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
  /** With FAKE_STRIPE: the fake's webhook sender (payments/fake-stripe-webhooks.ts). */
  fakeStripeWebhooks: WebhookSender | undefined
}

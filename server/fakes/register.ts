import type { Api } from '#server/http/api.ts'
import type { Services } from '#server/services.ts'
import { registerFakeGoogleCalendarRoutes } from '#server/fakes/google/calendar-routes.ts'
import { registerFakeGoogleRoutes } from '#server/fakes/google/oauth-routes.ts'
import { registerDevMailboxRoutes } from '#server/fakes/mailbox/routes.ts'
import { registerFakePushRoutes } from '#server/fakes/push/routes.ts'
import { registerFakeStripeRoutes } from '#server/fakes/stripe/api-routes.ts'
import { registerFakeStripePageRoutes } from '#server/fakes/stripe/page-routes.ts'
import { FAKE_STRIPE_TICK_MS, fakeStripeTick, type FakeStripeReport } from '#server/fakes/stripe/tick.ts'
import { createWebhookSender, type WebhookSender } from '#server/fakes/stripe/webhooks.ts'
import { registerFakeZoomRoutes } from '#server/fakes/zoom/routes.ts'

/**
 * The stand-ins for the outside services (decision 0012): the development mailbox, a fake Google
 * (sign-in and Calendar), a fake Zoom, a fake Stripe and a fake push service (decision 0087), each speaking its real API at the
 * provider's own address so that `npm start` works offline and an operator's keys switch to the
 * real service. Nothing of the real code imports a fake: createProviderApp makes this one call,
 * which mounts those the configuration turns on.
 */
export type Fakes = {
  /** With FAKE_STRIPE: the fake's webhook sender (fakes/stripe/webhooks.ts). */
  stripeWebhooks: WebhookSender | undefined
  /** The fake Stripe's periodic work once (tests call it with a fake clock); undefined without it. */
  stripeTick: () => Promise<FakeStripeReport | undefined>
  /** Starts the fakes' periodic work on the background tasks (main.ts, beside the provider's own). */
  startJobs: () => void
}

export function registerFakes(api: Api, services: Services, fetch: typeof globalThis.fetch): Fakes {
  const { config, db, clock, log } = services
  const stripeWebhooks =
    config.fakeStripe && config.stripe.webhookSecret
      ? createWebhookSender({ db, secret: config.stripe.webhookSecret, clock, log, fetch, duplicatePercent: config.stripe.fakeWebhookDuplicatePercent })
      : undefined
  if (config.devMailbox) registerDevMailboxRoutes(api, services)
  if (config.fakeGoogle) {
    registerFakeGoogleRoutes(api, services)
    registerFakeGoogleCalendarRoutes(api, services)
  }
  if (config.fakeZoom && config.zoom) registerFakeZoomRoutes(api, services)
  if (config.push.fake) registerFakePushRoutes(api, services)
  if (config.fakeStripe) {
    registerFakeStripeRoutes(api, services, stripeWebhooks)
    registerFakeStripePageRoutes(api, services, stripeWebhooks)
  }
  const stripeTick = async () => (stripeWebhooks ? fakeStripeTick(services, stripeWebhooks) : undefined)
  return {
    stripeWebhooks,
    stripeTick,
    startJobs: () => {
      if (stripeWebhooks) services.background.every('fake stripe', FAKE_STRIPE_TICK_MS, stripeTick)
    },
  }
}

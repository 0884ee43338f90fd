import type { Services } from '#server/services.ts'
import { expireDueCheckoutSessions } from '#server/fakes/stripe/checkout.ts'
import { expireDuePixCharges } from '#server/fakes/stripe/payments.ts'
import { advanceDueSubscriptions } from '#server/fakes/stripe/subscriptions.ts'
import type { WebhookReport, WebhookSender } from '#server/fakes/stripe/webhooks.ts'

/** How often the fake Stripe expires PIX charges and sends (or retries) its webhooks. */
export const FAKE_STRIPE_TICK_MS = 2000

export type FakeStripeReport = WebhookReport & { expired: number; subscriptions: number }

/**
 * With FAKE_STRIPE: PIX charges unpaid past their expiry fail (payment_intent.payment_failed) and
 * open Checkout Sessions past theirs expire (checkout.session.expired), subscriptions whose trial or
 * period has ended move on (a new invoice, charged); then the webhooks due are sent, first attempts
 * and retries (fakes/stripe/webhooks.ts).
 */
export async function fakeStripeTick({ db, clock, config }: Services, webhooks: WebhookSender): Promise<FakeStripeReport> {
  const context = { db, now: clock(), publicUrl: config.providerPublicUrl, webhookUrl: config.stripe.fakeWebhookUrl }
  const expired = (await expireDuePixCharges(context)) + (await expireDueCheckoutSessions(context))
  const subscriptions = await advanceDueSubscriptions(context)
  return { expired, subscriptions, ...(await webhooks.deliverDue()) }
}

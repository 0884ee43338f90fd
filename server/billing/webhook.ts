import type Stripe from 'stripe'
import { apiError } from '#server/http/errors.ts'
import { errorFields } from '#server/log.ts'
import type { Services } from '#server/services.ts'
import { isStripeError, paymentsOff, stripeOf, unavailableError } from '#server/stripe/client.ts'
import { applyBilling, billingSignalOf } from '#server/billing/invoices.ts'
import { applySavedCard } from '#server/billing/saved-card.ts'
import { applySignalToLocked, type Applied } from '#server/billing/apply.ts'
import { askStripe, afterCommit } from '#server/billing/stripe-news.ts'
import { claimEventAndLock } from '#server/purchases/repository.ts'
import type { PaymentSignal } from '#server/purchases/statuses.ts'
import { signalOfEvent, signedAt } from '#server/billing/stripe-signals.ts'

/** Stripe's events (decision 0046): one transaction each, exactly once whatever the number of processes. */

/** `mismatch`: a payment that does not fit its purchase, recorded for the admins and granting nothing (decision 0074). */
type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'mismatch'

/** Thrown inside the webhook's transaction to roll it back, claim and all, when its event must be checked with Stripe first. */
class MustAskStripe extends Error {}

/**
 * A Stripe event (decision 0046): its signature checked by the SDK over the raw body with a
 * 5-minute tolerance (as of our clock; one signed more than 5 minutes ahead of it is refused too),
 * then, in ONE transaction, its id recorded (the primary key: a duplicate, from any process, finds
 * it and does nothing) and its effect applied. A failure rolls both back: Stripe redelivers, and
 * the redelivery applies it.
 *
 * An event that does not fit its purchase (decision 0074: a payment by a PaymentIntent the purchase
 * does not know, of another amount, a refund before its payment) is not applied from its copy: the
 * transaction is rolled back, Stripe is asked for the PaymentIntent and its charge (no Stripe call
 * inside a transaction), and what Stripe says is applied in a second one that records the event.
 * Stripe away then: a 503, nothing recorded, and Stripe's redelivery tries again.
 *
 * Few statements, as each costs its own round trip (on PGlite, inside a transaction, its own parse
 * and plan too): a payment that fits takes two (the event recorded with its purchase found and
 * locked; the transition with its record and grants), a duplicate one (issue 24: 200 events a second).
 */
export async function receiveWebhook(services: Services, rawBody: string, signature: string | undefined): Promise<WebhookOutcome> {
  const { db, clock, config, log } = services
  const stripe = stripeOf(services)
  if (!config.stripe.webhookSecret) throw paymentsOff()
  let event: Stripe.Event
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature ?? '', config.stripe.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, clock())
    // The SDK checks only the age: a timestamp far ahead would make a captured event replayable until then.
    const at = signedAt(signature ?? '')
    if (at === undefined || at - Math.floor(clock() / 1000) > WEBHOOK_TOLERANCE_SECONDS) throw new Error('signed too far ahead')
  } catch {
    throw apiError(400, 'Invalid Stripe signature.', { code: 'invalid_signature' })
  }
  const read = signalOfEvent(event)
  // A renewing plan's news (decision 0052); a paid invoice's PaymentIntent is asked for first (no Stripe call inside the transaction).
  const billing = billingSignalOf(event)
  const paymentIntentId = billing?.kind === 'invoice_paid' && billing.amountCents > 0 ? await invoicePaymentIntent(stripe, billing.invoiceId) : null
  if (billing?.kind === 'card_saved') await applySavedCard(services, stripe, billing, event.id)

  /** Records the event and applies `signals` (the event's own, or what Stripe said when asked). */
  const receive = async (signals: PaymentSignal[] | undefined, asked: boolean) => {
    const applied: Applied[] = []
    const outcome = await db.transaction(async (tx): Promise<WebhookOutcome> => {
      // A renewing plan's news locks no purchase here: applyBilling finds its own.
      const { claimed, purchase } = await claimEventAndLock(tx, { id: event.id, type: event.type, now: clock() }, billing ? undefined : read?.ref)
      if (!claimed) return 'duplicate'
      if (billing) return (await applyBilling(tx, billing, { now: clock(), appUrl: config.appPublicUrl, eventId: event.id, paymentIntentId })) ? 'applied' : 'ignored'
      if (!signals || signals.length === 0 || !purchase) return 'ignored'
      let current = purchase
      for (const signal of signals) {
        const result = await applySignalToLocked(tx, current, signal, { source: 'webhook', eventId: event.id, now: clock() })
        if (result.ask && !asked) throw new MustAskStripe()
        applied.push(result)
        current = result.purchase ?? current
      }
      return applied.some((result) => result.mismatch) ? 'mismatch' : 'applied'
    })
    await afterCommit(services, applied, event.id)
    return outcome
  }

  try {
    return await receive(read && [read.signal], false)
  } catch (error) {
    if (!(error instanceof MustAskStripe) || !read) throw error
  }
  let signals: PaymentSignal[]
  try {
    signals = await askStripe(stripe, read.signal)
  } catch (error) {
    if (!isStripeError(error)) throw error
    log({ level: 'warn', msg: 'stripe event not checked: stripe unreachable', event_id: event.id, type: event.type, ...errorFields(error) })
    throw unavailableError()
  }
  return receive(signals, true)
}

/** Stripe's own default: an event signed more than 5 minutes ago is refused (a replay). */
const WEBHOOK_TOLERANCE_SECONDS = 300

/** The PaymentIntent that paid an invoice (Stripe's InvoicePayments), so its refund can be made. */
async function invoicePaymentIntent(stripe: Stripe, invoiceId: string): Promise<string | null> {
  const payments = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 })
  const paid = payments.data.find((payment) => payment.status === 'paid') ?? payments.data[0]
  const intent = paid?.payment?.payment_intent
  return (typeof intent === 'string' ? intent : intent?.id) ?? null
}

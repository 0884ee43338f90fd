import Stripe from 'stripe'
import type { ProviderConfig } from '#server/config.ts'
import { apiError } from '#server/http/errors.ts'
import type { Services } from '#server/services.ts'

/**
 * The provider's only way to Stripe: the official SDK, one instance per app (services.stripe),
 * pointed through its host/port/protocol options at STRIPE_API_URL, which is Stripe's own API or,
 * with FAKE_STRIPE, the fake at the root of the provider's address (decision 0046). The SDK
 * retries network failures, 409s and 5xx itself, with the same Idempotency-Key (it makes one for
 * every POST when retries are on), so a retried create never charges twice.
 */

/** Stripe answers in well under a second; a request held longer is a failure the caller reports. */
const STRIPE_TIMEOUT_MS = 15_000
/** Two retries with the SDK's backoff (0.5 s, then 1 s, with jitter): a blip passes, an outage fails fast. */
const STRIPE_MAX_NETWORK_RETRIES = 2

type StripeClientOptions = {
  /** Send the requests through this fetch (app.ts: our own public URL answered in-process); else Node's http. */
  fetch?: typeof fetch
}

/** The Stripe client of this configuration, or undefined when payments are off (no key, no fake). */
export function createStripeClient(settings: ProviderConfig['stripe'], { fetch }: StripeClientOptions = {}): Stripe | undefined {
  if (!settings.secretKey) return undefined
  const url = new URL(settings.apiUrl)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return new Stripe(settings.secretKey, {
    protocol,
    // URL keeps an IPv6 address in brackets; Node's http wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port || (protocol === 'http' ? 80 : 443),
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    ...(fetch && { httpClient: Stripe.createFetchHttpClient(fetch) }),
    appInfo: { name: 'Innera' },
  })
}

export const UNAVAILABLE = 'The payment service could not be reached. Nothing was charged; try again in a moment.'
/** Stripe could not be reached or refused to start: nothing was charged (503). */
export const unavailableError = () => apiError(503, UNAVAILABLE, { code: 'payment_provider_unavailable' })
export const paymentsOff = () => apiError(503, 'Payments are not available.', { code: 'payments_off' })

/** The Stripe client, or a 503 when payments are not set up. */
export function stripeOf(services: Pick<Services, 'stripe'>): Stripe {
  if (!services.stripe) throw paymentsOff()
  return services.stripe
}

export const isStripeError = (error: unknown): error is Stripe.errors.StripeError => error instanceof Stripe.errors.StripeError
/** Stripe refused the request itself (a 4xx other than a rate limit): repeating it will not help. */
export const isRefusal = (error: unknown) => error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError

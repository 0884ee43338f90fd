/**
 * The fake Stripe's refusals, in Stripe's shape: HTTP status and
 * `{"error": {"type", "code"?, "decline_code"?, "message", "param"?, ...}}`, which the SDK turns
 * into its StripeInvalidRequestError, StripeCardError, StripeAuthenticationError and so on.
 */
export type StripeErrorBody = {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error'
  message: string
  code?: string
  decline_code?: string
  param?: string
  doc_url?: string
  [extra: string]: unknown
}

export class FakeStripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message)
    this.name = 'FakeStripeError'
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`

export const invalidRequest = (message: string, { code, param }: { code?: string; param?: string } = {}) =>
  new FakeStripeError(400, { type: 'invalid_request_error', message, ...(code && { code, doc_url: docUrl(code) }), ...(param && { param }) })

export const missingParam = (param: string) => invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param })

export const resourceMissing = (kind: string, id: string, param = 'id') =>
  new FakeStripeError(404, { type: 'invalid_request_error', code: 'resource_missing', doc_url: docUrl('resource_missing'), message: `No such ${kind}: '${id}'`, param })

export const unexpectedState = (message: string, code = 'payment_intent_unexpected_state') => invalidRequest(message, { code })

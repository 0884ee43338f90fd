import { type TFunction } from 'i18next'
import { currentRequestContext } from '#app/http/request-context.server.ts'
import { type Message, ProviderError, messageForFailure } from '#app/provider/errors.ts'

export function messageText(t: TFunction, message: Message): string {
  return 'text' in message ? message.text : t(message.key, message.values)
}

/** The docs/product.md §8 text for a provider failure, in the user's language; other errors are rethrown. */
export function failureText(t: TFunction, error: unknown, overrides: Partial<Record<number, string>> = {}): string {
  if (!(error instanceof ProviderError)) throw error
  const status = error.status
  if (status !== undefined && overrides[status]) return t(overrides[status]!)
  return messageText(t, messageForFailure(error.failure))
}

/**
 * The status and headers of a form's reply after a provider failure. A throttled request stays a
 * 429 with the provider's Retry-After, so the browser, scripts and proxies see the wait too;
 * every other failure is a 400 that re-renders the form. The wait is also told to the request's
 * context: a document answer gets its Retry-After from the HTTP layer (app/http/retry-after.server.ts).
 */
export function failureInit(error: unknown, headers?: HeadersInit): { status: number; headers: Headers } {
  const merged = new Headers(headers)
  if (error instanceof ProviderError && error.status === 429) {
    const failure = error.failure
    const seconds = failure.kind === 'http' ? (failure.retryAfterSeconds ?? 60) : 60
    merged.set('Retry-After', String(seconds))
    const context = currentRequestContext()
    if (context) context.retryAfterSeconds = seconds
    return { status: 429, headers: merged }
  }
  return { status: 400, headers: merged }
}

import { data } from '@remix-run/node'
import { isFormSubmission } from '#app/http/request-context.server.ts'
import { NETWORK_ERROR_REASON, ProviderError } from './errors.ts'

/**
 * Turns a provider failure in a loader into the error page the user should see: the network page
 * when the provider could not be reached, the provider's own status otherwise (a provider 5xx is a 500).
 */
export function errorResponseFor(error: unknown): never {
  if (!(error instanceof ProviderError)) throw error
  if (error.failure.kind === 'network') throw data({ reason: NETWORK_ERROR_REASON }, { status: 503 })
  const status = error.failure.status
  throw data({ reason: 'provider' }, { status: status >= 500 ? 500 : status })
}

/** A failed read that the page can do without (`.catch(orNull)`): the page shows the rest and says what is missing. */
export function orNull(error: unknown): null {
  if (error instanceof ProviderError) return null
  throw error
}

/**
 * For a page's loader: a provider failure becomes the error page, except while a form submission
 * is being answered (the action has already said what failed): then the page is drawn without
 * that part (null), around what the user typed.
 */
export function nullWhileResubmitting(error: unknown): null {
  if (isFormSubmission() && error instanceof ProviderError && (error.isNetwork || (error.status ?? 0) >= 500)) return null
  return errorResponseFor(error)
}

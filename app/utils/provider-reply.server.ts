import { type Submission, type SubmissionResult } from '@conform-to/react'
import { type TFunction } from 'i18next'
import { ProviderError } from '#app/provider/errors.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'

/**
 * Where one provider field's errors go on the form: a form field of the same or another name,
 * with the messages kept as they came or rewritten (translated, or replaced by our own text).
 */
export type FieldTarget = string | { field: string; messages?: (provided: string[]) => string[] }

type FailureReplyOptions = {
  /** Provider field name → form field. Errors of fields not listed fall back to the form's message. */
  fields?: Record<string, FieldTarget>
  /** A status → translation key, for the form's message (e.g. a refused login). */
  statusMessages?: Partial<Record<number, string>>
  /** Fields never echoed back (passwords). */
  hideFields?: string[]
}

/** Every form field named as itself: `sameNames(['phone', 'bio'])`. */
export const sameNames = (names: readonly string[]): Record<string, string> => Object.fromEntries(names.map((name) => [name, name]))

/**
 * A form's reply after the provider refused or failed: the provider's field errors (a 400) on
 * their fields, anything else as the form's message from the docs/product.md §8 catalogue in the user's
 * language; what was typed comes back (hidden fields excepted), and the status is 400, or 429
 * with Retry-After when throttled. Other errors are rethrown.
 */
export function replyToFailure(
  submission: Submission<unknown>,
  error: unknown,
  t: TFunction,
  { fields = {}, statusMessages = {}, hideFields }: FailureReplyOptions = {},
): { result: SubmissionResult<string[]>; init: ResponseInit } {
  if (!(error instanceof ProviderError)) throw error
  const failure = error.failure
  const fieldErrors: Record<string, string[]> = {}
  if (failure.kind === 'http' && failure.status === 400) {
    for (const [name, provided] of Object.entries(failure.fieldErrors ?? {})) {
      const target = fields[name]
      if (!target || provided.length === 0) continue
      const { field, messages } = typeof target === 'string' ? { field: target, messages: undefined } : target
      fieldErrors[field] = [...(fieldErrors[field] ?? []), ...(messages ? messages(provided) : provided)]
    }
  }
  const formErrors = Object.keys(fieldErrors).length > 0 ? [] : [failureText(t, error, statusMessages)]
  return { result: submission.reply({ formErrors, fieldErrors, hideFields }), init: failureInit(error) }
}

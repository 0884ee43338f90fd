import { type TFunction } from 'i18next'
import { type Message, ProviderError, messageForFailure } from '#app/provider/errors.ts'

export function messageText(t: TFunction, message: Message): string {
  return 'text' in message ? message.text : t(message.key, message.values)
}

/** The SPEC §8 text for a provider failure, in the user's language; other errors are rethrown. */
export function failureText(t: TFunction, error: unknown, overrides: Partial<Record<number, string>> = {}): string {
  if (!(error instanceof ProviderError)) throw error
  const status = error.status
  if (status !== undefined && overrides[status]) return t(overrides[status]!)
  return messageText(t, messageForFailure(error.failure))
}
